import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { MakeConfig } from './config';
import { controllersProvider } from './controllers/scanner';
import { AppAlreadyReadyError, TernTypeError, UrlGenerationError } from './errors';
import { MUTE_ERROR_REPORTS } from './errors/mute-reports';
import type { OpenAPIConfig } from './openapi/config';
import type { ExceptionHandler } from './pipeline/exceptions';
import type { ResponseHook } from './pipeline/observe';
import type { Serving } from './pipeline/assemble';
import { RouteDeclarer, type Declaration } from './routing/router';
import type { CompiledRoute } from './routing/compile';
import type { RouteInfo } from './routing/route-info';
import type { Middleware } from './routing/types';
import { buildUrl } from './routing/url';
import { ServerRunner, type CloseHook } from './lifecycle/server-runner';
import { injectRequest, type InjectOptions, type InjectResponse } from './testing/inject';
import type { ModelCompiler } from './validation/model-compiler';
import type { TernStore } from './store/store';
import type { RegisterControllersOptions, TernAppOptions } from './app-options';
import { announceFirstReady } from './lifecycle/first-ready';
import { takeUpgrade } from './realtime/serve';
import { answerFailedStartup, appParts, compileApp, compileRoutes, controllerScan, runStartupHooks, type AppParts, type StartupHook } from './app-compile';
import { mountAssets } from './middleware/asset-manifest';
export type { TernAppOptions, RegisterControllersOptions } from './app-options';
export type { CloseHook } from './lifecycle/server-runner';
export type { StartupHook } from './app-compile';

/**
 * Something that contributes declarations when the app compiles (controllers, file routes,
 * configuration-driven routes). `provide` runs in `ready()`; a throw fails startup.
 */
export interface RouteProvider {
  provide(app: TernApp): Declaration[];
}

/**
 * A Tern application: declare routes, then `listen()` (or `inject()` in tests). Every route is
 * compiled once, in `ready()`; requests only run the compiled table.
 *
 * @example
 * const app = new TernApp({ config: new MakeConfig({ debug: true }) });
 * app.get('/users/{id:int}', async (req, res, { id }) => ({ id }));
 * await app.listen({ port: 3000 });
 */
export class TernApp extends RouteDeclarer {
  readonly config: MakeConfig;
  readonly openapiConfig: OpenAPIConfig;
  /** Compiles request models at `ready()` and describes them in the document. */
  readonly modelCompiler: ModelCompiler;
  /**
   * The app's store (`new TernApp({ store })`, default `memoryStore()`): rate limits and sessions
   * live there; `app.close()` closes it. A readiness probe can ask it: `await app.store.ping()`.
   */
  readonly store: TernStore;

  /** Options normalised, and the middleware, hooks and exception handlers `ready()` compiles in. */
  private readonly parts: AppParts;
  private readonly providers: RouteProvider[] = [];
  private readyPromise?: Promise<void>;
  /** The compiled app; set only once startup fully succeeded. */
  private compiled?: Serving;
  private readonly runner: ServerRunner;

  constructor(options: TernAppOptions = {}) {
    super();
    this.parts = appParts(options);
    ({ config: this.config, openapiConfig: this.openapiConfig, modelCompiler: this.modelCompiler, store: this.store } = this.parts);
    this.runner = new ServerRunner(options.server ?? {}, (what, err) => this.parts.exceptions.reportFailure(what, err));
    // Registered first, so it runs after every onClose hook the app adds (they may still use it).
    this.runner.onClose(() => this.store.close());
  }

  /** `checkContract` mutes reports of unexpected errors while it shrinks a failure it reported once. */
  [MUTE_ERROR_REPORTS](muted: boolean): void {
    this.parts.exceptions.muted = muted;
  }

  protected override beforeDeclare(what: string): void {
    if (this.readyPromise) throw new AppAlreadyReadyError(what);
  }

  /**
   * Adds middleware that runs for every request, unmatched ones included, in the order added
   * (first added is outermost). `req.route` tells it which route matched, if any.
   */
  addMiddleware(middleware: Middleware): this {
    return this.collect(this.parts.appMiddleware, middleware, 'add middleware', 'addMiddleware expects an async (req, res, next) function.');
  }

  /**
   * Handles errors by status (the framework's own 404/405/422… and HTTPExceptions with it; `500`
   * catches every other error) or by class (instances and subclasses; checked first).
   *
   * @example
   * app.addExceptionHandler(404, async (req, res) => res.json({ message: `Nothing at ${req.url.path}` }, 404));
   * app.addExceptionHandler(NotFoundInDb, async (req, res, exc) => res.json({ message: exc.message }, 404));
   */
  addExceptionHandler<E extends Error>(statusOrErrorClass: number | (abstract new (...args: never[]) => E), handler: ExceptionHandler<E>): this {
    this.parts.exceptions.add(statusOrErrorClass, handler);
    return this;
  }

