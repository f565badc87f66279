import type { PathParams } from './params';
import type { Handler, HandlerInput, RouteOptions } from './types';
import { compilePath, matchPath, type CompiledPath } from './path';
import { TernTypeError } from '../errors';
import { isRouteOption } from './route-options';

/** Everything `new Routes()` takes: a path, an optional handler and the route options. */
export interface RouteDefinition<P extends string = string> extends RouteOptions {
  path: P;
  handler?: Handler<PathParams<P>>;
}

/**
 * A route whatever its path literal. `any` because a handler's parameter types are contravariant:
 * `Routes<'/users/{id:int}'>` is not a `Routes<string>`, so collections of routes need `any`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- path parameter types are contravariant in the handler
export type AnyRoutes = Routes<any>;

/**
 * What `route.match` returns: `[route, params, allowed]` when the path matches (the converted
 * parameters, and whether the method is one of the route's), else `[null, null, false]`.
 */
export type RouteMatchResult = [AnyRoutes | null, Record<string, unknown> | null, boolean];

const NO_EXTRA: Readonly<Record<string, unknown>> = Object.freeze({});

/**
 * `{ ...options, ...own }` without the spread: `own` gains each key of `options` it does not have.
 * V8 gives an object spread followed by more keys a map of its own and makes it a slow
 * dictionary (measured: 1,000 `{ ...options, path, handler, methods }` took ~7 ms in a fresh
 * process, a literal filled by a loop ~1 ms); every method helper and controller route makes one.
 * `own`'s keys come first.
 *
 * @example
 * withOptions({ path: '/users', handler }, { summary: 'Users' }); // { path, handler, summary }
 */
export function withOptions<T extends object>(own: T, options: object | undefined): T {
  for (const key in options) {
    if (Object.prototype.hasOwnProperty.call(options, key) && !Object.prototype.hasOwnProperty.call(own, key)) {
      (own as Record<string, unknown>)[key] = (options as Record<string, unknown>)[key];
    }
  }
  return own;
}

/** Method names uppercased, each once, in order; one method (the method helpers) without a Set. */
function normaliseMethods(methods: readonly unknown[]): string[] {
  const upper = (m: unknown) => (typeof m === 'string' ? m.toUpperCase() : m) as string;
  if (methods.length === 1) return [upper(methods[0])];
  return [...new Set(methods.map(upper))];
}

/**
 * One route: a path pattern, its methods, an optional handler and metadata. Every declaration
 * style (method helpers, routers, groups, controllers, route files) ends as one of these.
 *
 * @example
 * const route = new Routes({ path: '/users/{id:int}', methods: ['GET'], name: 'user', handler: getUser });
 * app.addRoute(route);
 * route.match('/users/7', 'GET'); // [route, { id: 7 }, true]
 */
export class Routes<P extends string = string> {
  readonly path: P;
  handler?: Handler<PathParams<P>>;
  readonly methods: string[];
  readonly options: Readonly<RouteOptions>;
  /** `extra` with the `x-*` extensions (and, from untyped code, keys that are no route option: `ready()` refuses those). */
  readonly extra: Readonly<Record<string, unknown>>;
  /** What Tern knows of the input of a handler it built (the controller scanner passes it); read by the OpenAPI document. */
  readonly handlerInput?: HandlerInput;
  private compiled?: CompiledPath;

  constructor(definition: RouteDefinition<P>, handlerInput?: HandlerInput) {
    const { path, handler, methods = ['GET'] } = definition;
    if (typeof path !== 'string') throw new TernTypeError('TERN_INVALID_ARGUMENT', 'Routes needs a string path.');
    if (handler !== undefined && typeof handler !== 'function') {
      throw new TernTypeError('TERN_INVALID_HANDLER', `Routes '${path}': handler must be a function.`);
    }
    this.path = path;
    this.handler = handler;
    this.handlerInput = handlerInput;
    // A list is normalised now (`match` reads it); anything else is kept as given, for `ready()`,
    // where the route options table refuses it naming the route, like any other option.
    this.methods = Array.isArray(methods) ? normaliseMethods(methods) : methods;
    // One pass over the definition (a thousand routes at startup): the options are every key but
    // path, handler and methods; `extra` adds `x-*` extensions and any key from untyped code
    // that is not a route option, kept so the startup error (routing/route-options.ts) can name it.
    const options: Record<string, unknown> = {};
    let extra: Record<string, unknown> | undefined;
    for (const key in definition) {
      if (key === 'path' || key === 'handler' || key === 'methods' || !Object.prototype.hasOwnProperty.call(definition, key)) continue;
      const value = (definition as unknown as Record<string, unknown>)[key];
      options[key] = value;
      if (!isRouteOption(key)) (extra ??= { ...(definition.extra ?? {}) })[key] = value;
    }
    this.options = options as RouteOptions;
    // Most routes have no extra: they share one frozen empty object instead of a copy each.
    this.extra = extra ?? (definition.extra === undefined ? NO_EXTRA : { ...definition.extra });
  }

  get name(): string | undefined {
    return this.options.name;
  }

  /**
   * Tests this route alone against a path and method, converters included. A path that does not
   * match, or a value a converter rejects, gives `[null, null, false]`.
   */
  match(path: string, method: string): RouteMatchResult {
    const compiled = (this.compiled ??= compilePath(this.path, `Route '${this.path}'`));
    const { params } = matchPath(compiled, path);
    if (!params) return [null, null, false];
    return [this, params, this.methods.includes(method.toUpperCase())];
  }
}
