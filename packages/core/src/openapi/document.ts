import { STATUS_CODES } from 'node:http';
// Types only: openapi3-ts's runtime module loads `yaml` (~70 modules, ~20 ms of every start) for
// a YAML export Tern never uses, and its builder only assigns keys of the object built here.
import type {
  OpenAPIObject,
  OperationObject,
  ParameterObject,
  PathItemObject,
  ReferenceObject,
  ResponseObject,
  ResponsesObject,
  SchemaObject,
  SecuritySchemeObject,
} from 'openapi3-ts/oas31';
import type { RouteInfo, RouteParamInfo } from '../routing/route-info';
import { SAFE_IN_DOCUMENT } from '../routing/route-options';
import type { OpenAPIConfig } from './config';
import { OpenAPIDocumentError } from './errors';
import { copyJson } from './copy-json';
import { describeRequestBody } from './request-body';
import { applyProduces, isFormType, readsJson, requestBodyOf } from './content';
import { isJsonType } from '../http/media-type';
import { isSecurityEnforced, keyServerSchemes } from './enforced';
import { OperationIds, type OperationRef } from './operation-id';
import { addDeclaredProblems, addProblemResponses, describeDeclaredProblems, ProblemRefs } from './problems';
import { topLevelTags } from './tags';
import { SchemaRegistry, type ModelView } from './schema';
import { defaultModelCompiler } from '../validation/class-validator/compiler';
import { isPlainObject } from './schema/shapes';
import type { ModelCompiler } from '../validation/model-compiler';
import { statusKeyed } from './status-keyed';
import { manyKeysObject } from './many-keys';
import { validateSecurityRequirements } from './security';
import { isStandardSchema, type StandardSchemaV1 } from '../validation/standard-schema';
import { standardQueryParameters } from './schema/standard-query';

/** How the document is built beyond the app's OpenAPI settings. */
export interface DocumentOptions {
  /** Describes request and response models: pass `app.modelCompiler` (default: class-validator's, as `new TernApp()` has). */
  modelCompiler?: ModelCompiler;
  /**
   * The app's `maxParamLength` (default 100, as `new TernApp()` has): every path parameter's
   * schema is bounded by it, and operations with path parameters list the 414 a longer one gets.
   */
  maxParamLength?: number;
}

/** `new TernApp()`'s `maxParamLength`. */
const DEFAULT_MAX_PARAM_LENGTH = 100;

/** The OpenAPI version of the documents Tern writes. */
export const OPENAPI_VERSION = '3.1.0';

/** Methods an OpenAPI 3.1 Path Item can hold; routes with other methods are not documented. */
const DOCUMENTED_METHODS = new Set(['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE']);

/**
 * Builds the OpenAPI 3.1 document of an app from its compiled routes and its OpenAPI settings.
 * `app.ready()` runs its checks (`checkOpenAPIDocument`) and the app builds it on the first
 * request for the document, then serves those bytes; call it yourself to write the document to
 * a file (e.g. for a client generator in CI).
 *
 * Tern's own routes, routes with `excludeFromSchema` (or inside an excluded router, group or
 * file router), mounted apps and the automatic HEAD of GET routes are left out.
 *
 * @example
 * await app.ready();
 * const document = buildOpenAPIDocument(app.getAllRoutes(), app.openapiConfig);
 * writeFileSync('openapi.json', JSON.stringify(document, null, 2));
 */
export function buildOpenAPIDocument(routes: readonly RouteInfo[], config: OpenAPIConfig, options: DocumentOptions = {}): OpenAPIObject {
  return buildDocument(routes, config, options, false);
}

/**
 * Every check building the document makes, so `app.ready()` fails where building it would,
 * without describing the operations that cannot fail: those whose options are only names, texts,
 * tags, security and the like (`SAFE_IN_DOCUMENT`, from the route options table), with no models,
 * responses, parameters or `x-` extensions. Their path parameters' converter schemas are checked
 * (once each). What is built is serialized as the served document would be, so a value JSON
 * cannot hold fails here.
 * The served document is then built on its first request (`openapi/routes.ts`) by
 * `buildOpenAPIDocument`, the same code.
 */