  /** Adds a source of declarations compiled in `ready()` (used by controllers and the file router). */
  addRouteProvider(provider: RouteProvider): this {
    return this.collect(this.providers, provider, 'add a route provider');
  }

  /**
   * Registers annotated controllers: classes (built with `new C()` or `resolve`) or instances.
   * At `ready()` each becomes a router of ordinary routes; a mistake fails `ready()` with a
   * `TernError` saying how to fix it (docs/controllers.md).
   *
   * @example
   * app.registerControllers([new UserController(db), HealthController]);
   * app.registerControllers([UserController], { resolve: (Class) => container.resolve(Class) });
   */
  registerControllers(controllers: Array<Function | object>, options: RegisterControllersOptions = {}): this {
    return this.addRouteProvider(controllersProvider(controllers, controllerScan(this.parts, options)));
  }

  /**
   * Compiles every declaration once: prefixes, names, conflicts, converters, middleware chains,
   * validators. Idempotent; `listen`, `inject`, `handler` and `upgradeHandler` call it when needed.
   */
  ready(): Promise<void> {
    // What it does, in order: app-compile.ts. Published only once all of it succeeded.
    return (this.readyPromise ??= Promise.resolve().then(async () => {
      const routes = this.compileRoutes();
      const compiled = compileApp(routes, this.parts);
      // Fingerprinted folders are known to assetUrl() while the app lives, with their mount prefixes.
      const releaseAssets = mountAssets(routes);
      try {
        await runStartupHooks(this.parts.startupHooks);
      } catch (err) {
        releaseAssets();
        throw err;
      }
      this.runner.onClose(releaseAssets);
      this.compiled = compiled;
      announceFirstReady();
    }));
  }

  /**
   * Runs `hook` inside `ready()` (so before `listen()` accepts or `inject()` sends the first
   * request), after every route compiled, hooks one after the other in the order added: to open a
   * database, run migrations, warm a cache. A hook that throws or rejects fails `ready()` and
   * `listen()` with `TERN_STARTUP_FAILED` naming it (its function name, else its position); the
   * hooks after it do not run. `onClose` hooks release what the hooks opened: call `app.close()`
   * after a failed start too.
   *
   * @example
   * const db = new PGlite(process.env.DATABASE_DIR);
   * app.onStartup(async function migrate() { await db.exec(schema); });
   * app.onClose(() => db.close());
   * await app.listen({ port: 3000 }); // rejects with "onStartup hook 'migrate' failed: …"
   */
  onStartup(hook: StartupHook): this {
    return this.collect(this.parts.startupHooks, hook, 'add a startup hook', 'onStartup expects an async () => {} function.');
  }

  /**
   * Runs `hook` once every route is compiled, inside `ready()`, with the app's own routes; a
   * throw fails `ready()`. For plugins that check or precompute per route at startup.
   *
   * @example
   * app.onReady((routes) => {
   *   for (const route of routes) if (!route.tags.length) throw new Error(`${route.source} has no tags`);
   * });
   */
  onReady(hook: (routes: readonly RouteInfo[]) => void): this {
    return this.collect(this.parts.readyHooks, hook, 'add a ready hook');
  }

  /** Adds `item` to `list` before `ready()` (`doing` names the call if it is too late); with `expects`, `item` must be a function. */
  private collect<T>(list: T[], item: T, doing: string, expects?: string): this {
    this.beforeDeclare(doing);
    if (expects !== undefined && typeof item !== 'function') throw new TernTypeError('TERN_INVALID_HANDLER', expects);
    list.push(item);
    return this;
  }

  private compileRoutes(): CompiledRoute[] {
    return compileRoutes([...this.declarations, ...this.providers.flatMap((provider) => provider.provide(this))], this.parts);
  }

  /**
   * Every declared route (Tern's own docs routes excluded) as a read-only `RouteInfo`: its
   * composed `rawPath`, `methods`, full `name`, `tags`, `options`. Before `ready()` it compiles
   * the declarations to answer.
   */
  getAllRoutes(): RouteInfo[] {
    return (this.compiled?.table.routes ?? this.compileRoutes()).filter((route) => !route.internal).map((route) => route.info);
  }

  /**
   * The path of a named route; path params go through their converter, the rest become the query.
   *
   * @example
   * app.urlFor('v1.users.get', { id: 7, expand: 'posts' }); // '/api/v1/users/7?expand=posts'
   */
  urlFor(name: string, params: Record<string, unknown> = {}): string {
    const route = this.compiled ? this.compiled.table.byName.get(name) : this.compileRoutes().find((r) => r.name === name && !r.internal);
    if (!route) throw new UrlGenerationError(`urlFor: no route is named '${name}'.`);
    return buildUrl(route, params);
  }

