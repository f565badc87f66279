import { RouteDeclarer } from './declarer';
import type { AnyRoutes } from './routes';
import type { Middleware } from './types';

export interface RouterOptions {
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

/**
 * A reusable set of routes under a prefix. Routers nest with `mountRouter`, and one router may be
 * mounted under several parents (e.g. a `users` router under `/api/v1` and `/api/v2`).
 *
 * @example
 * const users = new Router({ prefix: '/users', tags: ['users'], name: 'users' });
 * users.get('/{id:int}', { name: 'get' }, async (req, res, { id }) => ({ id }));
 * const v1 = new Router({ prefix: '/api/v1', name: 'v1' });
 * v1.mountRouter(users);
 * app.mountRouter(v1); // GET /api/v1/users/{id:int}, urlFor('v1.users.get', { id: 1 })
 */
export class Router extends RouteDeclarer {
  readonly prefix: string;
  readonly tags: string[];
  readonly excludeFromSchema: boolean;
  readonly name?: string;
  readonly middleware: Middleware[];

  constructor(options: RouterOptions = {}) {
    super();
    this.prefix = options.prefix ?? '';
    this.tags = options.tags ?? [];
    this.excludeFromSchema = options.excludeFromSchema ?? false;
    this.name = options.name;
    this.middleware = options.middleware ?? [];
    for (const route of options.routes ?? []) this.addRoute(route);
  }
}