export function checkOpenAPIDocument(routes: readonly RouteInfo[], config: OpenAPIConfig, options: DocumentOptions = {}): void {
  JSON.stringify(buildDocument(routes, config, options, true));
}

function cannotFail(route: RouteInfo): boolean {
  if (route.uploads !== undefined) return false;
  for (const key in route.options) if (!SAFE_IN_DOCUMENT.has(key)) return false;
  for (const key in route.extra) if (key.startsWith('x-')) return false;
  return true;
}

function buildDocument(routes: readonly RouteInfo[], config: OpenAPIConfig, options: DocumentOptions, checkOnly: boolean): OpenAPIObject {
  validateSecurityRequirements(routes, config);
  // openapi3-ts's InfoObject lacks 3.1's `summary`; the object is plain JSON either way.
  const info: OpenAPIObject['info'] & { summary?: string } = { title: config.title, version: config.version };
  if (config.summary) info.summary = config.summary;
  if (config.description) info.description = config.description;
  if (config.termsOfService) info.termsOfService = config.termsOfService;
  if (config.contact) info.contact = structuredClone(config.contact);
  if (config.license) info.license = structuredClone(config.license);
  const spec: OpenAPIObject = { openapi: OPENAPI_VERSION, info, paths: {} };
  // Without servers of its own the document names the one OpenAPI assumes anyway, `/` (the
  // origin it was fetched from), so linters (Redocly's no-empty-servers) and clients need not guess.
  spec.servers = config.servers !== undefined && config.servers.length > 0 ? config.servers.map((server) => structuredClone(server)) : [{ url: '/' }];

  const documented = routes.filter((route) => !route.excludeFromSchema);
  // A loop rather than flatMap over filter and map: two arrays fewer per route (a thousand at startup).
  const operations: OperationRef[] = [];
  for (const route of documented) {
    for (const method of route.methods) if (DOCUMENTED_METHODS.has(method)) operations.push({ route, method });
  }
  const registry = new SchemaRegistry(options.modelCompiler ?? defaultModelCompiler, { closedResponses: config.closedResponses });
  const { problemBody } = config;
  const context: BuildContext = {
    registry,
    ids: new OperationIds(operations),
    problems: new ProblemRefs(problemBody && { mediaType: problemBody.mediaType, schema: () => describeShape(registry, problemBody.schema, 'openapi.problemResponses.schema', 'response') }),
    templates: new PathTemplates(),
    config,
    maxParamLength: options.maxParamLength ?? DEFAULT_MAX_PARAM_LENGTH,
  };

  // A Map while collecting: an object gaining a thousand keys one by one gets a new hidden class
  // per key until V8 turns it into a dictionary (~0.5 ms of 16 at 1,000 routes).
  const paths = new Map<string, PathItemObject>();
  // checkOnly: the converter schemas of skipped operations, each serialized once as the document would be.
  const checkedSchemas = new Set<unknown>();
  let skipped = false;
  for (const operation of operations) {
    if (checkOnly && cannotFail(operation.route)) {
      skipped = true;
      for (const param of operation.route.params) {
        if (checkedSchemas.has(param.schema)) continue;
        checkedSchemas.add(param.schema);
        JSON.stringify(param.schema);
      }
      continue;
    }
    const { path, names } = context.templates.templateFor(operation.route);
    let item = paths.get(path);
    if (!item) paths.set(path, (item = {}));
    const key = operation.method.toLowerCase() as keyof PathItemObject;
    const existing = item[key] as OperationObject | undefined;
    if (existing) {
      // Routes whose paths differ only in a converter share one OpenAPI path: the first declared
      // describes the operation, and the path parameters accept what any of them accepts.
      widenPathParameters(existing, operation.route, names, context.maxParamLength);
      continue;
    }
    (item as Record<string, OperationObject>)[key] = buildOperation(operation, names, context);
  }
  // A skipped operation lists Tern's own error answers (413 at least), described by the app's problemResponses schema.
  if (skipped && problemBody && config.problemResponses) describeShape(registry, problemBody.schema, 'openapi.problemResponses.schema', 'response');
  spec.paths = manyKeysObject<PathItemObject>();
  for (const [path, item] of paths) spec.paths[path] = item;

  const schemas: Record<string, SchemaObject | ReferenceObject> = { ...context.registry.components() };
  for (const [name, schema] of context.problems.components(new Set(Object.keys(schemas)))) schemas[name] = schema;
  dropUnusedFormBases(context.registry.formBases(), spec.paths, schemas);
  const securitySchemes: Record<string, SecuritySchemeObject> = {};
  for (const [name, scheme] of config.securitySchemes) securitySchemes[name] = scheme.toOpenAPI();
  const components: NonNullable<OpenAPIObject['components']> = {};
  if (Object.keys(schemas).length > 0) components.schemas = schemas;
  if (config.securitySchemes.size > 0) components.securitySchemes = securitySchemes;
  if (Object.keys(components).length > 0) spec.components = components;
  // Routes without `security` are public (declaring is what enforcement reads): say so once, at
  // the root, so tools do not take a missing requirement for a forgotten one.
  spec.security = [];
  const tags = topLevelTags(config.tags, operations.map((o) => o.route.tags));
  if (tags.length > 0) spec.tags = tags;
  if (config.externalDocs) spec.externalDocs = structuredClone(config.externalDocs);
  return spec;
}