  /**
   * A plain Node request listener; on its first request it readies the app if needed.
   *
   * @example
   * http.createServer(app.handler).listen(3000);
   */
  readonly handler = (rawReq: IncomingMessage, rawRes: ServerResponse): void => {
    if (this.compiled) return this.compiled.pipeline.handle(rawReq, rawRes);
    // Once ready() resolved the app is compiled: this call takes the branch above.
    this.ready().then(() => this.handler(rawReq, rawRes), (err) => answerFailedStartup(this.parts, err, rawReq, rawRes));
  };

  /**
   * A plain Node `upgrade` listener, the counterpart of `handler` for a server of your own: it
   * serves the app's socket routes as `listen()` does (the same pipeline before any 101, the same
   * limits and rooms; `app.close()` closes these sockets with 1001 too). Any other upgrade request
   * is answered on its connection as plain HTTP, which then closes. On its first request it
   * readies the app if needed.
   *
   * @example
   * const server = http.createServer(app.handler);
   * server.on('upgrade', app.upgradeHandler);
   * server.listen(3000);
   */
  readonly upgradeHandler = (raw: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const res = takeUpgrade(raw, socket, head, this.parts.sockets);
    if (this.compiled) return this.compiled.pipeline.handle(raw, res);
    // The connection waits, unread, while the app gets ready; a failed startup is answered on it.
    this.ready().then(() => (this.compiled as Serving).pipeline.handle(raw, res), (err) => answerFailedStartup(this.parts, err, raw, res));
  };

  /**
   * Starts an HTTP server; resolves to the bound address (e.g. `http://127.0.0.1:3000`).
   *
   * @example
   * const address = await app.listen({ port: 3000, host: '0.0.0.0' });
   */
  async listen(options: { port?: number; host?: string } = {}): Promise<string> {
    await this.ready();
    const compiled = this.compiled as Serving;
    return this.runner.listen(
      {
        listener: this.handler,
        // The server refuses a body no route could take before routing (`Expect: 100-continue`); each route checks its own.
        bodyLimit: compiled.largestBodyLimit,
        // Only an app with socket routes takes upgrades; others leave them to Node (served as plain HTTP).
        upgrade: compiled.pipeline.upgrade ? this.upgradeHandler : undefined,
      },
      options,
    );
  }

  /** The server `listen()` started, if any. */
  get server(): Server | undefined {
    return this.runner.server;
  }

  /**
   * Stops accepting, ends event streams, lets in-flight requests finish (`Connection: close`)
   * for up to `server.closeTimeout` (10 s), destroys what is left (`req.signal` aborts), runs the
   * `onClose` hooks and resolves; concurrent calls share one shutdown (docs/lifecycle.md). On a
   * server of your own (`handler`, `upgradeHandler`) it ends the app's event streams and sockets
   * within the same timeout; closing that server is yours.
   *
   * @example
   * process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
   */
  close(): Promise<void> {
    // Sockets never end on their own: the pipeline's endStreams sends each a close frame with 1001
    // (going away), and the close timeout bounds the closing handshakes, whichever server took them.
    return this.runner.close(this.compiled?.pipeline).finally(() => this.parts.sockets.reopen());
  }

  /**
   * Sends `data` to every socket in `room` (`socket.join(room)`), in every process sharing the
   * app's `store`; a string goes as a text frame, a Buffer as a binary one, anything else as JSON.
   *
   * @example
   * app.post('/rooms/{id:int}/notices', async (req) => {
   *   await app.publish(`room:${req.pathParams.id}`, { notice: 'maintenance at 22:00' });
   *   return { sent: true };
   * });
   */
  publish(room: string, data: unknown): Promise<void> {
    return this.parts.sockets.rooms.publish(room, data);
  }

  /**
   * Runs `hook` once the server has stopped (at the first `close()`, last registered first): to
   * release pools, queues, timers. A throwing hook is reported; the others still run.
   *
   * @example
   * const pool = new Pool();
   * app.onClose(() => pool.end());
   */
  onClose(hook: CloseHook): this {
    this.runner.onClose(hook);
    return this;
  }

  /**
   * Runs `hook` after every response is written or cut off (errors, 404s, mounted apps too) with
   * `{ statusCode, durationMs, route, aborted }`: access logs, metrics. Declared before `ready()`;
   * an app without hooks pays nothing per request.
   *
   * @example
   * app.onResponse((req, res, { statusCode, durationMs, route }) => {
   *   log.info({ method: req.method, route: route?.rawPath ?? req.url.path, statusCode, durationMs });
   * });
   */
  onResponse(hook: ResponseHook): this {
    return this.collect(this.parts.responseHooks, hook, 'add a response hook', 'onResponse expects a (req, res, info) function.');
  }

  /**
   * Sends a request through the app in memory, as a client would see it; readies the app first.
   *
   * @example
   * const response = await app.inject({ method: 'GET', url: '/users/7' });
   * expect(response.json()).toEqual({ id: 7 });
   */
  async inject(options: InjectOptions | string): Promise<InjectResponse> {
    await this.ready();
    return injectRequest(this.handler, options);
  }
}
