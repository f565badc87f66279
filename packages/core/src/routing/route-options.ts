/**
 * The one owner of route options: a row per option saying how a declared value is checked and
 * normalised. Every declaration style (method helpers, `Routes`, routers and groups, controllers,
 * configuration, route files) ends as a `Routes` whose options `routeSpec` runs through this
 * table once, in `ready()`; consumers read the frozen spec and never re-check it. Adding an
 * option is a field on `RouteOptions` (types.ts), a row here, and the code that uses it.
 */
import { TernError } from '../errors';
import { resolveLimits, type MultipartOptions } from '../http/multipart-limits';
import { isObjectBody } from '../validation/types';
import type { RouteOptions } from './types';

/** The named options (everything but the open `x-*` extensions). */
type NamedOptions = { [K in keyof RouteOptions as K extends `x-${string}` ? never : K]-?: RouteOptions[K] };
export type RouteOptionName = keyof NamedOptions;

/** A route's options after the table checked them: frozen, normalised (media types lowercased, method names uppercased). */
export type RouteSpec = Readonly<RouteOptions>;

interface OptionRow<K extends RouteOptionName> {
  /** Returns the value normalised; `fail(…)` says what it must be. `declared` is every option, for the few that depend on another. */
  check(value: unknown, declared: Readonly<Record<string, unknown>>): NamedOptions[K];
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

/** A response schema: a class, `[Class]`, a shape or `{ description }` (the document builder describes it). */
function responseSchema(value: unknown, where = ''): NonNullable<RouteOptions['responseModel']> {
  if (typeof value === 'function' || Array.isArray(value) || isObjectBody(value)) return value as NonNullable<RouteOptions['responseModel']>;
  return fail(`${where}must be a class, [Class], a { field: type } shape or { description }`);
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

const SOCKETS_ONLY = 'route files declare HTTP routes; sockets are declared with app.ws';

/**
 * The table. Its type lists every named key of `RouteOptions`, so an option added to the
 * interface without a row (or a row without the option) does not compile.
 */
const ROWS: { readonly [K in RouteOptionName]: OptionRow<K> } = {
  bodyLimit: { check: positiveBytes, safeInDocument: true },
  multipartLimit: { check: positiveBytes, safeInDocument: true },
  methods: { check: methodList, safeInDocument: true },
  name: { check: nonEmpty, safeInDocument: true },
  summary: { check: text, safeInDocument: true },
  description: { check: text, safeInDocument: true },
  operationId: { check: (value) => (typeof value === 'string' && value.trim() !== '' ? value : fail('must be a non-empty string')), safeInDocument: true },
  responses: { check: (value) => statusMap(value, RESPONSE_STATUS, (item, key) => responseSchema(item, `[${key}] `), 'must map status codes to schemas') },
  responseModel: { check: (value) => responseSchema(value) },
  requestModel: { check: (value) => (typeof value === 'function' ? value : fail('must be a class')) },
  middleware: { check: (value) => functionList(value) as NonNullable<RouteOptions['middleware']>, safeInDocument: true },
  tags: { check: (value) => stringList(value, "['users']"), safeInDocument: true },
  security: { check: security, safeInDocument: true },
  deprecated: { check: flag, safeInDocument: true },
  parameters: { check: parameters },
  excludeFromSchema: { check: flag, safeInDocument: true },
  statusCode: {
    check: (value) => (Number.isInteger(value) && (value as number) >= 200 && (value as number) <= 599 ? (value as number) : fail('must be a status code from 200 to 599')),
    safeInDocument: true,
  },
  consumes: { check: consumes },
  multipart: { check: multipart },
  responseFiltering: { check: flag, safeInDocument: true },
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
  forbidUnknownProperties: { check: flag, safeInDocument: true },
  sse: { check: flag },
  extra: { check: (value) => (isObjectBody(value) ? Object.freeze({ ...value }) : fail('must be an object')) },
  formTemplate: { check: nonEmpty, safeInDocument: true },
  messageModel: { check: (value) => (typeof value === 'function' ? value : fail('must be a class')), notInRouteFiles: SOCKETS_ONLY, socketOnly: true },
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

/**
 * Runs a route's declared options through the table: the frozen spec, or one startup error
 * (`TERN_INVALID_ROUTE_OPTION`) naming the route and the option. A key that is neither an
 * option nor an `x-*` extension is a mistake too (`summery` from JavaScript or a config file).
 * `methods`, when given, is checked last as the `methods` option (a `Routes` keeps its methods
 * beside its options, so they are not copied into one object first).
 *
 * @example
 * routeSpec({ methods: ['post'], tags: ['users'], statusCode: 201 }, 'Route POST /users');
 * // { methods: ['POST'], tags: ['users'], statusCode: 201 }, frozen
 */
export function routeSpec(declared: Readonly<Record<string, unknown>>, where: string, methods?: unknown): RouteSpec {
  const out: Record<string, unknown> = {};
  for (const key in declared) {
    if (!Object.prototype.hasOwnProperty.call(declared, key)) continue;
    const value = declared[key];
    if (key.startsWith('x-')) {
      out[key] = value;
      continue;
    }
    if (!isRouteOption(key)) {
      throw new TernError('TERN_INVALID_ROUTE_OPTION', `${where}: unknown option '${key}'. Route options are ${ROUTE_OPTION_NAMES.join(', ')}; put your own metadata in 'extra'.`);
    }
    if (value === undefined) continue;
    const checked = checkOption(key, value, declared);
    if (checked instanceof OptionMistake) throw new TernError('TERN_INVALID_ROUTE_OPTION', `${where}: ${describeMistake(key, checked)}`);
    out[key] = checked;
  }
  if (methods !== undefined) {
    const checked = checkOption('methods', methods, declared);
    if (checked instanceof OptionMistake) throw new TernError('TERN_INVALID_ROUTE_OPTION', `${where}: ${describeMistake('methods', checked)}`);
    out.methods = checked;
  }
  return Object.freeze(out) as RouteSpec;
}

/**
 * What is wrong with one option's value, as a sentence naming it, or undefined when the table
 * accepts it: for defaults given elsewhere (`@Controller` options), checked where they are written.
 *
 * @example
 * optionMistake('tags', 'admin'); // "tags must be a list of strings, e.g. ['users']."
 */
export function optionMistake(name: RouteOptionName, value: unknown): string | undefined {
  const checked = checkOption(name, value, {});
  return checked instanceof OptionMistake ? describeMistake(name, checked) : undefined;
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
  return `${name}${mistake.text.startsWith('[') ? '' : ' '}${mistake.text}.`;
}