interface BuildContext {
  registry: SchemaRegistry;
  ids: OperationIds;
  /** `$ref`s to the problem schemas, named once every user model has claimed its name. */
  problems: ProblemRefs;
  templates: PathTemplates;
  config: OpenAPIConfig;
  /** The longest path parameter the route table accepts (a longer one is a 414). */
  maxParamLength: number;
}

function buildOperation(operation: OperationRef, names: string[], context: BuildContext): OperationObject {
  const { route } = operation;
  const options = route.options;
  const where = `Route ${operation.method} ${route.rawPath}`;
  const out: OperationObject = {};
  if (route.tags.length > 0) out.tags = [...route.tags];
  if (options.summary) out.summary = String(options.summary);
  if (options.description) out.description = String(options.description);
  out.operationId = context.ids.idFor(operation);
  const declaredParameters = (options.parameters ?? []).map((p) => (p.in === 'path' ? { ...structuredClone(p), required: true } : structuredClone(p)));
  const generated = pathParameters(route, names, context.maxParamLength);
  // A `query` schema's properties, one parameter each (declared parameters still replace them by name).
  if (options.query !== undefined) generated.push(...describeQuery(options.query, `${where}: query`));
  const parameters = mergeParameters(generated, declaredParameters, where);
  if (parameters.length > 0) out.parameters = parameters;
  const hasModel = options.requestModel !== undefined;
  // Uploads (multipart with binary file fields) are described from the controller's decorators.
  const { uploads } = route;
  // Under `forbidUnknownProperties` a JSON body is closed (`Name-Strict`, see SchemaRegistry.strictRef).
  const strict = route.requestModel?.forbidsUnknownProperties === true && uploads === undefined && !isStandardSchema(options.requestModel);
  const model = hasModel ? describeShape(context.registry, options.requestModel, `${where}: requestModel`, strict ? 'strict' : 'request') : undefined;
  // A form cannot send null: its media types get the model without it (`Name-Form`).
  const formModel = model !== undefined && '$ref' in model && (uploads !== undefined || options.consumes?.some(isFormType)) ? context.registry.formRef(model as ReferenceObject) : model;
  const requestBody = uploads ? describeRequestBody(model, options.consumes, uploads, formModel) : requestBodyOf(options.consumes, model, hasModel, formModel);
  if (requestBody) out.requestBody = requestBody;
  out.responses = responses(route, where, context);
  if (options.deprecated === true) out.deprecated = true;
  if (route.security !== undefined) out.security = route.security.map((entry) => Object.fromEntries(Object.entries(entry).map(([name, scopes]) => [name, [...scopes]])));
  // A row of the route options table (checked there), so not in `extra`: the business refusals checkContract allows.
  const mayRefuse = options['x-may-refuse'] as readonly number[] | undefined;
  if (mayRefuse !== undefined) out['x-may-refuse'] = [...mayRefuse];
  // Extra route options named `x-…` are OpenAPI specification extensions: copied as they are.
  for (const [key, value] of Object.entries(route.extra)) if (key.startsWith('x-')) out[key as `x-${string}`] = value;
  return out;
}

