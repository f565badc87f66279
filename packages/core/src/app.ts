import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MakeConfig, type ServerTimeouts } from './config';
import { scanControllers, type ControllerResolver } from './controllers/scanner';
import { AppAlreadyReadyError, TernError, TernRangeError, TernTypeError, UrlGenerationError } from './errors';
import { compileTrustProxy, type TrustFunction, type TrustProxy } from './http/proxy';
import { closeServer, createHttpServer } from './http/server';
import { trustingRequestClass } from './http/trusted-request';
import { OpenAPIConfig, type OpenAPIOptions } from './openapi/config';
import { openapiDeclarations } from './openapi/routes';
import { validateSecurityRequirements } from './openapi/security';
import { ExceptionHandlers, type ErrorLogger, type ExceptionHandler } from './pipeline/exceptions';
import { responseObserver, type ResponseHook } from './pipeline/observe';
import { RequestPipeline } from './pipeline/pipeline';
import { serveRoutes } from './pipeline/serve';
import { RouteDeclarer, type Declaration } from './routing/declarer';
import { compileDeclarations, type CompiledRoute } from './routing/compile';
import type { RouteInfo } from './routing/route-info';
import { RouteTable } from './routing/table';
import type { Middleware } from './routing/types';
import { buildUrl } from './routing/url';
import { injectRequest, type InjectOptions, type InjectResponse } from './testing/inject';
import { defaultModelCompiler } from './validation/class-validator/compiler';
import { findDuplicateLibraries } from './validation/duplicates';
import type { ModelClass, ModelCompiler } from './validation/model-compiler';
import { modelRulesCheck } from './validation/model-rules';

/**
 * Something that contributes declarations when the app compiles (controllers, file routes,
 * configuration-driven routes). `provide` runs in `ready()`; a throw fails startup.
 */
export interface RouteProvider {
  provide(app: TernApp): Declaration[];
}

export interface TernAppOptions {
  config?: MakeConfig;
  /** OpenAPI document and docs pages; see OpenAPIOptions. */
  openapi?: OpenAPIOptions;
  /** Where unexpected errors (500s) are reported; `false` silences them. Default `console`. */
  logger?: ErrorLogger;
  /** Timeouts for the server `listen()` starts, and `closeTimeout` for `close()`. */
  server?: ServerTimeouts;
  /**
   * Turns request models into validators and describes them for the document. Default:
   * `defaultModelCompiler` (class-validator and class-transformer, compiled to native checks).
   */
  modelCompiler?: ModelCompiler;
  /**
   * Which proxies in front of the app may say who the client is (`X-Forwarded-For`, `-Proto`,
   * `-Host`), for `req.ip`, `req.protocol` and `req.host`. Default `false`: nobody. See
   * docs/proxies.md.
   */
  trustProxy?: TrustProxy;
  /**
   * Builds controller classes given to `registerControllers` (a dependency container's
   * `resolve`); default `new C()`. `registerControllers(list, { resolve })` overrides it.
   */
  resolve?: ControllerResolver;
}

/** Options of `registerControllers`. */
export interface RegisterControllersOptions {
  /** Builds each controller class once, at startup (default: the app's `resolve`, else `new C()`). */
  resolve?: ControllerResolver;
}

