import { TernError } from '../errors';
import { RouteDeclarer } from './declarer';
import { optionMistake, type RouteOptionName } from './route-options';
import type { AnyRoutes } from './routes';
import type { Middleware, RateLimitOptions } from './types';

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
  /** The `rateLimit` of every route inside that sets none (each route counts on its own). */
  rateLimit?: RateLimitOptions | false;
}

/** What a router's options are: its own, and route options its routes inherit, checked by their table rows. */
const ROUTER_OPTIONS: Record<keyof RouterOptions, 'own' | 'route'> = {
  prefix: 'own', routes: 'own', tags: 'route', excludeFromSchema: 'route', name: 'route', middleware: 'route', rateLimit: 'route',
};

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
  readonly rateLimit?: RateLimitOptions | false;

  constructor(options: RouterOptions = {}) {
    super();
    for (const [key, value] of Object.entries(options)) {
      const kind = Object.prototype.hasOwnProperty.call(ROUTER_OPTIONS, key) ? ROUTER_OPTIONS[key as keyof RouterOptions] : undefined;
      const mistake = kind === undefined ? `unknown option '${key}'.` : kind === 'route' && value !== undefined ? optionMistake(key as RouteOptionName, value) : undefined;
      if (mistake) throw new TernError('TERN_INVALID_ROUTE_OPTION', `Router '${options.prefix ?? ''}': ${mistake}`);
    }
    this.prefix = options.prefix ?? '';
    this.tags = options.tags ?? [];
    this.excludeFromSchema = options.excludeFromSchema ?? false;
    this.name = options.name;
    this.middleware = options.middleware ?? [];
    this.rateLimit = options.rateLimit;
    for (const route of options.routes ?? []) this.addRoute(route);
  }
}
