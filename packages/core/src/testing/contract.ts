/**
 * `checkContract(app)`: property-based testing of an app against its own OpenAPI document.
 * For each operation it generates requests with fast-check, valid and broken in one place,
 * sends them through `app.inject()` and checks each answer against what the document promises.
 * A failure is shrunk by fast-check and reported with everything needed to replay it.
 */
import type * as FastCheck from 'fast-check';
import type { OpenAPIConfig } from '../openapi/config';
import type { ModelCompiler } from '../validation/model-compiler';
import type { RouteInfo } from '../routing/route-info';
import { buildOpenAPIDocument } from '../openapi/document';
import { TernError } from '../errors';
import { MUTE_ERROR_REPORTS } from '../errors/mute-reports';
import type { InjectOptions, InjectResponse } from './inject';
import { SchemaChecker, type ContractDocument, type SecuritySchemeObject } from './contract-schemas';
import { injectOptionsOf, RequestMaker, type ContractRequest, type Operation } from './contract-requests';
import { credentialFor, header, judge, type JudgeRules } from './contract-judge';
import { fillUnique } from './contract-values';
import { loadOptional } from './optional';

/**
 * What the check needs of a `TernApp`: any `TernApp` is one.
 *
 * @example
 * const app: ContractApp = buildApp();
 */
export interface ContractApp {
  ready(): Promise<void>;
  inject(options: InjectOptions): Promise<InjectResponse>;
  getAllRoutes(): RouteInfo[];
  readonly openapiConfig: OpenAPIConfig;
  readonly modelCompiler?: ModelCompiler;
  /** The app's settings; `maxParamLength` bounds the documented path parameters. */
  readonly config?: { readonly maxParamLength: number };
  /** A `TernApp`'s: mutes its error reports while a failure it reported once is shrunk. */
  [MUTE_ERROR_REPORTS]?(muted: boolean): void;
}

/**
 * Options of {@link checkContract}.
 *
 * @example
 * const options: ContractOptions = { seed: 7, auth: { bearerAuth: 'test-token' }, mayRefuse: { 'POST /users': [422] }, allFailures: true };
 */
export interface ContractOptions {
  /** fast-check's seed: the same seed sends the same requests (default 1). */
  seed?: number;
  /** Requests per operation (default 40); fewer if `timeLimit` runs out first. */
  runs?: number;
  /** Milliseconds for the whole check (default 4000, so it fits jest's default timeout); shared out among operations. */
  timeLimit?: number;
  /**
   * Credentials by security scheme name: a bearer token, `user:password` for basic, the key for
   * an API key. Requests to operations that require a scheme carry them.
   *
   * For requirements listing roles (or OAuth2 scopes), give one credential per role instead:
   * `{ bearerAuth: { admin: adminToken, editor: editorToken } }`. An operation requiring
   * `['admin']` is sent the admin's credential, one requiring several roles the credential listed
   * under each of them, one requiring none the first; and then a 401 or 403 is a violation.
   */
  auth?: Record<string, string | Record<string, string>>;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /**
   * Operations not to check, as `'GET /events'` (the document's path) or a predicate. Operations
   * that answer with an event stream are skipped anyway: such an answer need not end.
   */
  skip?: Array<string> | ((operation: { method: string; path: string }) => boolean);
  /** Only these operations (`'POST /notes'`): with `replay`, how a failure is replayed. */
  only?: string[];
  /** fast-check's counterexample path from a failure: replays exactly that request (with `seed` and `only`). */
  replay?: string;
  /** The document to check against; by default the one the app serves (or would). */
  document?: object;
  /**
   * Statuses among 400, 413, 415 and 422 a valid request may get from an operation, by operation
   * (`{ 'POST /users': [422] }`): business rules such as "email has already been taken". The
   * document can say it too, with `x-may-refuse: [422]` on the operation (the route option of that
   * name, checked at `ready()`, is written there). Tern's own refusals (a problem whose `code`
   * starts with `TERN_`) still fail: the allowance is for the handler's answers only.
   *
   * @example
   * checkContract(app, { mayRefuse: { 'POST /users': [422] } }); // "email has already been taken"
   */
  mayRefuse?: Record<string, number[]>;
  /**
   * Check every operation and reject once at the end with a `ContractViolationsError` listing
   * each failing one (default: reject at the first).
   *
   * @example
   * const failure = await checkContract(app, { allFailures: true }).catch((err: ContractViolationsError) => err);
   */
  allFailures?: boolean;
  /**
   * A 2xx answered with JSON by an operation documented without a response schema (a route with
   * no response model, whose body no client can type and nothing checks): `'warn'` (the default)
   * prints a warning once per operation and lists it in the report's `warnings`, `'fail'` makes it
   * a violation, `'ignore'` says nothing.
   *
   * @example
   * checkContract(app, { untypedJson: 'fail' }); // every JSON answer must have a documented schema
   */
  untypedJson?: 'warn' | 'fail' | 'ignore';
  /**
   * Allow properties a 2xx body's schema does not declare. By default such a property is a
   * violation: Tern's response filter drops every undeclared property, so one reaches a client only
   * from a route with `responseFiltering: false` (or cleared serializers): a leak.
   *
   * @example
   * checkContract(app, { allowUndeclaredProperties: true }); // a route that forwards another service's JSON as is
   */
  allowUndeclaredProperties?: boolean;
}

