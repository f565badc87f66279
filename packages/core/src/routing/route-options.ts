/**
 * The one owner of route options: a row per option saying how a declared value is checked and
 * normalised, and how it reaches a route from the levels around it (the app, routers and groups,
 * a controller). Every declaration style (method helpers, `Routes`, routers and groups,
 * controllers, configuration, route files) ends as a `Routes` whose options, with what its
 * containers give (`inheritOptions`), `routeSpec` runs through this table once, in `ready()`;
 * consumers read the frozen spec and never re-check or re-merge it. Containers' options are
 * checked by the same rows (`checkContainerOptions`). Adding an option is a field on
 * `RouteOptions` (types.ts, and `InheritedRouteOptions` when containers may set it), a row here,
 * and the code that uses it (docs/contributing.md).
 */
import { TernError } from '../errors';
import { resolveLimits, type MultipartOptions } from '../http/multipart-limits';
import { isObjectBody } from '../validation/types';
import { isStandardSchema } from '../validation/standard-schema';
import { nearestHint } from '../errors/nearest-name';
import type { AppRouteOptions, InheritedRouteOptions, RateLimitOptions, RouteOptions } from './types';

/** The named options: everything but the open `x-*` extensions (an `x-` option with a name of its own, `x-may-refuse`, has a row). */
type NamedOptions = { [K in keyof RouteOptions as K extends `x-${string}` ? (`x-${string}` extends K ? never : K) : K]-?: RouteOptions[K] };
export type RouteOptionName = keyof NamedOptions;

/** The options a container (the app, a router or group, a controller) may set for the routes inside. */
export type InheritedOptionName = keyof InheritedRouteOptions;

/**
 * A route's options after the table checked them, with its containers' contributions applied:
 * frozen, normalised (media types lowercased, method names uppercased). `responseModel` is folded
 * into `responses` at the success status, so consumers read `responses` only.
 */
export type RouteSpec = Readonly<Omit<RouteOptions, 'responseModel'>>;

/**
 * How a value set on a container reaches the routes inside, applied level by level from the app
 * inwards (app → routers/groups, outermost first → controller → route):
 * - `prepend`: a list; the outer level's items come first (middleware runs outside in).
 * - `union`: a list; the outer level's items first, each item once (tags).
 * - `merge`: a map by key (status codes); the inner level's entries win key by key.
 * - `default`: the outer value is the default the nearest level that sets one replaces
 *   (`security: []` on a route makes it public under a secured router).
 * - `any`: a flag that holds when any level sets it `true`.
 */
export type Inheritance = 'prepend' | 'union' | 'merge' | 'default' | 'any';

interface OptionRow<K extends RouteOptionName> {
  /** Returns the value normalised; `fail(…)` says what it must be. `declared` is every option, for the few that depend on another. */
  check(value: unknown, declared: Readonly<Record<string, unknown>>): NamedOptions[K];
  /** How containers' values combine with the route's; only options of `InheritedRouteOptions` have one (the table's type says so). */
  inherit?: K extends InheritedOptionName ? Inheritance : never;
  /** `new TernApp({ [name]: value })` sets it for every route of the app: the options of `AppRouteOptions` (the table's type says so). */
  app?: K extends keyof AppRouteOptions ? true : never;
  /** Why a route file (`markAsRoute`) cannot set this option; absent when it can. */
  notInRouteFiles?: string;
  /** The OpenAPI document uses the checked value without anything that can throw (a name, a text, a flag, security). */
  safeInDocument?: true;
  /** Only socket routes (`app.ws`) may set it: an HTTP route declaring it fails `ready()`. */
  socketOnly?: true;
}

/** A mistake in one option, turned into the route's startup error by `routeSpec`. */
class OptionMistake {
  constructor(readonly text: string) {}
}

function fail(text: string): never {
  throw new OptionMistake(text);
}

