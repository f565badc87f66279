import { MakeConfig, type ServerTimeouts } from './config';
import { TernTypeError } from './errors';
import { nearestHint } from './errors/nearest-name';
import type { ControllerResolver } from './controllers/scanner';
import type { ProxyHeaders, TrustProxy } from './http/proxy';
import type { OpenAPIOptions } from './openapi/config';
import type { LogOptions, TernLogger } from './logging/logger';
import type { ErrorLogger } from './pipeline/exceptions';
import type { ErrorPages } from './pipeline/error-pages';
import type { TrailingSlash } from './pipeline/trailing-slash';
import type { PageHeadersOptions } from './http/page-headers';
import type { ModelCompiler } from './validation/model-compiler';
import type { WebSocketOptions } from './realtime/limits';
import type { TernStore } from './store/store';
import { APP_ROUTE_OPTION_NAMES, checkContainerOptions } from './routing/route-options';
import type { AppRouteOptions, InheritedRouteOptions } from './routing/types';

/**
 * What `new TernApp()` takes: the app's own settings, and the route options every route of the
 * app inherits (`AppRouteOptions`: `security`, `responses`, `rateLimit`), the outermost level of the route
 * options table's inheritance (app → routers/groups → controller → route).
 *
 * @example
 * new TernApp({ prefix: '/api', security: [{ bearerAuth: [] }] }); // every route secured unless it says `security: []`
 */
export interface TernAppOptions extends AppRouteOptions {
  config?: MakeConfig;
  /**
   * A path put before every route of the app: plain routes, routers, controllers, file routes,
   * mounted apps, static files, and Tern's own OpenAPI document and docs page. The document's
   * paths, `urlFor` and `getAllRoutes()` carry it. A static path (no `{parameters}`); default none.
   *
   * @example
   * const app = new TernApp({ prefix: '/api' });
   * app.get('/users', listUsers, { name: 'users' });   // GET /api/users; urlFor('users') === '/api/users'
   * // the document at /api/openapi.json, Swagger UI at /api/docs
   */
  prefix?: string;
  /** OpenAPI document and docs pages; see OpenAPIOptions. */
  openapi?: OpenAPIOptions;
  /**
   * A pino-compatible logger (or `true` for a default pino, which must then be installed): one
   * structured line per completed request, failures with the same request id, `req.log`. Or a
   * console-shaped `{ error }` that gets failures (500s) only; `false` silences them. Default
   * `console`, failures only. See docs/observability.md.
   *
   * @example
   * import pino from 'pino';
   * new TernApp({ logger: pino(), log: { redact: ['body.password'] } });
   */
  logger?: ErrorLogger | TernLogger | true;
  /** What Tern writes to a structured `logger`: the per-request line's level (or `false`), the level, redacted paths. */
  log?: LogOptions;
  /**
   * The header an incoming request id is adopted from (when sane: 1–128 letters, digits or
   * `-_.:/+=@`) and echoed on. Unset, ids are always generated (a client never chooses one) and
   * echoed on `X-Request-Id`; name the header your proxy sets to share its ids. Setting it (or
   * giving a structured `logger`) makes every request carry an id; `false` generates ids and
   * echoes none.
   *
   * @example
   * // nginx in front: proxy_set_header X-Request-Id $request_id;
   * new TernApp({ logger: pino(), requestIdHeader: 'X-Request-Id' });
   */
  requestIdHeader?: string | false;
  /** Timeouts for the server `listen()` starts, and `closeTimeout` for `close()`. */
  server?: ServerTimeouts;
  /**
   * Turns request models into validators and describes them for the document. Default:
   * `defaultModelCompiler` (class-validator and class-transformer, compiled to native checks).
   */
  modelCompiler?: ModelCompiler;
  /**
   * Which proxies in front of the app may say who the client is (`X-Forwarded-For`, `-Proto`,
   * `-Host`, or `Forwarded`: see `proxyHeaders`), for `req.ip`, `req.protocol` and `req.host`. Default `false`: nobody. See
   * docs/proxies.md.
   */
  trustProxy?: TrustProxy;
  /**
   * Which headers the trusted proxies speak: `'x-forwarded'` (default: `X-Forwarded-For`,
   * `-Proto`, `-Host`) or `'forwarded'` (the RFC 7239 `Forwarded` header). Tern reads that family
   * only and ignores the other, which a client could have sent through a proxy that does not
   * touch it. Pick the one your proxy sets. Has no effect without `trustProxy`. See docs/proxies.md.
   *
   * @example
   * // nginx in front sends `Forwarded: for=...;proto=...;host=...`
   * new TernApp({ trustProxy: 'loopback', proxyHeaders: 'forwarded' });
   */
  proxyHeaders?: ProxyHeaders;
  /**
   * Builds controller classes given to `registerControllers` (a dependency container's
   * `resolve`); default `new C()`. `registerControllers(list, { resolve })` overrides it.
   */
  resolve?: ControllerResolver;
  /**
   * HTML error pages for browsers: a template per error status, and `default` for the others.
   * A request gets one when the route is a page (a `render()` handler, a `formTemplate`, `produces`
   * text/html) or no route matched, and its `Accept` prefers HTML; API routes and other clients
   * keep `application/problem+json`. Templates render with `{ status, title, detail, errors, path }`.
   * Exception handlers for a status still come first. See docs/file-router.md.
   *
   * @example
   * new TernApp({ errorPages: { 404: '404.html', default: 'error.html' } });
   */
  errorPages?: ErrorPages;
  /**
   * A path that misses only by its trailing slash, for every route: `'strict'` (default) is a
   * 404, `'ignore'` serves the route at both, `'redirect'` answers 308 to the route's own form
   * with the query string kept (never to another host).
   *
   * @example
   * new TernApp({ trailingSlash: 'redirect' }); // GET /about/?x=1 → 308 Location: /about?x=1
   */
  trailingSlash?: TrailingSlash;
  /**
   * Limits of every socket route (`app.ws`), on by default: largest frame (64 KiB), idle timeout
   * with pings (60 s), send buffer per socket (1 MiB), sockets per process (10,000). See
   * docs/websockets.md.
   *
   * @example
   * new TernApp({ websocket: { maxPayload: 16 * 1024, maxConnections: 2_000 } });
   */
  websocket?: WebSocketOptions;
  /**
   * The security headers of every HTML response (`res.render()`, `res.html()`: pages, error pages,
   * re-rendered forms): `X-Content-Type-Options: nosniff` and anti-framing (CSP
   * `frame-ancestors 'none'` with `X-Frame-Options: DENY`) by default. A header the app set
   * itself is kept. `false` sends none. See docs/security.md.
   *
   * @example
   * new TernApp({ pageHeaders: { frameAncestors: ["'self'"] } });   // CSP frame-ancestors 'self', X-Frame-Options: SAMEORIGIN
   */
  pageHeaders?: PageHeadersOptions | false;
  /**
   * Where rate-limit counters, sessions and realtime rooms live: `memoryStore()` (default: this process only) or
   * `redisStore({ url })`, shared by every worker and machine using the same Redis. `app.close()`
   * closes it. See docs/store.md.
   *
   * @example
   * new TernApp({ store: redisStore({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' }) });
   */
  store?: TernStore;
}