/**
 * What one operation's check did: an entry of what `checkContract` resolves with.
 *
 * @example
 * const report: OperationReport = { operation: 'POST /notes', runs: 40 };
 */
export interface OperationReport {
  operation: string;
  /** Requests sent (shrinking not counted); 0 when skipped. */
  runs: number;
  skipped?: string;
  /** What the check noticed without failing (an untyped JSON answer). */
  warnings?: string[];
}

/**
 * A request the app answered against its document: `request` replays it, `replay` says how.
 *
 * @example
 * const err = await checkContract(app).catch((e: ContractViolationError) => e);
 * console.log(err.operation, err.response.status, err.replay); // the replay line runs exactly this request again
 */
export class ContractViolationError extends TernError {
  constructor(
    message: string,
    readonly operation: string,
    readonly request: ContractRequest,
    readonly response: { status: number; contentType?: string; body: string },
    readonly seed: number,
    readonly replay: string,
  ) {
    super('TERN_CONTRACT_VIOLATION', message);
  }
}

/**
 * Every failing operation of one run of `checkContract(app, { allFailures: true })`: `violations`
 * has one `ContractViolationError` per operation, each with its own replay line.
 *
 * @example
 * const err = await checkContract(app, { allFailures: true }).catch((e: ContractViolationsError) => e);
 * console.log(err.violations.map((v) => v.operation)); // ['POST /users', 'GET /articles']
 */
export class ContractViolationsError extends TernError {
  constructor(
    readonly violations: ContractViolationError[],
    readonly reports: OperationReport[],
  ) {
    super('TERN_CONTRACT_VIOLATION', `${violations.length} operation${violations.length === 1 ? '' : 's'} broke the contract:\n\n${violations.map((v) => v.message).join('\n\n')}`);
  }
}

const SKIPPED_MEDIA = 'text/event-stream';

/**
 * Checks that the app answers as its OpenAPI document says. Rejects with a
 * `ContractViolationError` naming the request (method, url, headers, body), the answer, the
 * broken promise and how to replay it; resolves with what it checked.
 *
 * A failure is: a 5xx; a status the operation does not document; a body or content type that
 * does not match the documented response; a 2xx to a request broken in one place (a missing
 * required field, a wrong type, a value out of range, an undeclared property where the schema
 * forbids them); a 400, 413, 415 or 422 to a valid request, or a 401 to one that carried the
 * credentials `auth` gives for the operation's security (and a 403, when `auth` gives them per role).
 *
 * @example
 * it('keeps its contract', () => checkContract(buildApp(), { auth: { bearerAuth: 'test-token' } }));
 */
export async function checkContract(app: ContractApp, options: ContractOptions = {}): Promise<OperationReport[]> {
  const fc = loadOptional<typeof FastCheck>('fast-check', 'fast-check');
  await app.ready();
  const document = ((options.document as ContractDocument | undefined) ?? (await documentOf(app))) as ContractDocument;
  const seed = options.seed ?? 1;
  const runs = options.runs ?? 40;
  const deadline = Date.now() + (options.timeLimit ?? 4000);
  const schemas = new SchemaChecker(document);
  const requests = new RequestMaker(fc, document, (scheme, definition, roles) => credentialsFor(definition, credentialFor(options.auth?.[scheme], roles).credential));
  const operations = operationsOf(document);
  const reports: OperationReport[] = [];
  const violations: ContractViolationError[] = [];
  const mute = (muted: boolean) => app[MUTE_ERROR_REPORTS]?.(muted);
  // Suffixes of values that must be unique in the run (emails), counted across every request.
  let made = 0;
  for (const [index, operation] of operations.entries()) {
    const name = `${operation.method.toUpperCase()} ${operation.path}`;
    const skipped = skipReason(operation, name, options, requests);
    if (skipped) {
      reports.push({ operation: name, runs: 0, skipped });
      continue;
    }
    const rules: JudgeRules = { document, schemas, options, mayRefuse: new Set([...(options.mayRefuse?.[name] ?? []), ...(operation['x-may-refuse'] ?? [])]) };
    const warnings = new Set<string>();
    let sent = 0;
    let failure: { request: ContractRequest; response: InjectResponse; problem: string } | undefined;
    const property = fc.asyncProperty(requests.requests(operation), async (generated) => {
      const request = fillUnique(generated, () => (made++).toString(36));
      const response = await app.inject(withHeaders(injectOptionsOf(request), options.headers));
      sent++;
      const problem = judge(operation, request, response, rules, (warning) => warnings.add(warning));
      if (problem) {
        // The first failure's error was reported by the app; shrinking repeats it at every step.
        if (!failure) mute(true);
        failure = { request, response, problem };
        throw new Error(problem);
      }
    });
    const budget = Math.max(200, (deadline - Date.now()) / (operations.length - index));
    let details: FastCheck.RunDetails<[ContractRequest]>;
    try {
      details = await fc.check(property, { seed, numRuns: runs, path: options.replay, interruptAfterTimeLimit: budget, endOnFailure: false });
    } finally {
      mute(false);
    }
    const report: OperationReport = { operation: name, runs: sent };
    if (warnings.size > 0) {
      report.warnings = [...warnings];
      for (const warning of warnings) console.warn(`[tern] checkContract: ${name} ${warning}`);
    }
    reports.push(report);
    if (details.failed && details.counterexample) {
      // The last failure fast-check saw is the shrunk counterexample.
      const { request, response, problem } = failure ?? { request: fillUnique(details.counterexample[0], () => '0'), response: undefined, problem: String(details.errorInstance) };
      const replay = `checkContract(app, { seed: ${details.seed}, only: [${JSON.stringify(name)}], replay: ${JSON.stringify(details.counterexamplePath)} })`;
      const answer = response ? { status: response.statusCode, contentType: header(response, 'content-type'), body: response.body.slice(0, 2000) } : { status: 0, body: '' };
      const violation = new ContractViolationError(describe(name, problem, request, answer, replay), name, request, answer, details.seed, replay);
      if (!options.allFailures) throw violation;
      violations.push(violation);
    }
  }
  if (violations.length > 0) throw new ContractViolationsError(violations, reports);
  return reports;
}

