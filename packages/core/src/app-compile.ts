/**
 * What `app.ready()` does, once, in order (`app.ts` keeps the declarations and the lifecycle):
 *
 * 1. `compileRoutes`: the app's declarations and its route providers' (controllers, the file
 *    router) become compiled routes (`routing/compile.ts`): prefixes, names, converters bound,
 *    request models compiled with the app's `ModelCompiler`;
 * 2. `compileApp`: the template names the app declares (`errorPages`, routes' `formTemplate`)
 *    are checked with the template renderer, when it can tell; Tern's own routes (the OpenAPI
 *    document, `/docs`, the AsyncAPI document of socket routes) are built from the user's `RouteInfo`s; everything becomes served
 *    routes, the route table and the configured request pipeline (`pipeline/assemble.ts`); the
 *    `onReady` hooks run; with `debug`, the models that class-validator checks per request are
 *    noted;
 * 3. `runStartupHooks`: the `onStartup` hooks, in order (a database opened, migrations run).
 *
 * The app publishes the result only if all of it succeeded: an app whose startup failed serves
 * nothing. `AppParts` is what the app holds besides its declarations, made once from its options.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MakeConfig } from './config';
import { TernError, TernTypeError } from './errors';
import type { ControllerResolver, ScanOptions } from './controllers/scanner';
import { checkProxyHeaders, compileTrustProxy } from './http/proxy';
import { OpenAPIConfig } from './openapi/config';
import { openapiDeclarations } from './openapi/routes';
import { assembleServing, type Serving, type ServingOptions } from './pipeline/assemble';
import { setUpLogging } from './logging/setup';
import { ExceptionHandlers } from './pipeline/exceptions';
import { checkErrorPages, type ErrorPages } from './pipeline/error-pages';
import { mayBeTemplate } from './http/templates';
import { checkTrailingSlash } from './pipeline/trailing-slash';
import { pageHeaders } from './http/page-headers';
import type { ResponseHook } from './pipeline/observe';
import { compileDeclarations, type CompiledRoute } from './routing/compile';
import type { Declaration } from './routing/router';
import { describeFallbacks, type RouteInfo } from './routing/route-info';
import type { Middleware } from './routing/types';
import { defaultModelCompiler } from './validation/class-validator/compiler';
import type { ModelCompiler } from './validation/model-compiler';
import { modelRulesCheck } from './validation/model-rules';
import { checkAppOptions, type RegisterControllersOptions, type TernAppOptions } from './app-options';
import { asyncapiDeclarations } from './realtime/asyncapi';
import { SocketHub } from './realtime/hub';
import { socketLimits } from './realtime/limits';
import { serveSockets } from './realtime/serve';
import type { InheritedRouteOptions } from './routing/types';
import { isMemoryStore, memoryStore } from './store/memory-store';
import { bindSessionStores } from './middleware/session';
import { MEMORY_STORE_MESSAGE, tellClusterPrimary } from './lifecycle/cluster-notice';
import type { TernStore } from './store/store';

/** A function `app.onReady` runs with the app's own routes once every route is compiled. */
export type ReadyHook = (routes: readonly RouteInfo[]) => void;

/** A function `app.onStartup` runs inside `ready()`, in order; may return a promise. */
export type StartupHook = () => void | Promise<void>;

/** The app's options, normalised once, and what its `add…`/`on…` methods collect for `ready()`. */
export interface AppParts extends ServingOptions {
  readonly config: MakeConfig;
  /** The global prefix, checked ('' for none). */
  readonly prefix: string;
  readonly openapiConfig: OpenAPIConfig;
  readonly modelCompiler: ModelCompiler;
  readonly exceptions: ExceptionHandlers;
  readonly appMiddleware: Middleware[];
  readonly responseHooks: ResponseHook[];
  readonly readyHooks: ReadyHook[];
  readonly startupHooks: StartupHook[];
  /** The app-wide controller resolver (`new TernApp({ resolve })`). */
  readonly resolveController?: ControllerResolver;
  /** Warns about (or, with strictModels, refuses) request models without rules; one per app. */
  readonly checkModel: (model: Function, where: string) => void;
  /** The app's sockets: limits, rooms, shutdown. */
  readonly sockets: SocketHub;
  /** The route options the app gives every route of its own (`new TernApp({ security })`), checked. */
  readonly routeOptions: Readonly<InheritedRouteOptions>;
}

