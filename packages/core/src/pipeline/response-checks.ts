/**
 * `validateResponses`: the check of a filtered body against its declared model, compiled once per
 * route. Models are checked by their validator from the app's `ModelCompiler`, lists item by item,
 * shapes field by field; what the model never writes (`@Exclude()`) is not checked.
 */
import { TernError } from '../errors';
import { JSON_BODY, JSON_DATA, type TernResponse } from '../http/response';
import { isDescriptionShape, isModelClass, isPlainObject } from '../openapi/schema/shapes';
import type { CompiledRoute } from '../routing/compile';
import type { ResponseSchema } from '../routing/types';
import type { ResponseSerializers } from '../serialization/compile';
import { planResponse, type ValuePlan } from '../serialization/plan';
import type { ModelValidator, ValidationIssue } from '../validation';
import type { ModelClass, ModelCompiler } from '../validation/model-compiler';
import type { ResponseContractOptions } from './responses';
import { compileStandardSchema, isStandardSchema, type StandardSchemaV1 } from '../validation/standard-schema';

/** Issues found in one value; a promise only where a model falls back to class-validator. */
type Check = (value: unknown) => ValidationIssue[] | Promise<ValidationIssue[]>;

/** The declared schemas by key (`200`, `2XX`, `default`). */
export function declaredSchemas(responses: Record<string, ResponseSchema> | undefined): Map<string, unknown> {
  return new Map<string, unknown>(Object.entries(responses ?? {}).map(([key, schema]) => [key.toUpperCase(), schema]));
}

// Keyed by compiler, not by the options object (a new one per route): one validator per model and compiler.
const compiledModels = new WeakMap<ModelCompiler, Map<Function, ModelValidator<object>>>();

/** Rejects (throws) with `TERN_RESPONSE_CONTRACT_VIOLATED` when the body `json()` wrote breaks the model of its status. */
export function contractCheck(
  route: CompiledRoute,
  serializers: ResponseSerializers,
  schemas: Map<string, unknown>,
  options: ResponseContractOptions,
): (res: TernResponse) => TernResponse | Promise<TernResponse> {
  // One validator per model class for the whole app, compiled now rather than on a first request.
  let validators = compiledModels.get(options.modelCompiler);
  if (validators === undefined) compiledModels.set(options.modelCompiler, (validators = new Map()));
  const checks = new Map<string, Check | undefined>();
  for (const [key, schema] of schemas) checks.set(key, checkFor(schema, validators as Map<Function, ModelValidator<object>>, options));
  return (res) => {
    // Only a body `json()` wrote on this route and that nothing replaced since is checked.
    if (res[JSON_BODY] === undefined || res.body !== res[JSON_BODY]) return res;
    const status = res.statusCode;
    const serializer = serializers.forStatus(status);
    if (serializer === undefined) return res;
    const check = checkForStatus(checks, status);
    if (check === undefined) return res;
    const issues = check(serializer.filter(res[JSON_DATA]));
    const fail = (found: ValidationIssue[]): TernResponse => {
      if (found.length > 0) throw contractViolated(route, status, found);
      return res;
    };
    return issues instanceof Promise ? issues.then(fail) : fail(issues);
  };
}

/** As `forStatus` looks serializers up: the exact status, then its range, then `default`. */
function checkForStatus(checks: Map<string, Check | undefined>, status: number): Check | undefined {
  const exact = String(status);
  if (checks.has(exact)) return checks.get(exact);
  const range = `${Math.floor(status / 100)}XX`;
  if (checks.has(range)) return checks.get(range);
  return checks.get('DEFAULT');
}

function contractViolated(route: CompiledRoute, status: number, issues: ValidationIssue[]): TernError {
  const fields = issues.map((issue) => `${issue.path || '(body)'}: ${issue.message}`).join('; ');
  return new TernError(
    'TERN_RESPONSE_CONTRACT_VIOLATED',
    `Route ${route.source} answered ${status} with a body its declared response model rejects: ${fields}.`,
  );
}

/**
 * The check of one schema, or `undefined` when it declares nothing checkable (`{ description }`,
 * `String`, a class that is not a model). Models are checked by their compiled validator; built-in
 * field types of a shape by their JSON type; a list item by item.
 */
