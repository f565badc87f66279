import type { Convertor } from '../converters';
import { convertorForPath } from '../converters/registry';
import { InvalidRouteError } from '../errors';

/** One `{name:conv}` parameter of a compiled path, with its converter bound at startup. */
export interface PathParam {
  name: string;
  converterName: string;
  convertor: Convertor;
  /** `^(?:regex)$`, built once so a request only runs `test`. */
  pattern: RegExp;
}

/** A path pattern compiled once: what the matcher needs and what URL generation needs. */
export interface CompiledPath {
  /** The declared pattern, e.g. `/users/{id:int}`. */
  raw: string;
  /** Static text and parameters in order; a parameter always fills a whole segment. */
  parts: Array<string | PathParam>;
  params: PathParam[];
  /** The pattern for find-my-way: parameters renamed by position (`:p0`), `path` as `*`. */
  matcherPath: string;
  /**
   * Identifies routes that can never both serve one request: the shape with parameter names
   * erased but converter names kept, so `/items/{id:int}` and `/items/{slug:slug}` may coexist.
   */
  conflictKey: string;
  /** The document's form of the path: converters dropped (`/users/{id}`), what `RouteInfo.template` says. */
  template: string;
  /** Every parameter written `{}` (`/users/{}`): what `RouteInfo.pathShape` says. */
  shape: string;
}

const PARAM = /^\{([A-Za-z_][A-Za-z0-9_]*)(?::([A-Za-z_][A-Za-z0-9_]*))?\}$/;
/** `:id` / `:id?`: Express and NestJS parameter syntax, refused with a hint (see `colonParamHint`). */
const COLON_PARAM = /^:([A-Za-z_][A-Za-z0-9_]*)\??$/;

/** The message for a `:name` segment, or undefined when `segment` is not one. */
function colonParamHint(segment: string, raw: string, where: string): string | undefined {
  const m = COLON_PARAM.exec(segment);
  if (!m) return undefined;
  const name = m[1];
  const fixed = raw.replace(/(^|\/):([A-Za-z_][A-Za-z0-9_]*)\??(?=\/|$)/g, '$1{$2}');
  return (
    `${where}: segment '${segment}' of '${raw}' uses Express/NestJS parameter syntax. Tern writes parameters in braces: ` +
    `'${fixed}' (a string), or with a converter such as {${name}:int} for a number, {${name}:uuid}, {${name}:slug}.`
  );
}

/**
 * Joins container prefixes and a route path: `/api` + `/v1` + `/users` → `/api/v1/users`.
 * A route path `/` inside a prefix serves the prefix itself; a trailing slash on the route path
 * is kept, because `/users/` and `/users` are different paths.
 */
export function joinPaths(prefixes: Array<string | undefined>, path: string): string {
  let out = '';
  for (const prefix of prefixes) {
    if (!prefix) continue;
    const slashed = withLeadingSlash(prefix);
    out += slashed.endsWith('/') ? slashed.replace(/\/+$/, '') : slashed;
  }
  if (path === '' || path === '/') return out || '/';
  return out + withLeadingSlash(path);
}

function withLeadingSlash(path: string): string {
  return path.startsWith('/') ? path : `/${path}`;
}

/**
 * The parameter names of a route pattern without compiling it, or undefined when a segment is not
 * a well-formed parameter (`compilePath` then says what is wrong).
 */
export function pathParamNames(raw: string): string[] | undefined {
  // Without a colon (no `:id` segment to refuse) only the segments with a brace are read, found
  // by indexOf: splitting every controller route's path into segments cost ~3 µs a route cold.
  if (!raw.includes(':')) return bracedParamNames(raw);
  const names: string[] = [];
  for (const segment of raw.split('/')) {
    if (segment.includes(':') && COLON_PARAM.test(segment)) return undefined; // compilePath explains the `:id` syntax
    if (!segment.includes('{') && !segment.includes('}')) continue;
    const m = PARAM.exec(segment);
    if (!m) return undefined;
    names.push(m[1]);
  }
  return names;
}

