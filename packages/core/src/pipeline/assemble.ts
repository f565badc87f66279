/**
 * The last step of `ready()`: compiled routes become served routes (each with its whole chain),
 * the route table and the request pipeline, configured once for what the app uses.
 */
import type { MakeConfig } from '../config';
import type { ProxyHeaders, TrustFunction } from '../http/proxy';
import { trustingRequestClass } from '../http/trusted-request';
import type { CompiledRoute } from '../routing/compile';
import { RouteTable } from '../routing/table';
import type { Middleware } from '../routing/types';
import { findDuplicateLibraries } from '../validation/duplicates';
import type { ModelCompiler } from '../validation/model-compiler';
import type { LoggingSetup } from '../logging/setup';
import type { ExceptionHandlers } from './exceptions';
import { responseObserver, type ResponseHook } from './observe';
import { requestIdentity } from './request-identity';
import { requestLogHook } from './request-log';
import { RequestPipeline } from './pipeline';
import { largestBodyLimit, serveRoutes, type ServedRoute } from './serve';
import type { TrailingSlash } from './trailing-slash';
import type { HeaderSet } from '../http/page-headers';
import type { MatchedRoute } from '../http/matched-route';
import { isPageRoute } from '../routing/page-route';
import type { TernStore } from '../store/store';
import { storeFailures } from '../store/failures';

export interface ServingOptions {
  config: MakeConfig;
  appMiddleware: readonly Middleware[];
  exceptions: ExceptionHandlers;
  /** The app's compiler: response models' validators (`validateResponses`) and undecorated response models. */
  modelCompiler: ModelCompiler;
  trustProxy?: TrustFunction;
  /** The header family `trustProxy` reads (default `'x-forwarded'`). */
  proxyHeaders?: ProxyHeaders;
  responseHooks: readonly ResponseHook[];
  /** `new TernApp({ trailingSlash })` (default `'strict'`). */
  trailingSlash?: TrailingSlash;
  /** `new TernApp({ pageHeaders })`, checked: the headers of every HTML response. */
  pageHeaders?: HeaderSet;
  /** Request ids, `req.log` and the per-request line (`logging/setup.ts`). */
  logging?: LoggingSetup;
  /** The app's store (`new TernApp({ store })`): rate-limit counters. */
  store: TernStore;
}

export interface Serving {
  table: RouteTable<ServedRoute>;
  pipeline: RequestPipeline;
  /** The largest body any route accepts: the server refuses a larger declared one before routing. */
  largestBodyLimit: number;
}

export function assembleServing(routes: readonly CompiledRoute[], options: ServingOptions): Serving {
  const { config, exceptions } = options;
  const served = serveRoutes(routes, options.appMiddleware, {
    limits: config,
    report: (err, req) => exceptions.report(err, req.raw),
    modelCompiler: options.modelCompiler,
    responseFiltering: config.responseFiltering,
    validateResponses: config.validateResponses,
    rateLimit: { store: options.store, failures: storeFailures('rateLimit', (what, err) => exceptions.reportFailure(what, err)) },
  });
  // Every model is compiled by now: a second copy of a validation library would make Tern read
  // records the app never wrote. Fail startup rather than accept unchecked data.
  const duplicate = findDuplicateLibraries();
  if (duplicate) throw duplicate;
  const table = new RouteTable(served, { maxParamLength: config.maxParamLength, debug: config.debug });
  const pipeline = new RequestPipeline(table, options.appMiddleware, exceptions, config);
  pipeline.trailingSlash = options.trailingSlash ?? 'strict';
  pipeline.pageHeaders = options.pageHeaders;
  const pages = new WeakSet<MatchedRoute>(served.filter(isPageRoute).map((route) => route.info));
  exceptions.isPage = (route) => pages.has(route);
  if (options.trustProxy) pipeline.requestClass = trustingRequestClass(options.trustProxy, options.proxyHeaders);
  const { ids, structured, requestLine } = options.logging ?? {};
  if (ids !== undefined || structured !== undefined) pipeline.identify = requestIdentity(ids ?? { echo: 'x-request-id' }, structured);
  // The request line is one more response hook, first so it is written before the app's own.
  const hooks = requestLine ? [requestLogHook(requestLine.logger, requestLine.level), ...options.responseHooks] : options.responseHooks;
  if (hooks.length > 0) {
    pipeline.observe = responseObserver(hooks, (err) => exceptions.reportFailure('an onResponse hook', err));
  }
  return { table, pipeline, largestBodyLimit: largestBodyLimit(served, config) };
}
