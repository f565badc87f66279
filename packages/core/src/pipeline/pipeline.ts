/**
 * The request path, in the order a request takes it: split the target, build the request and
 * response views, look the route up, run the route's chain (app middleware, route middleware,
 * terminal step; for no route, app middleware around the routing error), turn a failure into an
 * answer through the exception handlers, hand the response to the writer.
 */
import { setMaxListeners } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MakeConfig } from '../config';
import { HTTPException } from '../errors';
import { requestError } from '../errors/request-error';
import { isAbortOf } from '../http/abort';
import { TernRequest } from '../http/request';
import { TernResponse } from '../http/response';
import { writeResponse } from '../http/write';
import type { StreamContext } from '../http/write-stream';
import type { Lookup, RouteTable } from '../routing/table';
import type { Middleware } from '../routing/types';
import { compose, type Step } from './chain';
import type { ExceptionHandlers } from './exceptions';
import type { responseObserver } from './observe';
import type { requestIdentity } from './request-identity';
import type { ServedRoute } from './serve';
import { splitTarget } from './target';
import { otherSlashForm, slashRedirectLocation, type TrailingSlash } from './trailing-slash';
import { settleFlashes } from '../http/flash';
import { SWITCHING_PROTOCOLS } from '../http/upgrade';
import type { HeaderSet } from '../http/page-headers';
import { flashKey, RAW_RESPONSE } from '../http/request';
import { traceStep, tracingRequested } from './tracing';

/** Routing errors found before app middleware runs, answered after it (so it can still act). */
const routingErrors = new WeakMap<TernRequest, HTTPException>();
const rejectWithRoutingError: Step = (req) => Promise.reject(routingErrors.get(req));
/** `trailingSlash: 'redirect'`: where a request that missed by its slash is sent, answered after app middleware. */
const slashRedirects = new WeakMap<TernRequest, string>();
const redirectToOtherSlash: Step = (req, res) => Promise.resolve(res.redirect(slashRedirects.get(req) as string, 308));

/**
 * The signal that ends open event streams when the app closes. Every open stream listens to
 * it (and stops listening when it ends), so more than 10 listeners is normal here, not a leak:
 * Node's MaxListenersExceededWarning would be a false alarm in production logs.
 */
function closingController(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}

export class RequestPipeline {
  /** App middleware around the routing error, for requests no route serves. */
  private readonly unmatched: Step;
  /** App middleware around the trailing-slash redirect. */
  private readonly redirecting: Step;
  /** `new TernApp({ trailingSlash })`, set at ready. */
  trailingSlash: TrailingSlash = 'strict';
  /** `new TernApp({ pageHeaders })`: given to every response, which adds them to the HTML it sends. */
  pageHeaders?: HeaderSet;
  /** True while the app closes: responses then say `Connection: close`. */
  closing = false;
  /** The request class: `TernRequest`, or its `trustProxy` subclass. Chosen once, at ready. */
  requestClass: typeof TernRequest = TernRequest;
  /** Set at ready only when `onResponse` hooks exist: apps without them never call anything. */
  observe?: ReturnType<typeof responseObserver>;
  /** Set at ready only when the app uses request ids or a structured logger. */
  identify?: ReturnType<typeof requestIdentity>;
  /**
   * Set at ready only when the app has socket routes: completes the upgrade of a request whose
   * chain ended in its socket route's 101 (true), instead of writing a response.
   */
  upgrade?: (req: TernRequest, response: TernResponse) => boolean;
  /** Set at ready with `upgrade`: the app's open sockets, closed (1001) when the app closes. */
  sockets?: { closeAll(): void; ended(): Promise<void>; cutAll(): void };
  /** For stream bodies written after the chain: failure reports, and the signal `endStreams` aborts. */
  private readonly streams: StreamContext & { controller: AbortController };

  /** `table` holds routes whose `dispatch` already runs the app middleware (see serveRoutes). */
  constructor(
    private readonly table: RouteTable<ServedRoute>,
    appMiddleware: readonly Middleware[],
    private readonly exceptions: ExceptionHandlers,
    private readonly config: MakeConfig,
  ) {
    this.unmatched = compose(appMiddleware, rejectWithRoutingError);
    this.redirecting = compose(appMiddleware, redirectToOtherSlash);
    const exceptionsRef = exceptions;
    this.streams = {
      controller: closingController(),
      report: (err, req) => exceptionsRef.report(err, req),
      get closing() {
        return this.controller.signal;
      },
    };
  }

  /** Ends the event streams and sockets open now (the app is closing); later streams get a fresh signal. */
  endStreams(): void {
    const { controller } = this.streams;
    this.streams.controller = closingController();
    controller.abort();
    this.sockets?.closeAll();
  }

  /** Resolves once every socket has closed and its `close` handler ran. */
  ended(): Promise<void> {
    return this.sockets?.ended() ?? Promise.resolve();
  }

  /** The close timeout ran out: destroys the sockets still open (their `close` handlers get 1006). */
  cutSockets(): void {
    this.sockets?.cutAll();
  }