/** `pathParamNames` for a path without a colon: each segment holding `{` or `}` must be a whole parameter. */
function bracedParamNames(raw: string): string[] | undefined {
  const names: string[] = [];
  for (let at = nextBrace(raw, 0); at !== -1; ) {
    const start = raw.lastIndexOf('/', at) + 1;
    const slash = raw.indexOf('/', at);
    const end = slash === -1 ? raw.length : slash;
    const m = PARAM.exec(raw.slice(start, end));
    if (!m) return undefined;
    names.push(m[1]);
    at = slash === -1 ? -1 : nextBrace(raw, slash);
  }
  return names;
}

function nextBrace(raw: string, from: number): number {
  const open = raw.indexOf('{', from);
  const close = raw.indexOf('}', from);
  return open === -1 ? close : close === -1 ? open : Math.min(open, close);
}

/**
 * Parameters compiled so far in one `ready()`, by segment text (`{id:int}`): the parameter is
 * the same object for every route that writes that segment, so its converter is looked up, its
 * regex checked and its description made once per app, not once per route. Read-only data, so
 * sharing it is safe; a pass owns its map, so a converter registered before a later `ready()` is
 * seen by it.
 */
export type ParamCache = Map<string, PathParam>;

/** The parameters of every path without any (read only, like every compiled path's). */
const NO_PARAMS: PathParam[] = Object.freeze([]) as unknown as PathParam[];

/** Parses and validates a route pattern; unknown converters and misplaced parameters fail startup. */
export function compilePath(raw: string, where: string, cache?: ParamCache): CompiledPath {
  if (!raw.startsWith('/')) throw new InvalidRouteError(`${where}: path '${raw}' must start with '/'.`);
  const segments = raw.split('/');
  // Made on the first parameter as literals, so a path with one parameter keeps arrays of its
  // size (an empty array grown by push reserves room for 17, and every route keeps both).
  let parts: Array<string | PathParam> | undefined;
  let params: PathParam[] = NO_PARAMS;
  // The four strings built in one pass, segment by segment (a thousand routes at startup): text
  // runs between parameters are kept whole, so a path without parameters is `raw` four times.
  let matcherPath = '';
  let conflictKey = '';
  let template = '';
  let shape = '';
  let text = '';
  for (let index = 1; index < segments.length; index++) {
    const segment = segments[index];
    if (segment.includes(':')) {
      const hint = colonParamHint(segment, raw, where);
      if (hint) throw new InvalidRouteError(hint);
    }
    if (!segment.includes('{') && !segment.includes('}')) {
      text += `/${segment}`;
      continue;
    }
    const param = compileParam(segment, raw, where, params, index === segments.length - 1, cache);
    if (parts === undefined) parts = text === '' ? ['/', param] : [text, '/', param];
    else if (text === '') parts.push('/', param);
    else parts.push(text, '/', param);
    // find-my-way reads ':' and '*' as syntax; '::' is its escape for a literal colon.
    const matcherText = text.includes(':') ? text.replace(/:/g, '::') : text;
    matcherPath += `${matcherText}/${param.converterName === 'path' ? '*' : `:p${params.length}`}`;
    conflictKey += `${text}/{:${param.converterName}}`;
    template += `${text}/{${param.name}}`;
    shape += `${text}/{}`;
    if (params === NO_PARAMS) params = [param];
    else params.push(param);
    text = '';
  }
  if (text !== '' || parts === undefined) {
    // `/` alone is one empty segment: its text is '/'.
    if (parts === undefined) parts = [text];
    else parts.push(text);
    matcherPath += text.includes(':') ? text.replace(/:/g, '::') : text;
    conflictKey += text;
    template += text;
    shape += text;
  }
  return { raw, parts, params, matcherPath, conflictKey, template, shape };
}

