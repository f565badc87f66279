import type { AnyRoutes } from './routes';
import type { MiddlewareEntry, NodeListener, RateLimitOptions } from './types';
import { TernError, TernTypeError } from '../errors';
import { optionMistake } from './route-options';

export interface GroupOptions {
  path: string;
  routes?: Array<AnyRoutes | Group>;
  middleware?: MiddlewareEntry[];
  /** A Node request listener served under `path`, with the prefix stripped from `req.url`. */
  app?: NodeListener;
  /** Hides every route inside from the OpenAPI document. */
  excludeFromSchema?: boolean;
  /** The `rateLimit` of every route inside that sets none (each route counts on its own). */
  rateLimit?: RateLimitOptions | false;
}

/**
 * Routes (and nested groups) under a path prefix with shared middleware. `routes` is a live
 * list: push onto it after construction to nest more, up to `app.ready()`.
 *
 * @example
 * const admin = new Group({ path: '/admin', middleware: [requireAdmin], routes: [statsRoute] });
 * admin.routes.push(new Group({ path: '/reports', routes: [dailyRoute] }));
 * app.addRoute(admin);
 *
 * // Forward everything under /legacy to an Express app:
 * app.addRoute(new Group({ path: '/legacy', app: expressApp }));
 */
export class Group {
  readonly path: string;
  readonly routes: Array<AnyRoutes | Group>;
  readonly middleware: MiddlewareEntry[];
  readonly app?: NodeListener;
  readonly excludeFromSchema: boolean;
  readonly rateLimit?: RateLimitOptions | false;

  constructor(options: GroupOptions) {
    if (typeof options?.path !== 'string') throw new TernTypeError('TERN_INVALID_ARGUMENT', 'Group needs a string path.');
    if (options.app !== undefined && typeof options.app !== 'function') {
      throw new TernTypeError('TERN_INVALID_ARGUMENT', `Group '${options.path}': app must be a Node request listener function.`);
    }
    const mistake =
      (options.excludeFromSchema === undefined ? undefined : optionMistake('excludeFromSchema', options.excludeFromSchema)) ??
      (options.rateLimit === undefined ? undefined : optionMistake('rateLimit', options.rateLimit));
    if (mistake) throw new TernError('TERN_INVALID_ROUTE_OPTION', `Group '${options.path}': ${mistake}`);
    this.path = options.path;
    this.routes = options.routes ?? [];
    this.middleware = options.middleware ?? [];
    this.app = options.app;
    this.excludeFromSchema = options.excludeFromSchema ?? false;
    this.rateLimit = options.rateLimit;
  }
}