/** `in: path` parameters, named as in the OpenAPI path, typed by their converters. */
function pathParameters(route: RouteInfo, names: string[], maxParamLength: number): ParameterObject[] {
  return route.params.map((param, index) => ({ name: names[index], in: 'path', required: true, schema: converterSchema(param, maxParamLength) }));
}

/**
 * The converter's schema; a string gets `maxLength`, the route table's limit (a longer value is
 * a 414), unless the converter's own bound is smaller. Numbers are bounded by their range.
 */
function converterSchema(param: RouteParamInfo, maxParamLength: number): SchemaObject {
  const schema = copyJson(param.schema) as SchemaObject;
  if (schema.type === 'string' || schema.type === undefined) schema.maxLength = Math.min(schema.maxLength ?? Infinity, maxParamLength);
  return schema;
}

/** A declared parameter replaces the generated one with its name and location (to add a description). */
function mergeParameters(generated: ParameterObject[], declared: ParameterObject[], where: string): ParameterObject[] {
  if (declared.length === 0) return generated;
  const key = (p: ParameterObject) => `${p.in}:${p.name}`;
  const replacements = new Map(declared.map((p) => [key(p), p]));
  for (const p of declared) {
    if (p.in === 'path' && !generated.some((g) => g.name === p.name)) {
      throw invalid(`${where}: parameters declares the path parameter '${p.name}', which the path does not have.`);
    }
  }
  const merged = generated.map((p) => {
    const replacement = replacements.get(key(p));
    if (!replacement) return p;
    replacements.delete(key(p));
    return { ...p, ...replacement };
  });
  return [...merged, ...declared.filter((p) => replacements.get(key(p)) === p)];
}

function responses(route: RouteInfo, where: string, context: BuildContext): ResponsesObject {
  const options = route.options;
  const out: ResponsesObject = statusKeyed<ResponseObject | ReferenceObject>();
  // An error status declared without a model is one Tern answers with a problem: see describeDeclaredProblems.
  const problemDescriptions = new Map<string, string>();
  for (const [status, shape] of Object.entries(options.responses ?? {})) {
    const schema = describeShape(context.registry, shape, `${where}: responses[${status}]`, 'response');
    const description = describeStatus(status, shape, route.statusCode);
    if (schema === undefined && /^[45]/.test(status) && options.produces?.[Number(status)] === undefined) problemDescriptions.set(status, description);
    else out[status] = response(schema, description);
  }
  if (!Object.keys(out).some(isSuccessStatus)) out[route.statusCode] = { description: 'Successful Response' };
  // `sse: true` (routes answering with res.sse): the success answer is an event stream, whose
  // events a declared schema describes.
  if (options.sse === true) {
    const ok = (out[route.statusCode] ?? { description: 'Successful Response' }) as ResponseObject;
    out[route.statusCode] = { description: ok.description, content: { 'text/event-stream': { schema: ok.content?.['application/json']?.schema ?? { type: 'string' } } } };
  }
  applyProduces(out, options.produces);
  addDeclaredProblems(out, options.problems, context.problems);
  if (context.config.problemResponses) {
    const body = options.requestModel !== undefined || options.consumes !== undefined;
    addProblemResponses(
      out,
      {
        body,
        jsonBody: readsJson(options.consumes, options.requestModel !== undefined),
        parsedBody: options.requestModel !== undefined || (options.consumes ?? []).some((type) => isJsonType(type) || isFormType(type)),
        // `*/*` accepts every media type, so only a narrower list can be refused with a 415.
        consumes: options.consumes !== undefined && !options.consumes.includes('*/*'),
        rejectsInput: route.checksInput,
        pathParamLimit: route.params.length > 0 ? context.maxParamLength : undefined,
        enforcedSecurity: isSecurityEnforced(context.config) ? route.security : undefined,
        scopeSchemes: oauth2Schemes(context.config),
        keyServerSchemes: keyServerSchemes(context.config),
        rateLimit: options.rateLimit || undefined,
      },
      context.problems,
    );
  }
  describeDeclaredProblems(out, problemDescriptions);
  return out;
}

