import { NOT_IN_ROUTE_FILES, ROUTE_OPTION_NAMES, TernTypeError, type Handler, type RouteOptions } from '@tern/core';

/** A handler exported by a route file: `(req, res, params)`, params typed loosely. */
// `any`: a route file's handler states its folder's parameters (`Handler<{ slug: string }>`), and a
// handler's parameter type is contravariant, so only `Handler<any>` accepts them all.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- path parameter types are contravariant in the handler
export type FileRouteHandler = Handler<any>;

/**
 * What `markAsRoute` accepts: the path and methods of a file route and every route option but
 * those `NOT_IN_ROUTE_FILES` lists with its reason (`declaredIn`: the file router names the file).
 * `responseModel` is the success response's schema (`responses[statusCode ?? 200]`; both naming
 * different schemas fail `ready()`).
 */
export interface MarkAsRouteOptions extends Omit<RouteOptions, 'declaredIn'> {
  /** The full URL path, replacing the one derived from the file's directory. */
  path?: string;
}

/**
 * Where the options live on a marked handler. `Symbol.for` (not a module-local symbol or a
 * WeakMap) so a route file that resolved another copy of this package is still understood.
 */
const ROUTE_OPTIONS = Symbol.for('tern.fileRouter.routeOptions');

/** What a route file may set: `path`, and the route options table's names but those it keeps for the file router. */
const OPTION_KEYS = new Set<string>(['path', ...ROUTE_OPTION_NAMES.filter((name) => NOT_IN_ROUTE_FILES[name] === undefined)]);

/**
 * Declares a route file export explicitly. Returns a new handler carrying the options (the
 * original function is left untouched, so exporting it again elsewhere does not copy them).
 *
 * An export named after a method (`get`, `post`…) serves that method; `methods`, if given, must
 * name only that method. Any other export becomes a route only through `markAsRoute`, with
 * `methods` defaulting to `['GET']`.
 *
 * @example
 * // routes/users/{id:int}/route.ts → GET /users/{id:int}
 * export const get = markAsRoute(
 *   { summary: 'Get a user', responseModel: UserDto, tags: ['users'], name: 'users.get' },
 *   async (req) => users.find(req.pathParams.id),
 * );
 */
export function markAsRoute<H extends FileRouteHandler>(options: MarkAsRouteOptions, handler: H): H {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TernTypeError('TERN_INVALID_ARGUMENT', 'markAsRoute(options, handler): options must be an object.');
  }
  if (typeof handler !== 'function') throw new TernTypeError('TERN_INVALID_HANDLER', 'markAsRoute(options, handler): handler must be a function.');
  const reasons: Readonly<Record<string, string | undefined>> = NOT_IN_ROUTE_FILES;
  const reserved = Object.keys(options).find((key) => reasons[key] !== undefined);
  if (reserved) throw new TernTypeError('TERN_INVALID_ARGUMENT', `markAsRoute: a route file cannot set '${reserved}': ${reasons[reserved]}.`);
  const unknown = Object.keys(options).filter((key) => !OPTION_KEYS.has(key) && !key.startsWith('x-'));
  if (unknown.length > 0) {
    throw new TernTypeError('TERN_INVALID_ARGUMENT', `markAsRoute: unknown option${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `'${k}'`).join(', ')}.`);
  }
  if (options.path !== undefined && (typeof options.path !== 'string' || !options.path.startsWith('/'))) {
    throw new TernTypeError('TERN_INVALID_ARGUMENT', `markAsRoute: path must be a string starting with '/', got ${JSON.stringify(options.path)}.`);
  }
  const marked = function (this: unknown, ...args: Parameters<H>) {
    return handler.apply(this, args);
  } as unknown as H;
  Object.defineProperty(marked, 'name', { value: handler.name });
  // What other wrappers marked on the handler (render()'s page marker, its template) stays true.
  for (const symbol of Object.getOwnPropertySymbols(handler)) {
    if (symbol !== ROUTE_OPTIONS) Object.defineProperty(marked, symbol, { value: (handler as unknown as Record<symbol, unknown>)[symbol] });
  }
  // A handler marked twice keeps the outer options on top of the inner ones.
  const inner = routeOptionsOf(handler);
  Object.defineProperty(marked, ROUTE_OPTIONS, { value: Object.freeze({ ...inner, ...options }) });
  return marked;
}

/** The options `markAsRoute` attached to a value, if any. */
export function routeOptionsOf(value: unknown): Readonly<MarkAsRouteOptions> | undefined {
  if (typeof value !== 'function') return undefined;
  return (value as unknown as Record<symbol, MarkAsRouteOptions | undefined>)[ROUTE_OPTIONS];
}

/** Copies the options of `from` onto `to` (used by `render`, which wraps a handler). */
export function carryRouteOptions<H extends Function>(from: Function, to: H): H {
  const options = routeOptionsOf(from);
  if (options) Object.defineProperty(to, ROUTE_OPTIONS, { value: options });
  return to;
}

/**
 * Builds the `Routes` options of a marked export (everything but path, methods and handler).
 * `responseModel` is passed on as declared: the route options table folds it into `responses`
 * in `ready()`, as for every other declaration style.
 */
export function toRouteOptions(options: Readonly<MarkAsRouteOptions>): RouteOptions {
  const { path: _path, methods: _methods, ...rest } = options;
  return rest;
}