const text = (value: unknown): string => (typeof value === 'string' ? value : fail('must be a string'));
const nonEmpty = (value: unknown): string => (typeof value === 'string' && value !== '' ? value : fail('must be a non-empty string'));
const flag = (value: unknown): boolean => (typeof value === 'boolean' ? value : fail('must be true or false'));
const positiveBytes = (value: unknown): number =>
  Number.isSafeInteger(value) && (value as number) > 0 ? (value as number) : fail('must be a positive whole number of bytes');

function stringList(value: unknown, example: string): string[] {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) fail(`must be a list of strings, e.g. ${example}`);
  return Object.freeze([...value]) as string[];
}

function functionList(value: unknown): Function[] {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'function')) fail('must be a list of async (req, res, next) functions');
  return Object.freeze([...value]) as Function[];
}

/** One frozen list per single method (`['GET']`), shared by every route that has only it. */
const singleMethods = new Map<string, readonly string[]>();

function methodList(value: unknown): string[] {
  if (Array.isArray(value) && value.length === 1) {
    const known = singleMethods.get(value[0]);
    if (known) return known as string[];
  }
  if (!Array.isArray(value) || value.length === 0 || !value.every((m) => typeof m === 'string' && /^[A-Za-z]+$/.test(m))) {
    fail("must be a non-empty list of HTTP methods such as ['GET', 'POST']");
  }
  const list = Object.freeze([...new Set(value.map((m: string) => m.toUpperCase()))]);
  // Keyed by the name as declared: only names the check accepted, a handful per app.
  if (list.length === 1) singleMethods.set(value[0], list);
  return list as string[];
}