function response(schema: SchemaObject | ReferenceObject | undefined, description: string): ResponseObject {
  return schema === undefined ? { description } : { description, content: { 'application/json': { schema } } };
}

/** `{ description }` gives its own text; otherwise the route's success status says 'Successful Response'. */
function describeStatus(status: string, shape: unknown, successStatus: number): string {
  const own = (shape as { description?: unknown } | null)?.description;
  if (typeof own === 'string' && isPlainObject(shape)) return own;
  if (status === String(successStatus)) return 'Successful Response';
  return STATUS_CODES[status] ?? (status === 'default' ? 'Default Response' : 'Response');
}

function describeShape(registry: SchemaRegistry, shape: unknown, where: string, view: ModelView | 'strict'): SchemaObject | ReferenceObject | undefined {
  try {
    return view === 'strict' ? registry.strictRef(shape as Function) : registry.schemaFor(shape, view);
  } catch (err) {
    throw invalid(`${where}: ${(err as Error).message}.`, err);
  }
}

function describeQuery(schema: StandardSchemaV1, where: string): ParameterObject[] {
  try {
    return standardQueryParameters(schema);
  } catch (err) {
    throw invalid(`${where}: ${(err as Error).message}.`, err);
  }
}

function isSuccessStatus(status: string): boolean {
  return /^[123]/.test(status);
}

/**
 * OpenAPI paths are written without converters (`/users/{id}`), and two templated paths that
 * differ only in parameter names are the same path to OpenAPI. So routes whose paths have one
 * shape share the names of the first route declared with that shape.
 */
const NO_NAMES: string[] = [];

class PathTemplates {
  private readonly namesByShape = new Map<string, string[]>();

  templateFor(route: RouteInfo): { path: string; names: string[] } {
    // Most paths have no parameter: the raw path is the template (one per route at startup).
    if (route.params.length === 0) return { path: route.rawPath, names: NO_NAMES };
    const shape = route.pathShape;
    let names = this.namesByShape.get(shape);
    if (!names) this.namesByShape.set(shape, (names = route.params.map((p) => p.name)));
    let index = 0;
    const path = shape.replace(/\{\}/g, () => `{${(names as string[])[index++]}}`);
    return { path, names };
  }
}

/** A second route on one OpenAPI path and method: its path values are accepted too. */
function widenPathParameters(operation: OperationObject, route: RouteInfo, names: string[], maxParamLength: number): void {
  route.params.forEach((param, index) => {
    const parameter = operation.parameters?.find((p): p is ParameterObject => 'in' in p && p.in === 'path' && p.name === names[index]);
    if (!parameter?.schema) return;
    const added = converterSchema(param, maxParamLength);
    const current = parameter.schema as SchemaObject;
    const alternatives = current.anyOf && Object.keys(current).length === 1 ? current.anyOf : [current];
    if (alternatives.some((s) => JSON.stringify(s) === JSON.stringify(added))) return;
    parameter.schema = { anyOf: [...alternatives, added] };
  });
}

/**
 * A model read only from forms is documented by its form reading (`Name-Form`, without null): its
 * own component, which nothing then names, is left out (linters flag unused components).
 */
function dropUnusedFormBases(bases: string[], paths: OpenAPIObject['paths'], schemas: Record<string, SchemaObject | ReferenceObject>): void {
  for (const name of bases) {
    const ref = JSON.stringify(`#/components/schemas/${name}`);
    const others = Object.entries(schemas).filter(([other]) => other !== name);
    if (!JSON.stringify([paths, others]).includes(ref)) delete schemas[name];
  }
}

function invalid(message: string, cause?: unknown): OpenAPIDocumentError {
  return new OpenAPIDocumentError('TERN_INVALID_OPENAPI_METADATA', message, cause === undefined ? undefined : { cause });
}

/** The names of the OAuth2 schemes: their requirements list scopes, every other scheme's roles. */
function oauth2Schemes(config: OpenAPIConfig): Set<string> {
  return new Set([...config.securitySchemes].filter(([, scheme]) => scheme.type === 'oauth2').map(([name]) => name));
}