/** Options of `registerControllers`. */
export interface RegisterControllersOptions {
  /** Builds each controller class once, at startup (default: the app's `resolve`, else `new C()`). */
  resolve?: ControllerResolver;
}


/** What is wrong with one app option's value (or undefined); the option's own module checks it further when the app is built. */
type AppOptionCheck = (value: unknown) => string | undefined;

const object: AppOptionCheck = (value) => (typeof value === 'object' && value !== null ? undefined : 'must be an object');
const fn: AppOptionCheck = (value) => (typeof value === 'function' ? undefined : 'must be a function');
/** Checked where the option is used (`appParts`, `setUpLogging`, `compileTrustProxy`, …) with its own message. */
const checkedWhereUsed = null;

/**
 * The table of `new TernApp()`'s own options: every key has a row, so an option added to
 * `TernAppOptions` without one does not compile. The route options the app gives its routes are
 * the route options table's rows marked `app` (`APP_ROUTE_OPTION_NAMES`); any other key
 * (`trailingSlashes`) fails construction naming the nearest known one.
 */
const APP_OPTIONS: { readonly [K in Exclude<keyof TernAppOptions, keyof AppRouteOptions>]-?: AppOptionCheck | typeof checkedWhereUsed } = {
  config: (value) => (value instanceof MakeConfig ? undefined : 'must be a MakeConfig: new TernApp({ config: new MakeConfig({ ... }) })'),
  prefix: checkedWhereUsed,
  openapi: object,
  logger: checkedWhereUsed,
  log: object,
  requestIdHeader: checkedWhereUsed,
  server: object,
  modelCompiler: object,
  trustProxy: checkedWhereUsed,
  proxyHeaders: checkedWhereUsed,
  resolve: fn,
  errorPages: checkedWhereUsed,
  trailingSlash: checkedWhereUsed,
  websocket: object,
  pageHeaders: checkedWhereUsed,
  store: checkedWhereUsed,
};

const APP_OPTION_NAMES = [...Object.keys(APP_OPTIONS), ...APP_ROUTE_OPTION_NAMES];

/**
 * Checks `new TernApp(options)` against the table: an unknown key (`trailingSlashes`) or a value of
 * the wrong kind throws `TERN_INVALID_ARGUMENT` naming it (and the nearest known key); the route
 * options the app gives its routes are checked by their rows (`TERN_INVALID_ROUTE_OPTION`) and
 * returned, for `inheritOptions`.
 *
 * @example
 * checkAppOptions({ trailingSlashes: 'ignore' });
 * // throws: new TernApp(options): unknown option 'trailingSlashes'. Did you mean 'trailingSlash'? …
 */
export function checkAppOptions(options: TernAppOptions): Readonly<InheritedRouteOptions> {
  if (typeof options !== 'object' || options === null) throw new TernTypeError('TERN_INVALID_ARGUMENT', 'new TernApp(options): options must be an object.');
  const routeOptions: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) {
    if ((APP_ROUTE_OPTION_NAMES as readonly string[]).includes(key)) {
      routeOptions[key] = value;
      continue;
    }
    if (!Object.prototype.hasOwnProperty.call(APP_OPTIONS, key)) {
      throw new TernTypeError(
        'TERN_INVALID_ARGUMENT',
        `new TernApp(options): unknown option '${key}'.${nearestHint(key, APP_OPTION_NAMES)} Its options are ${APP_OPTION_NAMES.join(', ')}.`,
      );
    }
    const mistake = value === undefined ? undefined : APP_OPTIONS[key as keyof typeof APP_OPTIONS]?.(value);
    if (mistake) throw new TernTypeError('TERN_INVALID_ARGUMENT', `new TernApp(options): ${key} ${mistake}.`);
  }
  return checkContainerOptions('new TernApp(options)', routeOptions, {}, {}, APP_ROUTE_OPTION_NAMES);
}