  handle(rawReq: IncomingMessage, rawRes: ServerResponse): void {
    const { path, search } = splitTarget(rawReq.url ?? '/');
    const req = new this.requestClass(rawReq, path, search, this.config);
    const res = new TernResponse(rawRes);
    if (this.pageHeaders !== undefined) res.pageHeaders = this.pageHeaders;
    res.flashSource = req;
    req[RAW_RESPONSE] = rawRes;
    if (this.identify !== undefined) this.identify(req, res);
    if (this.observe !== undefined) this.observe(req, res);
    let found: Lookup<ServedRoute> = path ? this.table.lookup(rawReq.method as string, path) : { error: badTarget() };
    let step: Step | undefined;
    if (found.error?.status === 404 && this.trailingSlash !== 'strict') {
      const other = otherSlashForm(path);
      const second = other === undefined ? undefined : this.table.lookup(rawReq.method as string, other);
      if (second?.route && this.trailingSlash === 'redirect') {
        slashRedirects.set(req, slashRedirectLocation(other as string, search));
        step = this.redirecting;
      } else if (second && (second.route || second.error.status === 405)) {
        found = second;
      }
    }
    if (step === undefined) {
      if (found.route) {
        req.route = found.route.info;
        req.pathParams = found.params;
        step = found.route.dispatch;
      } else {
        // Only converters refused the value: app middleware sees the route the request names, so
        // authentication (enforceSecurity, guards by req.route) answers before the 422 does.
        if (found.target) req.route = found.target.info;
        routingErrors.set(req, found.error);
        step = this.unmatched;
      }
    }
    // diagnostics_channel subscribers (APM agents, OpenTelemetry) can come and go at any time.
    const pending = tracingRequested() ? traceStep(step, req, res) : step(req, res);
    pending.then(
      (response) => this.finish(req, response),
      (err) => this.fail(req, res, err),
    );
  }

  /** Settles the flash cookie (only when flashes were read or queued), then writes the answer. */
  private finish(req: TernRequest, response: TernResponse): void {
    if (response.statusCode === SWITCHING_PROTOCOLS && this.upgrade !== undefined && this.upgrade(req, response)) return;
    if (response.flashOut !== undefined || req.flashState !== undefined) {
      try {
        settleFlashes(req, response, flashKey(this.config));
      } catch (err) {
        this.exceptions.report(err, req);
      }
    }
    this.send(req, response.raw, response);
  }

  /**
   * Answers a failed chain through the exception handlers, unless the answer already started.
   * Runs in a promise callback: anything it throws would be an unhandled rejection, which ends
   * the process, so nothing may escape it, whatever the handler threw.
   */
  private fail(req: TernRequest, res: TernResponse, thrown: unknown): void {
    try {
      this.answerFailure(req, res, inspectable(thrown));
    } catch (err) {
      this.abandon(req, res.raw, err);
    }
  }

  private answerFailure(req: TernRequest, res: TernResponse, err: unknown): void {
    // The client left (or the close timeout cut it) and the handler gave up through req.signal:
    // nobody is there to answer and nothing went wrong.
    if (res.raw.destroyed && isAbortOf(req.signal, err)) return;
    if (res.raw.headersSent) {
      // A handler (or a mounted app, or a stream) wrote on the raw response, then failed: no
      // error status can follow the bytes sent, and a body cut off half-way must not look complete.
      if (!(err instanceof HTTPException)) this.exceptions.report(err, req);
      if (!res.raw.writableEnded) res.raw.destroy();
      return;
    }
    this.exceptions.handle(req, res, err).then(
      (response) => this.finish(req, response),
      (fatal) => this.abandon(req, res.raw, fatal),
    );
  }

  /** Writes the response; a failure here (never expected) must not become an unhandled rejection. */
  private send(req: TernRequest, rawRes: ServerResponse, response: TernResponse): void {
    try {
      writeResponse(rawRes, response, this.closing, this.streams);
    } catch (err) {
      this.abandon(req, rawRes, err);
    }
  }

  /**
   * The last resort when even error handling failed: an empty 500, and the process lives on. A
   * response already under way is cut (the client sees a failure, not a complete-looking body).
   */
  private abandon(req: TernRequest, rawRes: ServerResponse, err: unknown): void {
    this.exceptions.report(err, req);
    if (rawRes.headersSent) {
      if (!rawRes.writableEnded) rawRes.destroy();
      return;
    }
    rawRes.statusCode = 500;
    rawRes.end();
  }
}

/**
 * The thrown value, or an Error in its place when it cannot be looked at: a revoked Proxy throws
 * on `instanceof` and on every property read, and each step of the failure path (exception
 * handlers by class, the problem body, the logger) looks.
 */
function inspectable(thrown: unknown): unknown {
  try {
    if ((typeof thrown === 'object' && thrown !== null) || typeof thrown === 'function') void (Object.getPrototypeOf(thrown) as unknown);
    return thrown;
  } catch {
    return new TypeError('The handler threw a value that cannot be inspected (a revoked Proxy?).');
  }
}

function badTarget(): HTTPException {
  return requestError('TERN_BAD_REQUEST_TARGET', 'The request target must be a path.');
}
