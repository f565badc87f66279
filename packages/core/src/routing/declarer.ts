import type { PathParams } from './params';
import { Routes, withOptions, type AnyRoutes, type RouteDefinition } from './routes';
import type { Handler, RouteOptions } from './types';
import type { Group } from './group';
import type { Router } from './router';
import { TernTypeError } from '../errors';
import { SocketRoutes, type SocketHandlers, type SocketOptions } from './socket-route';

/** What a container can hold: routes, groups and mounted routers. */
export type Declaration = AnyRoutes | Group | Router;

type MethodHelper = {
  <P extends string>(path: P, handler: Handler<PathParams<P>>): Routes<P>;
  <P extends string>(path: P, options: Omit<RouteOptions, 'methods'>, handler: Handler<PathParams<P>>): Routes<P>;
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

  readonly get: MethodHelper = (path: string, a: Omit<RouteOptions, 'methods'> | Handler, b?: Handler) => this.method('GET', path, a, b);
  readonly post: MethodHelper = (path: string, a: Omit<RouteOptions, 'methods'> | Handler, b?: Handler) => this.method('POST', path, a, b);
  readonly put: MethodHelper = (path: string, a: Omit<RouteOptions, 'methods'> | Handler, b?: Handler) => this.method('PUT', path, a, b);
  readonly patch: MethodHelper = (path: string, a: Omit<RouteOptions, 'methods'> | Handler, b?: Handler) => this.method('PATCH', path, a, b);
  readonly delete: MethodHelper = (path: string, a: Omit<RouteOptions, 'methods'> | Handler, b?: Handler) => this.method('DELETE', path, a, b);
  readonly head: MethodHelper = (path: string, a: Omit<RouteOptions, 'methods'> | Handler, b?: Handler) => this.method('HEAD', path, a, b);
  readonly options: MethodHelper = (path: string, a: Omit<RouteOptions, 'methods'> | Handler, b?: Handler) => this.method('OPTIONS', path, a, b);

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
    const handler = typeof a === 'function' ? a : b;
    if (typeof handler !== 'function') throw new TernTypeError('TERN_INVALID_HANDLER', `${method} ${path}: a handler function is required.`);
    const definition: RouteDefinition = { path, handler, methods: [method] };
    return this.addRoute(new Routes(typeof a === 'function' ? definition : withOptions(definition, a)));
  }
}