/** A function `app.onClose` runs once the server has stopped; may return a promise. */
export type CloseHook = () => void | Promise<void>;

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
  /** The server `listen()` started, if any. */
  server?: Server;

  private readonly appMiddleware: Middleware[] = [];
  private readonly providers: RouteProvider[] = [];
  private readonly readyHooks: Array<(routes: readonly RouteInfo[]) => void> = [];
  private readonly exceptions: ExceptionHandlers;
  private readonly serverTimeouts: ServerTimeouts;
  private readonly logger: ErrorLogger;
  private readonly resolveController?: ControllerResolver;
  /** Warns about (or, with strictModels, refuses) request models without rules; one per app. */
  private readonly checkModel: (model: Function, where: string) => void;
  private readyPromise?: Promise<void>;
  /** The compiled app; set only once startup fully succeeded. */
  private compiled?: { table: RouteTable; pipeline: RequestPipeline };
  private shutdown?: Promise<void>;
  private readonly closeHooks: CloseHook[] = [];
  private readonly responseHooks: ResponseHook[] = [];
  private readonly trustProxy?: TrustFunction;
  private closeHooksRan = false;

  constructor(options: TernAppOptions = {}) {
    super();
    this.config = options.config ?? new MakeConfig();
    this.openapiConfig = new OpenAPIConfig(options.openapi);
    this.modelCompiler = options.modelCompiler ?? defaultModelCompiler;
    this.exceptions = new ExceptionHandlers(options.logger ?? console, this.config.debug);
    this.serverTimeouts = options.server ?? {};
    this.logger = options.logger ?? console;
    this.trustProxy = compileTrustProxy(options.trustProxy);
    checkCloseTimeout(this.serverTimeouts.closeTimeout);
    this.resolveController = options.resolve;
    const logger = this.logger;
    this.checkModel = modelRulesCheck({
      strict: this.config.strictModels,
      warn: logger === false ? undefined : (message) => ('warn' in logger && typeof logger.warn === 'function' ? logger.warn(message) : logger.error(message)),
    });
  }

  protected override beforeDeclare(what: string): void {
    if (this.readyPromise) throw new AppAlreadyReadyError(what);
  }

  /**
   * Adds middleware that runs for every request, unmatched ones included, in the order added
   * (first added is outermost). `req.route` tells it which route matched, if any.
   */
  addMiddleware(middleware: Middleware): this {
    this.beforeDeclare('add middleware');
    if (typeof middleware !== 'function') throw new TernTypeError('TERN_INVALID_HANDLER', 'addMiddleware expects an async (req, res, next) function.');
    this.appMiddleware.push(middleware);
    return this;
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
    if (typeof handler !== 'function') throw new TernTypeError('TERN_INVALID_HANDLER', 'addExceptionHandler expects a handler function.');
    if (typeof statusOrErrorClass === 'number') {
      if (!Number.isInteger(statusOrErrorClass) || statusOrErrorClass < 400 || statusOrErrorClass > 599) {
        throw new TernRangeError('TERN_INVALID_STATUS', `addExceptionHandler: ${statusOrErrorClass} is not an error status code.`);
      }
      this.exceptions.addForStatus(statusOrErrorClass, handler);
    } else if (typeof statusOrErrorClass === 'function') {
      this.exceptions.addForClass(statusOrErrorClass, handler);
    } else {
      throw new TernTypeError('TERN_INVALID_ARGUMENT', 'addExceptionHandler expects a status code or an error class.');
    }
    return this;
  }

  /** Adds a source of declarations compiled in `ready()` (used by controllers and the file router). */
  addRouteProvider(provider: RouteProvider): this {
    this.beforeDeclare('add a route provider');
    this.providers.push(provider);
    return this;
  }

  /**
   * Registers annotated controllers. A class is built with `new C()`; an instance is used as is
   * (build it yourself to hand it dependencies). At `ready()` each controller becomes a router of
   * ordinary routes; a class without `@Controller`, an undecorated method parameter or a DTO that
   * reflects as `Object` makes `ready()` throw a `TernError` saying how to fix it.
   *
   * @example
   * @Controller('/users', { tags: ['users'], name: 'users' })
   * class UserController {
   *   constructor(private readonly db: Db) {}
   *   @Get('/{id:int}', { name: 'get' })
   *   async getUser(@Param('id') id: number) { return this.db.user(id); }
   * }
   * app.registerControllers([new UserController(db), HealthController]);
   * // or let a container build them (once, at startup):
   * app.registerControllers([UserController], { resolve: (Class) => container.resolve(Class) });
   */
  registerControllers(controllers: Array<Function | object>, options: RegisterControllersOptions = {}): this {
    const list = Array.isArray(controllers) ? [...controllers] : controllers;
    if (options.resolve !== undefined && typeof options.resolve !== 'function') {
      throw new TernTypeError('TERN_INVALID_ARGUMENT', 'registerControllers: resolve must be a function (Class) => instance.');
    }
    let scanned: ReturnType<typeof scanControllers> | undefined;
    const scan = () =>
      scanControllers(list, {
        resolve: options.resolve ?? this.resolveController,
        forbidUnknownProperties: this.config.forbidUnknownProperties,
        checkModel: this.checkModel,
        compiler: this.modelCompiler,
      });
    // Scanned once: getAllRoutes() before ready() must not build the controllers twice.
    return this.addRouteProvider({ provide: () => (scanned ??= scan()) });
  }

  /**
   * Compiles every declaration once: prefixes, names, conflicts, converters, middleware chains,
   * validators. Idempotent; `listen`, `inject` and `handler` call it when needed.
   */
  ready(): Promise<void> {
    return (this.readyPromise ??= Promise.resolve().then(() => this.compile()));
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
    this.beforeDeclare('add a ready hook');
    this.readyHooks.push(hook);
    return this;
  }

  private compile(): void {
    const routes = this.compileRoutes();
    const infos = routes.map((route) => route.info);
    const internal = compileDeclarations(this.internalDeclarations(infos), { internal: true });
    const served = serveRoutes([...routes, ...internal], this.appMiddleware, {
      bodyLimit: this.config.bodyLimit,
      report: (err, req) => this.exceptions.report(err, req.raw),
      compileModel: (model) => this.modelCompiler.compile(model as ModelClass),
      responseFiltering: this.config.responseFiltering,
      validateResponses: this.config.validateResponses,
    });
    // Every model is compiled by now: a second copy of a validation library would make Tern
    // read records the app never wrote. Fail startup rather than accept unchecked data.
    const duplicate = findDuplicateLibraries();
    if (duplicate) throw duplicate;
    const table = new RouteTable(served, { maxParamLength: this.config.maxParamLength, debug: this.config.debug });
    for (const hook of this.readyHooks) hook(infos);
    if (this.config.debug) this.exceptions.note(fallbackReport(infos));
    // Published only now: an app whose startup failed must not serve requests.
    const pipeline = new RequestPipeline(table, this.appMiddleware, this.exceptions, this.config);
    if (this.trustProxy) pipeline.requestClass = trustingRequestClass(this.trustProxy);
    if (this.responseHooks.length > 0) pipeline.observe = responseObserver(this.responseHooks, (err) => this.reportHookError('an onResponse hook', err));
    this.compiled = { table, pipeline };
  }

  /** Tern's own routes (OpenAPI document, docs pages), built from the user's routes. */
  protected internalDeclarations(routes: readonly RouteInfo[]): Declaration[] {
    // Security requirements are checked even when no document is served: a typo fails startup.
    validateSecurityRequirements(routes, this.openapiConfig);
    return openapiDeclarations(routes, this.openapiConfig, { modelCompiler: this.modelCompiler });
  }

  private compileRoutes(): CompiledRoute[] {
    const declarations = [...this.declarations];
    for (const provider of this.providers) declarations.push(...provider.provide(this));
    return compileDeclarations(declarations, {
      modelCompiler: this.modelCompiler,
      forbidUnknownProperties: this.config.forbidUnknownProperties,
      checkModel: this.checkModel,
    });
  }

  /**
   * Every declared route (Tern's own docs routes excluded) as a read-only `RouteInfo`: its
   * composed `rawPath`, `methods`, full `name`, `tags`, `options`. Before `ready()` it compiles
   * the declarations to answer.
   */
  getAllRoutes(): RouteInfo[] {
    const routes = this.compiled ? this.compiled.table.routes : this.compileRoutes();
    return routes.filter((route) => !route.internal).map((route) => route.info);
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
    if (this.compiled) {
      this.compiled.pipeline.handle(rawReq, rawRes);
      return;
    }
    this.ready().then(
      () => (this.compiled as { pipeline: RequestPipeline }).pipeline.handle(rawReq, rawRes),
      (err) => {
        this.exceptions.report(err, rawReq);
        rawRes.statusCode = 500;
        rawRes.end();
      },
    );
  };

  /**
   * Starts an HTTP server; resolves to the bound address (e.g. `http://127.0.0.1:3000`).
   *
   * @example
   * const address = await app.listen({ port: 3000, host: '0.0.0.0' });
   */
  async listen(options: { port?: number; host?: string } = {}): Promise<string> {
    await this.ready();
    if (this.server) throw new TernError('TERN_ALREADY_LISTENING', 'app.listen() was already called.');
    const server = createHttpServer({ listener: this.handler, bodyLimit: this.config.bodyLimit }, this.serverTimeouts);
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 3000, options.host ?? '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    const address = server.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return `http://${host}:${address.port}`;
  }

  /**
   * Lets responses still being sent go out in full, stops accepting connections, closes idle
   * keep-alive sockets, lets in-flight requests finish (they are answered with `Connection:
   * close`) for up to `server.closeTimeout` (default 10 s), then destroys the connections still
   * open (their `req.signal` aborts), runs the `onClose` hooks and resolves. Calls made while
   * closing share the same shutdown. An app that never listened only runs its hooks.
   *
   * @example
   * process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
   */
  close(): Promise<void> {
    return (this.shutdown ??= this.stopServer()
      .then(() => this.runCloseHooks())
      .finally(() => (this.shutdown = undefined)));
  }

  /**
   * Runs `hook` when the app closes, after the server stopped accepting and in-flight requests
   * finished (or the close timeout cut them): to release what the app holds (database pools,
   * queues, timers). Hooks run once, at the first `close()`, last registered first; a throwing
   * hook is reported to the logger and the others still run; `close()` resolves after them.
   *
   * @example
   * const pool = new Pool();
   * app.onClose(() => pool.end());
   */
  onClose(hook: CloseHook): this {
    if (typeof hook !== 'function') throw new TernTypeError('TERN_INVALID_HANDLER', 'onClose expects a function.');
    this.closeHooks.push(hook);
    return this;
  }

  /**
   * Runs `hook` after every response is written (or cut off by a disconnect): errors, 404s and
   * mounted apps included, with `{ statusCode, durationMs, route, aborted }`. For access logs and
   * metrics; it cannot change the response. Declared before `ready()`; an app without hooks pays
   * nothing per request. A throw or rejection is reported and the other hooks still run.
   *
   * @example
   * app.onResponse((req, res, { statusCode, durationMs, route }) => {
   *   log.info({ method: req.method, route: route?.rawPath ?? req.url.path, statusCode, durationMs });
   * });
   */
  onResponse(hook: ResponseHook): this {
    this.beforeDeclare('add a response hook');
    if (typeof hook !== 'function') throw new TernTypeError('TERN_INVALID_HANDLER', 'onResponse expects a (req, res, info) function.');
    this.responseHooks.push(hook);
    return this;
  }

  private async stopServer(): Promise<void> {
    const server = this.server;
    if (!server) return;
    const pipeline = this.compiled?.pipeline;
    if (pipeline) pipeline.closing = true;
    // Event streams never end on their own: end them so the connections can close.
    pipeline?.endStreams();
    await closeServer(server, this.serverTimeouts.requestTimeout ?? 30_000, this.serverTimeouts.closeTimeout ?? 10_000);
    this.server = undefined;
    if (pipeline) pipeline.closing = false;
  }

  private async runCloseHooks(): Promise<void> {
    if (this.closeHooksRan) return;
    this.closeHooksRan = true;
    for (const hook of [...this.closeHooks].reverse()) {
      try {
        await hook();
      } catch (err) {
        this.reportHookError('an onClose hook', err);
      }
    }
  }

  /** Reports a failing hook; a throwing logger must not break close() or the request. */
  private reportHookError(what: string, err: unknown): void {
    if (!this.logger) return;
    try {
      this.logger.error(`[tern] ${what} failed:`, err);
    } catch {
      // Nothing sensible is left to do with an error about an error.
    }
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

/** Debug mode: which request models run through class-validator per request, and why. */
function fallbackReport(routes: readonly RouteInfo[]): string | undefined {
  const lines = routes
    .filter((route) => route.requestModel && !route.requestModel.native)
    .map((route) => `  ${route.source}: ${route.requestModel?.name} (${route.requestModel?.fallbackReasons.join('; ')})`);
  if (lines.length === 0) return undefined;
  return `[tern] ${lines.length} request model(s) are validated by class-validator per request instead of compiled checks:\n${lines.join('\n')}`;
}

function checkCloseTimeout(value: number | undefined): void {
  if (value === undefined || value === Infinity) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new TernRangeError('TERN_INVALID_LIMIT', `server.closeTimeout must be a non-negative integer of milliseconds (or Infinity), got ${String(value)}.`);
  }
}
