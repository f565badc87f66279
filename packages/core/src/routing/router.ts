/**
 * Routers and what declares routes: `RouteDeclarer`, the declaration methods the app and routers
 * share, and `Router`. One file, because each names the other (a declarer mounts routers; a
 * router is a declarer).
 */
import type { PathParams } from './params';
import { Routes, withOptions, type AnyRoutes, type RouteDefinition } from './routes';
import type { Group } from './group';
import { TernTypeError } from '../errors';
import { checkContainerOptions, type OwnOptionCheck } from './route-options';
import type { Handler, InheritedRouteOptions, Middleware, RouteHandler, RouteOptions } from './types';
import { SocketRoutes, type SocketHandlers, type SocketOptions } from './socket-route';

/** What a container can hold: routes, groups and mounted routers. */
export type Declaration = AnyRoutes | Group | Router;

type MethodHelper = {
  <P extends string>(path: P, handler: Handler<PathParams<P>>): Routes<P>;
  <P extends string, O extends Omit<RouteOptions, 'methods'>>(path: P, options: O, handler: RouteHandler<PathParams<P>, O>): Routes<P>;
};

/**
 * The declaration methods the app and routers share (`get`, `post`, …, `route`, `addRoute`,
 * `mountRouter`), written once.
 */
export abstract class RouteDeclarer {
  /** Declarations in the order they were made; compiled in that order. */
  readonly declarations: Declaration[] = [];

  /** Called before each declaration; the app refuses declarations after `ready()`. */
  protected beforeDeclare(_what: string): void {}

  readonly get: MethodHelper = (path: string, a: Omit<RouteOptions, 'methods'> | Handler, b?: Handler) => this.method('GET', path, a, b as Handler);
  readonly post: MethodHelper = (path: string, a: Omit<RouteOptions, 'methods'> | Handler, b?: Handler) => this.method('POST', path, a, b as Handler);
  readonly put: MethodHelper = (path: string, a: Omit<RouteOptions, 'methods'> | Handler, b?: Handler) => this.method('PUT', path, a, b as Handler);
  readonly patch: MethodHelper = (path: string, a: Omit<RouteOptions, 'methods'> | Handler, b?: Handler) => this.method('PATCH', path, a, b as Handler);
  readonly delete: MethodHelper = (path: string, a: Omit<RouteOptions, 'methods'> | Handler, b?: Handler) => this.method('DELETE', path, a, b as Handler);
  readonly head: MethodHelper = (path: string, a: Omit<RouteOptions, 'methods'> | Handler, b?: Handler) => this.method('HEAD', path, a, b as Handler);
  readonly options: MethodHelper = (path: string, a: Omit<RouteOptions, 'methods'> | Handler, b?: Handler) => this.method('OPTIONS', path, a, b as Handler);

  /**
   * One handler for several methods; the handler reads `req.method`.
   *
   * @example
   * app.route('/items', { methods: ['GET', 'POST'] }, async (req) => ({ method: req.method }));
   */
  route<P extends string>(path: P, options: RouteOptions, handler: Handler<PathParams<P>>): Routes<P> {
    return this.addRoute(new Routes<P>(withOptions({ path, handler } as RouteDefinition<P>, options)));
  }

  /**
   * A WebSocket endpoint. The upgrade request goes through the route table and every middleware
   * like any GET (404, a converter's 422, middleware and `enforceSecurity` answering before any
   * 101); then `open`, `message` and `close` run for the socket. See docs/websockets.md.
   *
   * @example
   * app.ws('/rooms/{id:int}', { security: [{ bearerAuth: [] }], messageModel: ChatMessage }, {
   *   async open(socket, req) { await socket.join(`room:${req.pathParams.id}`); },
   *   message: (socket, data, req) => app.publish(`room:${req.pathParams.id}`, { from: req.user, text: data.text }),
   * });
   */
  ws<P extends string, M = string | Buffer>(path: P, options: SocketOptions<M>, handlers: SocketHandlers<M, PathParams<P>>): SocketRoutes {
    return this.addRoute(new SocketRoutes(path, options ?? {}, handlers as SocketHandlers<never, never>));
  }

  /** Adds a `Routes` object or a `Group`; returns it. */
  addRoute<T extends AnyRoutes | Group>(routeOrGroup: T): T {
    this.beforeDeclare('add a route');
    this.declarations.push(routeOrGroup);
    return routeOrGroup;
  }

  /** Mounts a router; its prefix composes with this container's. A router may be mounted in several places. */
  mountRouter(router: Router): Router {
    this.beforeDeclare('mount a router');
    this.declarations.push(router);
    return router;
  }

  private method(method: string, path: string, a: Omit<RouteOptions, 'methods'> | Handler, b?: Handler): AnyRoutes {
    // A RouteHandler is a Handler whose request is narrowed by the options: the same function at run time.
    const handler = typeof a === 'function' ? a : b;
    if (typeof handler !== 'function') throw new TernTypeError('TERN_INVALID_HANDLER', `${method} ${path}: a handler function is required.`);
    const definition: RouteDefinition = { path, handler, methods: [method] };
    return this.addRoute(new Routes(typeof a === 'function' ? definition : withOptions(definition, a)));
  }
}


/**
 * A router's own options (`prefix`, `routes`, `name`) and the route options every route inside
 * inherits (`InheritedRouteOptions`: tags, middleware, security, limits, …), each combined with
 * the route's own value by its row of the route options table.
 */
export interface RouterOptions extends InheritedRouteOptions {
  /** Prefix of every route inside; composes with the prefixes of the containers it is mounted in. */
  prefix?: string;
  routes?: AnyRoutes[];
  /** Route names inside become `name.routeName`. */
  name?: string;
}

/** A router's own keys; every other key is a route option its routes inherit, checked by its table row. */
const OWN_OPTIONS: Readonly<Record<string, OwnOptionCheck>> = {
  prefix: (value: unknown) => (typeof value === 'string' ? undefined : 'must be a string'),
  routes: (value: unknown) => (Array.isArray(value) ? undefined : 'must be a list of Routes'),
  name: 'name',
};

/**
 * A reusable set of routes under a prefix. Routers nest with `mountRouter`, and one router may be
 * mounted under several parents (e.g. a `users` router under `/api/v1` and `/api/v2`).
 *
 * @example
 * const users = new Router({ prefix: '/users', tags: ['users'], name: 'users' });
 * users.get('/{id:int}', { name: 'get' }, async (req, res, { id }) => ({ id }));
 * const v1 = new Router({ prefix: '/api/v1', name: 'v1', security: [{ bearerAuth: [] }] });
 * v1.mountRouter(users);
 * app.mountRouter(v1); // GET /api/v1/users/{id:int}, urlFor('v1.users.get', { id: 1 }), secured
 */
export class Router extends RouteDeclarer {
  readonly prefix: string;
  readonly tags: string[];
  readonly excludeFromSchema: boolean;
  readonly name?: string;
  readonly middleware: Middleware[];
  /** The route options its routes inherit, as the route options table checked them. */
  readonly inherited: Readonly<InheritedRouteOptions>;

  constructor(options: RouterOptions = {}) {
    super();
    this.inherited = checkContainerOptions(`Router '${typeof options?.prefix === 'string' ? options.prefix : ''}'`, options ?? {}, OWN_OPTIONS);
    this.prefix = options.prefix ?? '';
    this.tags = this.inherited.tags ?? [];
    this.excludeFromSchema = this.inherited.excludeFromSchema ?? false;
    this.name = options.name;
    this.middleware = this.inherited.middleware ?? [];
    for (const route of options.routes ?? []) this.addRoute(route);
  }
}
