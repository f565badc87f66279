import type { AnyRoutes } from './routes';
import type { InheritedRouteOptions, MiddlewareEntry, NodeListener } from './types';
import { TernTypeError } from '../errors';
import { checkContainerOptions, type OwnOptionCheck } from './route-options';

/**
 * A group's own options (`path`, `routes`, `app`) and the route options every route inside
 * inherits (`InheritedRouteOptions`), each combined with the route's own value by its row of the
 * route options table. Its `middleware` may also hold `[factory, args, options]` entries.
 */
export interface GroupOptions extends Omit<InheritedRouteOptions, 'middleware'> {
  path: string;
  routes?: Array<AnyRoutes | Group>;
  middleware?: MiddlewareEntry[];
  /** A Node request listener served under `path`, with the prefix stripped from `req.url`. */
  app?: NodeListener;
}

const OWN_OPTIONS: Readonly<Record<string, OwnOptionCheck>> = {
  path: null,
  routes: (value) => (Array.isArray(value) ? undefined : 'must be a list of Routes and Groups'),
  app: null,
};

/** A group's middleware entries: functions, or `[factory, args, options]` resolved in `ready()`. */
function middlewareEntries(value: unknown): string | undefined {
  const valid = Array.isArray(value) && value.every((entry) => typeof entry === 'function' || (Array.isArray(entry) && typeof entry[0] === 'function'));
  return valid ? undefined : 'must be a list of middleware functions or [factory, args, options] entries';
}

/**
 * Routes (and nested groups) under a path prefix with shared middleware. `routes` is a live
 * list: push onto it after construction to nest more, up to `app.ready()`.
 *
 * @example
 * const admin = new Group({ path: '/admin', middleware: [requireAdmin], security: [{ bearerAuth: [] }], routes: [statsRoute] });
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
  /** The route options its routes inherit, as the route options table checked them (`middleware` as entries). */
  readonly inherited: Readonly<Omit<InheritedRouteOptions, 'middleware'>> & { readonly middleware?: readonly MiddlewareEntry[] };

  constructor(options: GroupOptions) {
    if (typeof options?.path !== 'string') throw new TernTypeError('TERN_INVALID_ARGUMENT', 'Group needs a string path.');
    if (options.app !== undefined && typeof options.app !== 'function') {
      throw new TernTypeError('TERN_INVALID_ARGUMENT', `Group '${options.path}': app must be a Node request listener function.`);
    }
    this.inherited = checkContainerOptions(`Group '${options.path}'`, options, OWN_OPTIONS, { middleware: middlewareEntries }) as Group['inherited'];
    this.path = options.path;
    this.routes = options.routes ?? [];
    this.middleware = options.middleware ?? [];
    this.app = options.app;
    this.excludeFromSchema = this.inherited.excludeFromSchema ?? false;
  }
}