/** `type/subtype`, `type/*` or `*` slash `*`: what `consumes` entries may be. */
const MEDIA_RANGE = /^(?:[a-z0-9!#$&^_.+-]+|\*)\/(?:[a-z0-9!#$&^_.+-]+|\*)$/;
/** A concrete media type: what `produces` entries may be. */
const MEDIA_TYPE = /^[\w.+-]+\/[\w.+-]+$/;
/** What a `requestModel` can be read from: `pipeline/body-input.ts` has a reader for each. */
export const MODEL_MEDIA_TYPES: readonly string[] = ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'];

function consumes(value: unknown, declared: Readonly<Record<string, unknown>>): string[] {
  const ranges = Array.isArray(value) && value.length > 0 && value.every((t) => typeof t === 'string') ? value.map((t: string) => t.toLowerCase()) : [];
  if (ranges.length === 0 || !ranges.every((t) => MEDIA_RANGE.test(t))) {
    fail("must be a non-empty list of media types such as 'application/json', 'application/octet-stream' or 'image/*'");
  }
  if (declared.requestModel !== undefined && !ranges.every((t) => MODEL_MEDIA_TYPES.includes(t))) {
    fail(`with a requestModel must list one or more of ${MODEL_MEDIA_TYPES.join(', ')}; got ${JSON.stringify(value)}`);
  }
  return Object.freeze([...new Set(ranges)]) as string[];
}

const PRODUCES = "must map status codes to a media type or a list of them, e.g. { 200: 'image/png' }";
const PROBLEMS = "must map 4xx/5xx status codes to descriptions, e.g. { 404: 'No such note' }";
const RESPONSE_STATUS = /^(?:[1-5][0-9][0-9]|[1-5]XX|default)$/;

/** An object keyed by status; `must` says what it must be when it is not one, or has a key `status` refuses. */
function statusMap<T>(value: unknown, status: RegExp, entry: (item: unknown, key: string) => T, must: string): Record<string, T> {
  if (!isObjectBody(value)) fail(must);
  const out: Record<string, T> = {};
  for (const [key, item] of Object.entries(value)) {
    if (!status.test(key)) fail(status === RESPONSE_STATUS ? `has '${key}', which is not an HTTP status code (100-599, '2XX' or 'default')` : must);
    out[key] = entry(item, key);
  }
  return Object.freeze(out);
}

/** A response schema: a class, a Standard Schema, `[Class]`, a shape or `{ description }` (the document builder describes it). */
function responseSchema(value: unknown, where = ''): NonNullable<RouteOptions['responseModel']> {
  if (typeof value === 'function' || Array.isArray(value) || isObjectBody(value)) return value as NonNullable<RouteOptions['responseModel']>;
  return fail(`${where}must be a class, a Standard Schema (zod, valibot, arktype…), [Class], a { field: type } shape or { description }`);
}

/** A request model: a class-validator class or a Standard Schema value (the app's compiler or the library validates it). */
function requestModel(value: unknown): NonNullable<RouteOptions['requestModel']> {
  if (isStandardSchema(value) || typeof value === 'function') return value as NonNullable<RouteOptions['requestModel']>;
  return fail('must be a class or a Standard Schema (a zod, valibot or arktype schema…)');
}

const PARAMETER_LOCATIONS = new Set(['query', 'header', 'path', 'cookie']);

function parameters(value: unknown): NonNullable<RouteOptions['parameters']> {
  if (!Array.isArray(value)) fail('must be a list of OpenAPI parameter objects');
  value.forEach((p: unknown, index) => {
    if (!isObjectBody(p) || typeof p.name !== 'string' || !PARAMETER_LOCATIONS.has(String(p.in))) {
      fail(`[${index}] needs a string 'name' and 'in' set to query, header, path or cookie`);
    }
  });
  return Object.freeze([...value]) as NonNullable<RouteOptions['parameters']>;
}

function security(value: unknown): NonNullable<RouteOptions['security']> {
  const valid =
    Array.isArray(value) &&
    value.every((entry) => isObjectBody(entry) && Object.values(entry).every((scopes) => Array.isArray(scopes) && scopes.every((s) => typeof s === 'string')));
  if (!valid) fail("must be a list of requirements, each mapping scheme names to scopes, e.g. [{ bearerAuth: [] }]");
  return Object.freeze([...value]) as NonNullable<RouteOptions['security']>;
}

function multipart(value: unknown): MultipartOptions {
  if (!isObjectBody(value) || (value.limits !== undefined && !isObjectBody(value.limits))) fail('must be { limits: { fileSize, files, fields, parts, fieldSize } }');
  try {
    resolveLimits(value as MultipartOptions, Number.MAX_SAFE_INTEGER);
  } catch (err) {
    fail((err as Error).message.replace(/^multipart /, 'has '));
  }
  return value as MultipartOptions;
}

const RATE_LIMIT = "must be false or { limit, window, key?, onStoreError? }, e.g. { limit: 100, window: 60_000, key: 'ip' }";
const RATE_LIMIT_KEYS = new Set(['limit', 'window', 'key', 'onStoreError']);

function rateLimit(value: unknown): RateLimitOptions | false {
  if (value === false) return false;
  if (!isObjectBody(value)) fail(RATE_LIMIT);
  const unknown = Object.keys(value).find((key) => !RATE_LIMIT_KEYS.has(key));
  if (unknown !== undefined) fail(`has an unknown field '${unknown}'; ${RATE_LIMIT}`);
  const { limit, window, key = 'ip', onStoreError = 'fail' } = value;
  if (!Number.isSafeInteger(limit) || (limit as number) < 1) fail('.limit must be a positive whole number of requests');
  if (!Number.isSafeInteger(window) || (window as number) < 1000) fail('.window must be a whole number of milliseconds, at least 1000');
  if (key !== 'ip' && key !== 'user' && typeof key !== 'function') fail(".key must be 'ip', 'user' or a function (req) => string");
  if (onStoreError !== 'fail' && onStoreError !== 'pass') fail(".onStoreError must be 'fail' (answer 503) or 'pass'");
  return Object.freeze({ limit, window, key, onStoreError }) as RateLimitOptions;
}

/** `x-may-refuse`: 4xx statuses, each once. */
function refusals(value: unknown): number[] {
  if (!Array.isArray(value) || value.length === 0 || !value.every((status) => Number.isInteger(status) && status >= 400 && status <= 499)) {
    fail('must be a non-empty list of 4xx status codes, e.g. [422]');
  }
  return Object.freeze([...new Set(value as number[])]) as number[];
}

const SOCKETS_ONLY = 'route files declare HTTP routes; sockets are declared with app.ws';

/**
 * The table. Its type lists every named key of `RouteOptions`, so an option added to the
 * interface without a row (or a row without the option) does not compile.
 */
const ROWS: {
  readonly [K in RouteOptionName]: OptionRow<K> & (K extends InheritedOptionName ? { inherit: Inheritance } : unknown) & (K extends keyof AppRouteOptions ? { app: true } : unknown);
} = {
  bodyLimit: { check: positiveBytes, safeInDocument: true, inherit: 'default' },
  multipartLimit: { check: positiveBytes, safeInDocument: true, inherit: 'default' },
  methods: { check: methodList, safeInDocument: true },
  name: { check: nonEmpty, safeInDocument: true },
  summary: { check: text, safeInDocument: true },
  description: { check: text, safeInDocument: true },
  operationId: { check: (value) => (typeof value === 'string' && value.trim() !== '' ? value : fail('must be a non-empty string')), safeInDocument: true },
  responses: { check: (value) => statusMap(value, RESPONSE_STATUS, (item, key) => responseSchema(item, `[${key}] `), 'must map status codes to schemas'), inherit: 'merge', app: true },
  responseModel: { check: (value) => responseSchema(value) },
  requestModel: { check: requestModel },
  query: {
    check: (value) =>
      isStandardSchema(value)
        ? value
        : fail(typeof value === 'function' ? 'takes a Standard Schema (zod, valibot, arktype…); a class query model is a controller\'s @Query(Model)' : 'must be a Standard Schema (zod, valibot, arktype…)'),
  },
  middleware: { check: (value) => functionList(value) as NonNullable<RouteOptions['middleware']>, safeInDocument: true, inherit: 'prepend' },
  // Each tag once: a route's tags are the OpenAPI operation's.
  tags: { check: (value) => Object.freeze([...new Set(stringList(value, "['users']"))]) as string[], safeInDocument: true, inherit: 'union' },
  security: { check: security, safeInDocument: true, inherit: 'default', app: true },
  deprecated: { check: flag, safeInDocument: true, inherit: 'any' },
  parameters: { check: parameters },
  excludeFromSchema: { check: flag, safeInDocument: true, inherit: 'any' },
  statusCode: {
    check: (value) => (Number.isInteger(value) && (value as number) >= 200 && (value as number) <= 599 ? (value as number) : fail('must be a status code from 200 to 599')),
    safeInDocument: true,
  },
  consumes: { check: consumes },
  multipart: { check: multipart },
  responseFiltering: { check: flag, safeInDocument: true, inherit: 'default' },
  produces: {
    check: (value) =>
      statusMap(value, /^[1-5][0-9][0-9]$/, (item) => {
        const types: unknown[] = [item].flat();
        if (types.length === 0 || !types.every((t) => typeof t === 'string' && MEDIA_TYPE.test(t))) fail(PRODUCES);
        return Object.freeze((types as string[]).map((t) => t.toLowerCase()));
      }, PRODUCES) as NonNullable<RouteOptions['produces']>,
  },
  problems: {
    check: (value) =>
      statusMap(value, /^[45][0-9][0-9]$/, (item) => (typeof item === 'string' && item !== '' ? item : fail(PROBLEMS)), PROBLEMS),
  },
  declaredIn: { check: text, notInRouteFiles: 'the file router sets it to the route file and export', safeInDocument: true },
  forbidUnknownProperties: { check: flag, safeInDocument: true, inherit: 'default' },
  sse: { check: flag },
  extra: { check: (value) => (isObjectBody(value) ? Object.freeze({ ...value }) : fail('must be an object')) },
  formTemplate: { check: nonEmpty, safeInDocument: true },
  formContext: { check: (value) => (typeof value === 'function' ? (value as NonNullable<RouteOptions['formContext']>) : fail('must be a function')), safeInDocument: true },
  rateLimit: { check: rateLimit, safeInDocument: true, inherit: 'default', app: true },
  // Written onto the operation by the document builder; checkContract reads it there.
  'x-may-refuse': { check: refusals, safeInDocument: true },
  messageModel: { check: (value) => requestModel(value) as NonNullable<RouteOptions['messageModel']>, notInRouteFiles: SOCKETS_ONLY, socketOnly: true },
  maxPayload: { check: positiveBytes, notInRouteFiles: SOCKETS_ONLY, socketOnly: true, safeInDocument: true },
};

/** Every route option's name, in the table's order. */
export const ROUTE_OPTION_NAMES: readonly RouteOptionName[] = Object.freeze(Object.keys(ROWS) as RouteOptionName[]);

/** Options a route file cannot set, each with the reason (the file router derives its list from the table). */
export const NOT_IN_ROUTE_FILES: Readonly<Partial<Record<RouteOptionName, string>>> = Object.freeze(
  Object.fromEntries(Object.entries(ROWS).flatMap(([name, row]) => (row.notInRouteFiles ? [[name, row.notInRouteFiles]] : []))),
);

/** Options whose rows say `safeInDocument`: `checkOpenAPIDocument` skips building an operation that has only these. */
export const SAFE_IN_DOCUMENT: ReadonlySet<string> = new Set(ROUTE_OPTION_NAMES.filter((name) => ROWS[name].safeInDocument));

/** Options only socket routes may set (their rows say `socketOnly`). */
export const SOCKET_ONLY_OPTIONS: readonly RouteOptionName[] = Object.freeze(ROUTE_OPTION_NAMES.filter((name) => ROWS[name].socketOnly));

export function isRouteOption(key: string): key is RouteOptionName {
  return Object.prototype.hasOwnProperty.call(ROWS, key);
}

/** The options a container may set, in the table's order: rows with an `inherit` rule. */
export const INHERITED_OPTION_NAMES: readonly InheritedOptionName[] = Object.freeze(
  ROUTE_OPTION_NAMES.filter((name): name is InheritedOptionName => inheritanceOf(name) !== undefined),
);

/** The route options `new TernApp({ ... })` takes for every route of the app: rows that say `app`. */
export const APP_ROUTE_OPTION_NAMES: readonly (keyof AppRouteOptions)[] = Object.freeze(
  INHERITED_OPTION_NAMES.filter((name): name is keyof AppRouteOptions => (ROWS[name] as OptionRow<InheritedOptionName>).app === true),
);

function inheritanceOf(name: RouteOptionName): Inheritance | undefined {
  return (ROWS[name] as OptionRow<RouteOptionName>).inherit as Inheritance | undefined;
}

/** Options a route keeps as declared instead of inheriting (`@Tags(..., { replace: true })`), by route. */
const keptAsDeclared = new WeakMap<object, ReadonlySet<InheritedOptionName>>();

/**
 * Makes `route` ignore what its containers give for `names`: its own value (or none) is the
 * value. For declaration styles that can say so (`@Tags(..., { replace: true })`).
 *
 * @example
 * keepAsDeclared(route, ['tags']); // the controller's tags do not reach this route
 */
export function keepAsDeclared(route: object, names: readonly InheritedOptionName[]): void {
  keptAsDeclared.set(route, new Set(names));
}

/**
 * Applies the table's inheritance rules: what `inner` (a route, or a container inside `outer`)
 * ends with, given what `outer` (its containers, already combined) gives. Both are checked
 * options; unchanged values are shared, not copied. The one place options combine across
 * levels: routers, groups, controllers, route files and the app's options all come through here.
 *
 * @example
 * inheritOptions({ tags: ['api'], security: [{ bearer: [] }] }, { tags: ['users'], security: [] });
 * // { tags: ['api', 'users'], security: [] }
 */
export function inheritOptions<T extends Readonly<Record<string, unknown>>>(outer: Readonly<InheritedRouteOptions> | undefined, inner: T, kept?: ReadonlySet<string>): T {
  if (outer === undefined) return inner;
  let out: Record<string, unknown> | undefined;
  for (const name of INHERITED_OPTION_NAMES) {
    const given = outer[name];
    if (given === undefined || kept?.has(name)) continue;
    const own = inner[name];
    const combined = own === undefined ? given : combine(inheritanceOf(name) as Inheritance, given, own);
    if (combined !== own) (out ??= copy(inner))[name] = combined;
  }
  return (out ?? inner) as T;
}

function copy(options: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key in options) if (Object.prototype.hasOwnProperty.call(options, key)) out[key] = options[key];
  return out;
}

function combine(rule: Inheritance, outer: unknown, inner: unknown): unknown {
  switch (rule) {
    case 'prepend':
      return (inner as unknown[]).length === 0 ? outer : Object.freeze([...(outer as unknown[]), ...(inner as unknown[])]);
    case 'union':
      return (inner as unknown[]).every((item) => (outer as unknown[]).includes(item)) ? outer : Object.freeze([...new Set([...(outer as unknown[]), ...(inner as unknown[])])]);
    case 'merge':
      return Object.freeze({ ...(outer as object), ...(inner as object) });
    case 'default':
      return inner;
    case 'any':
      return outer === true || inner === true;
  }
}

/**
 * Runs a route's declared options through the table: the frozen spec, or one startup error
 * (`TERN_INVALID_ROUTE_OPTION`) naming the route and the option. A key that is neither an
 * option nor an `x-*` extension is a mistake too (`summery` from JavaScript or a config file).
 * `methods`, when given, is checked last as the `methods` option (a `Routes` keeps its methods
 * beside its options, so they are not copied into one object first). `inherited` is what the
 * route's containers give (`inheritOptions` of the app's, the routers', the controller's), applied
 * after the route's own values are checked and its `responseModel` folded into its `responses`.
 *
 * @example
 * routeSpec({ methods: ['post'], tags: ['users'], statusCode: 201 }, 'Route POST /users');
 * // { methods: ['POST'], tags: ['users'], statusCode: 201 }, frozen
 */
export function routeSpec(
  declared: Readonly<Record<string, unknown>>,
  where: string,
  methods?: unknown,
  inherited?: Readonly<InheritedRouteOptions>,
  route?: object,
): RouteSpec {
  const out: Record<string, unknown> = {};
  for (const key in declared) {
    if (!Object.prototype.hasOwnProperty.call(declared, key)) continue;
    const value = declared[key];
    if (key.startsWith('x-') && !isRouteOption(key)) {
      out[key] = value;
      continue;
    }
    if (!isRouteOption(key)) {
      throw new TernError('TERN_INVALID_ROUTE_OPTION', `${where}: unknown option '${key}'.${nearestHint(key, ROUTE_OPTION_NAMES)} Route options are ${ROUTE_OPTION_NAMES.join(', ')}; put your own metadata in 'extra'.`);
    }
    if (value === undefined) continue;
    out[key] = checked(key, value, declared, where);
  }
  if (methods !== undefined) out.methods = checked('methods', methods, declared, where);
  // Folded before inheriting: the route's own model is its response, as any own entry wins over a container's.
  if (out.responseModel !== undefined) foldResponseModel(out, where);
  return Object.freeze(inheritOptions(inherited, out, route && keptAsDeclared.get(route))) as RouteSpec;
}

function checked(key: RouteOptionName, value: unknown, declared: Readonly<Record<string, unknown>>, where: string): unknown {
  const result = checkOption(key, value, declared);
  if (result instanceof OptionMistake) throw new TernError('TERN_INVALID_ROUTE_OPTION', `${where}: ${describeMistake(key, result)}`);
  return result;
}

/**
 * `responseModel` is the schema of the success response (`statusCode`, default 200): it becomes
 * that entry of `responses`, once, here. A `responses` entry for the same status that names
 * another schema is refused rather than one silently winning.
 */
function foldResponseModel(spec: Record<string, unknown>, where: string): void {
  const status = String(spec.statusCode ?? 200);
  const responses = spec.responses as Record<string, unknown> | undefined;
  const model = spec.responseModel;
  if (responses?.[status] !== undefined && responses[status] !== model) {
    throw new TernError(
      'TERN_INVALID_ROUTE_OPTION',
      `${where}: responseModel and responses[${status}] both declare the success response; keep one (responseModel is responses[statusCode ?? 200]).`,
    );
  }
  spec.responses = Object.freeze({ ...responses, [status]: model });
  delete spec.responseModel;
}

/**
 * How a container's own option (its prefix, routes, name) is checked: a function saying what is
 * wrong with the value (or undefined), the name of the table row whose check applies (a router's
 * `name` is checked as a route's), or null for none.
 */
export type OwnOptionCheck = ((value: unknown) => string | undefined) | RouteOptionName | null;

/**
 * Checks the options of a container (`Router`, `Group`, `@Controller`) with the table: `own`
 * lists its own keys (prefix, routes, …) with their checks; every other key must be a route
 * option containers may set (`INHERITED_OPTION_NAMES`) and pass its row, else one
 * `TERN_INVALID_ROUTE_OPTION` naming the container and the option. Returns the inherited
 * options, checked and frozen: what the container gives its routes through `inheritOptions`.
 *
 * @example
 * checkContainerOptions("Router '/users'", { prefix: '/users', tags: ['users'] }, { prefix: null });
 * // { tags: ['users'] }
 */
export function checkContainerOptions(
  container: string,
  options: object,
  own: Readonly<Record<string, OwnOptionCheck>>,
  /** Checks replacing a row's for this container (a `Group`'s middleware may be factory entries); `fail(…)`-style text via the returned string. */
  checks: Readonly<Partial<Record<InheritedOptionName, (value: unknown) => string | undefined>>> = {},
  /** The route options this container may set (the app: `APP_ROUTE_OPTION_NAMES`); default every inherited one. */
  inheritable: readonly InheritedOptionName[] = INHERITED_OPTION_NAMES,
): Readonly<InheritedRouteOptions> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) {
    const isOwn = Object.prototype.hasOwnProperty.call(own, key);
    if (!isOwn && !(inheritable as readonly string[]).includes(key)) {
      const allowed = [...Object.keys(own), ...inheritable];
      const why = isRouteOption(key) ? ` '${key}' is set on each route, not on a container.` : nearestHint(key, allowed);
      throw new TernError('TERN_INVALID_ROUTE_OPTION', `${container}: unknown option '${key}'.${why} Its options are ${allowed.join(', ')}.`);
    }
    const check = isOwn ? own[key] : (checks[key as InheritedOptionName] ?? (key as InheritedOptionName));
    if (value === undefined || check === null) continue;
    const text = typeof check === 'string' ? undefined : check(value);
    const result = typeof check === 'string' ? checkOption(check, value, {}) : text === undefined ? value : new OptionMistake(text);
    if (result instanceof OptionMistake) throw new TernError('TERN_INVALID_ROUTE_OPTION', `${container}: ${describeMistake(key, result)}`);
    if (!isOwn) out[key] = result;
  }
  return Object.freeze(out) as Readonly<InheritedRouteOptions>;
}

function checkOption(name: RouteOptionName, value: unknown, declared: Readonly<Record<string, unknown>>): unknown {
  try {
    return (ROWS[name] as OptionRow<RouteOptionName>).check(value, declared);
  } catch (err) {
    if (err instanceof OptionMistake) return err;
    throw err;
  }
}

function describeMistake(name: string, mistake: OptionMistake): string {
  return `${name}${/^[[.']/.test(mistake.text) ? '' : ' '}${mistake.text}.`;
}