/** Checks and normalises the app's options (a bad one throws from `new TernApp()`). */
export function appParts(options: TernAppOptions): AppParts {
  const routeOptions = checkAppOptions(options);
  const config = options.config ?? new MakeConfig();
  const openapiConfig = new OpenAPIConfig(options.openapi);
  const modelCompiler = options.modelCompiler ?? defaultModelCompiler;
  const logging = setUpLogging(options.logger, options.requestIdHeader, options.log);
  const exceptions = new ExceptionHandlers(logging.failures, config.debug);
  exceptions.errorPages = checkErrorPages(options.errorPages);
  const store = checkStore(options.store);
  return {
    sockets: new SocketHub(socketLimits(options.websocket), () => store, (err) => exceptions.reportFailure('a realtime room', err)),
    trailingSlash: checkTrailingSlash(options.trailingSlash),
    pageHeaders: pageHeaders(options.pageHeaders),
    store,
    config,
    prefix: checkPrefix(options.prefix),
    logging,
    openapiConfig,
    modelCompiler,
    exceptions,
    trustProxy: compileTrustProxy(options.trustProxy),
    proxyHeaders: checkProxyHeaders(options.proxyHeaders),
    resolveController: options.resolve,
    checkModel: modelRulesCheck({ compiler: modelCompiler, strict: config.strictModels, warn: (message) => exceptions.note(message) }),
    routeOptions,
    appMiddleware: [],
    responseHooks: [],
    readyHooks: [],
    startupHooks: [],
  };
}

/** How `registerControllers` scans: the given resolver (else the app's) and the app's model settings. */
export function controllerScan(parts: AppParts, options: RegisterControllersOptions): ScanOptions {
  return { ...modelSettings(parts), resolve: options.resolve ?? parts.resolveController };
}

/** The user's routes (the app's declarations, then its providers'), compiled with the app's model settings. */
export function compileRoutes(declarations: readonly Declaration[], parts: AppParts): CompiledRoute[] {
  return compileDeclarations(declarations, { ...modelSettings(parts), prefix: parts.prefix, inherited: parts.routeOptions });
}

/** The app's model settings: what routes and controllers compile their models with. */
function modelSettings(parts: AppParts) {
  return { modelCompiler: parts.modelCompiler, forbidUnknownProperties: parts.config.forbidUnknownProperties, checkModel: parts.checkModel };
}

/** `new TernApp({ store })`: something with the store's methods (default a fresh `memoryStore()`). */
function checkStore(store: TernStore | undefined): TernStore {
  if (store === undefined) return memoryStore();
  const methods = ['increment', 'get', 'set', 'delete', 'publish', 'subscribe', 'ping', 'close'] as const;
  if (typeof store !== 'object' || store === null || !methods.every((name) => typeof store[name] === 'function')) {
    throw new TernTypeError('TERN_INVALID_ARGUMENT', `new TernApp({ store }) expects a store such as memoryStore() or redisStore({ url }), with ${methods.join(', ')}.`);
  }
  return store;
}