/** One `{name}` / `{name:converter}` segment, checked against the parameters before it. */
function compileParam(segment: string, raw: string, where: string, before: readonly PathParam[], isLast: boolean, cache?: ParamCache): PathParam {
  const known = cache?.get(segment);
  if (known) return placed(known, raw, where, before, isLast);
  const m = PARAM.exec(segment);
  if (!m) {
    throw new InvalidRouteError(`${where}: segment '${segment}' of '${raw}' is not a parameter; write a whole segment as {name} or {name:converter}.`);
  }
  const [, name, converterName = 'str'] = m;
  const convertor = convertorForPath(converterName, `${where}: '${raw}'`);
  if (!convertor) {
    throw new InvalidRouteError(
      `${where}: unknown converter '${converterName}' in '${raw}'; register it with registerUrlConvertor() before app.ready().`,
      'TERN_UNKNOWN_CONVERTER',
    );
  }
  const param: PathParam = { name, converterName, convertor, pattern: anchored(convertor.regex) };
  cache?.set(segment, param);
  return placed(param, raw, where, before, isLast);
}

/** The checks that depend on where a parameter sits in its path: a repeated name, a `path` parameter before the end. */
function placed(param: PathParam, raw: string, where: string, before: readonly PathParam[], isLast: boolean): PathParam {
  const { name } = param;
  if (before.some((p) => p.name === name)) {
    throw new InvalidRouteError(`${where}: parameter '${name}' appears twice in '${raw}'.`);
  }
  if (param.converterName === 'path' && !isLast) {
    throw new InvalidRouteError(`${where}: a {${name}:path} parameter must be the last segment of '${raw}'.`);
  }
  return param;
}

/**
 * `^(?:regex)$` for a converter's pattern, one RegExp per distinct pattern: every `{id:int}` of
 * every route shares one. Safe to share because it has no `g` or `y` flag, so `test` keeps no state.
 */
const anchoredPatterns = new Map<string, RegExp>();
function anchored(source: string): RegExp {
  let re = anchoredPatterns.get(source);
  if (!re) anchoredPatterns.set(source, (re = new RegExp(`^(?:${source})$`)));
  return re;
}

export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Why a raw value fails a parameter, or undefined when it converts; the value is set on `out`. */
export function convertParam(param: PathParam, value: string, out: Record<string, unknown>): string | undefined {
  if (!param.pattern.test(value)) {
    return `'${value}' is not a valid ${param.converterName} for parameter '${param.name}'`;
  }
  try {
    out[param.name] = param.convertor.convert(value);
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/**
 * Each compiled path's full-path regex, made on its first `matchPath`: only `route.match` and
 * debug explanations use one, so routes do not build it at startup.
 */
const pathRegexes = new WeakMap<CompiledPath, RegExp>();

/** `^…$` with one group per parameter (`(.*)` for a `path` parameter). */
function fullPathRegex(compiled: CompiledPath): RegExp {
  let source = '^';
  for (const part of compiled.parts) {
    if (typeof part === 'string') source += escapeRegex(part);
    else source += part.converterName === 'path' ? '(.*)' : '([^/]+)';
  }
  return new RegExp(`${source}$`);
}

/** Result of testing one compiled path alone against a request path. */
export type PathMatch =
  | { params: Record<string, unknown>; failure?: undefined }
  | { params?: undefined; failure: { param?: string; message: string } };

/**
 * Tests a whole path against one pattern, converters included. Used by `route.match` and by the
 * debug explanations; the request path goes through the matcher instead.
 */
export function matchPath(compiled: CompiledPath, path: string): PathMatch {
  let regex = pathRegexes.get(compiled);
  if (!regex) pathRegexes.set(compiled, (regex = fullPathRegex(compiled)));
  const m = regex.exec(path);
  if (!m) return { failure: { message: `path does not match ${compiled.raw}` } };
  const params: Record<string, unknown> = {};
  for (let i = 0; i < compiled.params.length; i++) {
    const param = compiled.params[i];
    let value: string;
    try {
      value = decodeURIComponent(m[i + 1]);
    } catch {
      return { failure: { param: param.name, message: `malformed percent-encoding in parameter '${param.name}'` } };
    }
    const message = convertParam(param, value, params);
    if (message !== undefined) return { failure: { param: param.name, message } };
  }
  return { params };
}