function checkFor(schema: unknown, validators: Map<Function, ModelValidator<object>>, options: ResponseContractOptions): Check | undefined {
  if (isStandardSchema(schema)) return standardCheck(schema);
  if (typeof schema === 'function') {
    if (!isModelClass(schema)) return builtinCheck(schema);
    let validate = validators.get(schema);
    if (validate === undefined) validators.set(schema, (validate = options.modelCompiler.compile(schema as ModelClass)));
    const model = validate;
    const plan = planResponse(schema, options.modelCompiler);
    // The filtered body lacks what the model never writes (`@Exclude()`, hidden groups): the
    // model's rules about those properties are about input, not about this answer.
    const written = (result: { ok: true } | { ok: false; errors: ValidationIssue[] }) =>
      issuesOf(result).filter((issue) => plan === undefined || isWritten(plan, issue.path));
    return (value) => {
      const result = model(value);
      return result instanceof Promise ? result.then(written) : written(result);
    };
  }
  if (Array.isArray(schema) && schema.length === 1) {
    const item = checkFor(schema[0], validators, options);
    if (item === undefined) return undefined;
    return (value) => {
      if (!Array.isArray(value)) return [{ path: '', message: 'body must be an array' }];
      return merge(value.map((entry, index) => prefixed(item(entry), `${index}`)));
    };
  }
  if (isPlainObject(schema) && !isDescriptionShape(schema)) {
    const fields = Object.entries(schema).map(([name, type]) => [name, checkFor(type, validators, options)] as const);
    return (value) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return [{ path: '', message: 'body must be an object' }];
      const record = value as Record<string, unknown>;
      // Every field of a shape is required, as its OpenAPI schema says.
      return merge(
        fields.map(([name, check]) => {
          if (record[name] === undefined) return [{ path: name, message: `${name} is required` }];
          return check ? prefixed(check(record[name]), name) : [];
        }),
      );
    };
  }
  return undefined;
}

/** One validator per Standard Schema for the whole app. */
const compiledSchemas = new WeakMap<StandardSchemaV1, ModelValidator<unknown>>();

/** A Standard Schema response is checked by its own library (`~standard.validate`), as its requests are. */
function standardCheck(schema: StandardSchemaV1): Check {
  let validate = compiledSchemas.get(schema);
  if (validate === undefined) compiledSchemas.set(schema, (validate = compileStandardSchema(schema)));
  const model = validate;
  return (value) => {
    const result = model(value);
    return result instanceof Promise ? result.then(issuesOf) : issuesOf(result);
  };
}

const JSON_TYPES = new Map<Function, string>([
  [String, 'string'],
  [Number, 'number'],
  [Boolean, 'boolean'],
]);

function builtinCheck(type: Function): Check | undefined {
  const expected = JSON_TYPES.get(type);
  if (expected === undefined) return undefined;
  return (value) => (typeof value === expected ? [] : [{ path: '', message: `must be a ${expected}` }]);
}

/**
 * Whether the property an issue names (`address.city`, `tags.2`, by the model's own property
 * names) is one the serializer writes. List indexes are skipped, as the filter treats a list
 * item by item; below an undeclared (`any`) value everything is written.
 */
function isWritten(plan: ValuePlan, path: string): boolean {
  let current: ValuePlan = plan;
  for (const segment of path === '' ? [] : path.split('.')) {
    if (current.kind === 'any') return true;
    if (current.kind === 'record') {
      current = current.value; // every key of a map is written
      continue;
    }
    if (/^\d+$/.test(segment) && !current.fields.some((field) => field.read === segment)) continue;
    const field = current.fields.find((candidate) => candidate.read === segment);
    if (field === undefined) return false;
    current = field.value;
  }
  return true;
}

function issuesOf(result: { ok: true } | { ok: false; errors: ValidationIssue[] }): ValidationIssue[] {
  return result.ok ? [] : result.errors;
}

function prefixed(issues: ValidationIssue[] | Promise<ValidationIssue[]>, prefix: string): ValidationIssue[] | Promise<ValidationIssue[]> {
  const add = (list: ValidationIssue[]) => list.map((issue) => ({ path: issue.path ? `${prefix}.${issue.path}` : prefix, message: issue.message }));
  return issues instanceof Promise ? issues.then(add) : add(issues);
}

function merge(parts: Array<ValidationIssue[] | Promise<ValidationIssue[]>>): ValidationIssue[] | Promise<ValidationIssue[]> {
  if (parts.some((part) => part instanceof Promise)) return Promise.all(parts).then((lists) => lists.flat());
  return (parts as ValidationIssue[][]).flat();
}