/** The document the app serves, or the one it would serve with `openapiPath: false`. */
async function documentOf(app: ContractApp): Promise<object> {
  const path = app.openapiConfig.openapiPath;
  if (path !== false) {
    const response = await app.inject({ method: 'GET', url: path });
    if (response.statusCode === 200) return response.json<object>();
  }
  return buildOpenAPIDocument(app.getAllRoutes(), app.openapiConfig, { modelCompiler: app.modelCompiler, maxParamLength: app.config?.maxParamLength });
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];

function operationsOf(document: ContractDocument): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    const shared = (item.parameters as Operation['parameters']) ?? [];
    for (const method of METHODS) {
      const operation = item[method] as Omit<Operation, 'method' | 'path'> | undefined;
      if (!operation) continue;
      const own = operation.parameters ?? [];
      const names = new Set(own.map((p) => ('name' in p ? `${p.in}:${p.name}` : p.$ref)));
      const inherited = shared.filter((p) => !names.has('name' in p ? `${p.in}:${p.name}` : p.$ref));
      out.push({ ...operation, parameters: [...inherited, ...own], method, path });
    }
  }
  return out;
}

function skipReason(operation: Operation, name: string, options: ContractOptions, requests: RequestMaker): string | undefined {
  if (options.only && !options.only.includes(name)) return 'not in `only`';
  const skip = options.skip;
  if (Array.isArray(skip) ? skip.includes(name) : skip?.({ method: operation.method.toUpperCase(), path: operation.path })) return 'skipped by `skip`';
  const answers = Object.entries(operation.responses ?? {}).filter(([status]) => status.startsWith('2'));
  if (answers.some(([, response]) => response.content?.[SKIPPED_MEDIA] !== undefined)) return 'an event stream';
  if (requests.mediaTypeOf(operation) === null) return `a body of ${Object.keys(operation.requestBody?.content ?? {}).join(', ')}, which the check cannot write`;
  return undefined;
}

function credentialsFor(definition: SecuritySchemeObject, credential: string | undefined) {
  if (credential === undefined) return undefined;
  if (definition.type === 'http') {
    const scheme = (definition.scheme ?? 'bearer').toLowerCase();
    const value = scheme === 'basic' ? `Basic ${Buffer.from(credential).toString('base64')}` : `${scheme === 'bearer' ? 'Bearer' : definition.scheme} ${credential}`;
    return { header: { authorization: value } };
  }
  if (definition.type === 'apiKey' && definition.name) return { [definition.in === 'query' ? 'query' : definition.in === 'cookie' ? 'cookie' : 'header']: { [definition.name]: credential } };
  if (definition.type === 'oauth2' || definition.type === 'openIdConnect') return { header: { authorization: `Bearer ${credential}` } };
  return undefined;
}

function withHeaders(options: InjectOptions, extra: Record<string, string> | undefined): InjectOptions {
  return extra ? { ...options, headers: { ...extra, ...options.headers } } : options;
}

function describe(name: string, problem: string, request: ContractRequest, answer: { status: number; contentType?: string; body: string }, replay: string): string {
  const body = request.body === undefined ? '' : `\n  body (${request.mediaType}): ${JSON.stringify(request.body).slice(0, 2000)}`;
  return [
    `${name} ${problem}.`,
    `Request (${request.kind}${request.broken ? `: ${request.broken}` : ''}):`,
    `  ${request.method} ${request.url}`,
    Object.keys(request.headers).length ? `  headers: ${JSON.stringify(request.headers)}` : '',
    body.slice(1),
    `Answer: ${answer.status}${answer.contentType ? ` ${answer.contentType}` : ''} ${answer.body.slice(0, 500)}`,
    `Replay: ${replay}`,
  ]
    .filter(Boolean)
    .join('\n');
}
