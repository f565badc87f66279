import type { PathParams } from './params';
import type { Handler, RouteOptions } from './types';
import { compilePath, matchPath, type CompiledPath } from './path';
import { TernTypeError } from '../errors';

const KNOWN_OPTIONS = new Set([
  'path', 'handler', 'methods', 'name', 'summary', 'description', 'responses', 'requestModel',
  'middleware', 'tags', 'security', 'operationId', 'deprecated', 'parameters', 'excludeFromSchema',
  'statusCode', 'declaredIn', 'forbidUnknownProperties', 'consumes', 'multipart', 'responseFiltering', 'produces', 'problems',
  'sse', 'responseModel', 'extra', 'formTemplate',
]);

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
  /** Options that are not route options Tern knows (`name`, `summary`, …), kept as metadata. */
  readonly extra: Readonly<Record<string, unknown>>;
  private compiled?: CompiledPath;

  constructor(definition: RouteDefinition<P>) {
    const { path, handler, methods = ['GET'] } = definition;
    if (typeof path !== 'string') throw new TernTypeError('TERN_INVALID_ARGUMENT', 'Routes needs a string path.');
    if (handler !== undefined && typeof handler !== 'function') {
      throw new TernTypeError('TERN_INVALID_HANDLER', `Routes '${path}': handler must be a function.`);
    }
    this.path = path;
    this.handler = handler;
    this.methods = [...new Set(methods.map((m) => m.toUpperCase()))];
    // One pass over the definition (a thousand routes at startup): the options are every key but
    // path, handler and methods; `extra` adds `x-*` extensions and any key from untyped code
    // that is not a route option, kept rather than lost.
    const options: Record<string, unknown> = {};
    const extra: Record<string, unknown> = { ...(definition.extra ?? {}) };
    for (const key of Object.keys(definition)) {
      if (key === 'path' || key === 'handler' || key === 'methods') continue;
      const value = (definition as unknown as Record<string, unknown>)[key];
      options[key] = value;
      if (!KNOWN_OPTIONS.has(key)) extra[key] = value;
    }
    this.options = options as RouteOptions;
    this.extra = extra;
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
