import { RouteDeclarer } from './declarer';
import { checkContainerOptions, type OwnOptionCheck } from './route-options';
import type { AnyRoutes } from './routes';
import type { InheritedRouteOptions, Middleware } from './types';

/**
 * A router's own options (`prefix`, `routes`, `name`) and the route options every route inside
 * inherits (`InheritedRouteOptions`: tags, middleware, security, limits, …), each combined with
 * the route's own value by its row of the route options table.
 */
export interface RouterOptions extends InheritedRouteOptions {
  /** Prefix of every route inside; composes with the prefixes of the containers it is mounted in. */
  prefix?: string;
  routes?: AnyRoutes[];
  /** Tags put before each route's own tags. */
  tags?: string[];
  excludeFromSchema?: boolean;
  /** Route names inside become `name.routeName`. */
  name?: string;
  /** Runs for every route inside, before the routes' own middleware. */
  middleware?: Middleware[];
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