/** `new TernApp({ prefix })`: a static path, kept as given without its trailing slashes. */
function checkPrefix(prefix: unknown): string {
  if (prefix === undefined || prefix === '') return '';
  if (typeof prefix !== 'string' || !/^(\/[^/{}?#\s]+)+\/?$|^\/$/.test(prefix)) {
    throw new TernTypeError('TERN_INVALID_ARGUMENT', `new TernApp({ prefix }) expects a static path such as '/api', got ${JSON.stringify(prefix)}.`);
  }
  return prefix.replace(/\/+$/, '');
}

/**
 * Tern's own routes (OpenAPI document, docs pages), built from the user's routes. Security
 * requirements are checked there even when no document is served: a typo fails startup.
 */
function internalDeclarations(routes: readonly RouteInfo[], parts: AppParts): Declaration[] {
  return [
    ...openapiDeclarations(routes, parts.openapiConfig, { modelCompiler: parts.modelCompiler, maxParamLength: parts.config.maxParamLength }, parts.prefix),
    ...asyncapiDeclarations(routes, parts.openapiConfig, parts.modelCompiler, parts.prefix),
  ];
}

/** The rest of `ready()` once the user's routes are compiled: Tern's own routes, serving, ready hooks. */
export function compileApp(routes: CompiledRoute[], parts: AppParts): Serving {
  checkTemplateNames(routes, parts.exceptions.errorPages);
  const infos = routes.map((route) => route.info);
  const internal = compileDeclarations(internalDeclarations(infos, parts), { internal: true });
  const serving = assembleServing([...routes, ...internal], parts);
  serving.pipeline.upgrade = serveSockets(routes, parts.sockets, {
    config: parts.config,
    modelCompiler: parts.modelCompiler,
    checkModel: parts.checkModel,
    report: (err, req) => parts.exceptions.report(err, req.raw),
  });
  if (serving.pipeline.upgrade) serving.pipeline.sockets = parts.sockets;
  useStore(routes, parts);
  for (const hook of parts.readyHooks) hook(infos);
  if (parts.config.debug) parts.exceptions.note(describeFallbacks(infos));
  return serving;
}

/**
 * Hands the app's store to its `session()` middleware and, in a cluster worker whose rate limits
 * or sessions sit in `memoryStore()`, tells the primary (which warns when it runs several workers:
 * each would count and keep sessions on its own).
 */
function useStore(routes: readonly CompiledRoute[], parts: AppParts): void {
  const middleware = new Set([...parts.appMiddleware, ...routes.flatMap((route) => route.middleware)]);
  const sessions = bindSessionStores(middleware, { store: parts.store, report: (what, err) => parts.exceptions.reportFailure(what, err) });
  const limited = routes.filter((route) => route.spec.rateLimit).length;
  if (!isMemoryStore(parts.store) || (!sessions && limited === 0)) return;
  const uses = [...(limited > 0 ? [`rateLimit on ${limited} route(s)`] : []), ...(sessions ? ['session()'] : [])];
  tellClusterPrimary({ type: MEMORY_STORE_MESSAGE, pid: process.pid, uses });
}

/**
 * Refuses an error page or form template the renderer says does not exist: a misspelt name then
 * fails startup instead of the first page request that needs it. A renderer without `has`
 * (`setTemplateRenderer`), or none yet, is not asked. A `formTemplate` on a route without a
 * request model is refused too: nothing would ever show it.
 */
function checkTemplateNames(routes: readonly CompiledRoute[], pages: ErrorPages | undefined): void {
  const named: Array<[template: string, where: string]> = Object.entries(pages ?? {}).map(([status, template]) => [template, `errorPages[${status}]`]);
  for (const route of routes) {
    const template = route.spec.formTemplate;
    if (template === undefined && route.spec.formContext !== undefined) {
      throw new TernError('TERN_INVALID_ROUTE_OPTION', `The formContext of ${route.info.methods.join(', ')} ${route.rawPath}: it gives formTemplate its page data, and this route has no formTemplate.`);
    }
    if (template === undefined) continue;
    const where = `The formTemplate of ${route.info.methods.join(', ')} ${route.rawPath}`;
    // Without a model nothing rejects the form, so the template would never be shown.
    if (route.validator === undefined && route.mount === undefined) {
      throw new TernError('TERN_INVALID_ROUTE_OPTION', `${where}: formTemplate shows the form again when its requestModel rejects it, and this route has no requestModel; give it one, or drop formTemplate.`);
    }
    named.push([template, where]);
  }
  for (const [template, where] of named) {
    if (!mayBeTemplate(template)) throw new TernError('TERN_TEMPLATE_NOT_FOUND', `${where}: there is no template '${template}'.`);
  }
}

/** The `onStartup` hooks, one after the other; the first failure stops them and names its hook. */
export async function runStartupHooks(hooks: readonly StartupHook[]): Promise<void> {
  for (const [index, hook] of hooks.entries()) {
    try {
      await hook();
    } catch (err) {
      const name = hook.name ? `'${hook.name}' (#${index + 1})` : `#${index + 1}`;
      const reason = err instanceof Error ? err.message : String(err);
      throw new TernError('TERN_STARTUP_FAILED', `onStartup hook ${name} failed: ${reason}`, { cause: err });
    }
  }
}

/** A request `app.handler` got before a startup that then failed: the failure is reported, the answer an empty 500. */
export function answerFailedStartup(parts: AppParts, err: unknown, rawReq: IncomingMessage, rawRes: ServerResponse): void {
  parts.exceptions.report(err, rawReq);
  rawRes.statusCode = 500;
  rawRes.end();
}
