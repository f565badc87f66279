/**
 * The request path, in the order a request takes it: split the target, build the request and
 * response views, look the route up, run the route's chain (app middleware, route middleware,
 * terminal step; for no route, app middleware around the routing error), turn a failure into an
 * answer through the exception handlers, hand the response to the writer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MakeConfig } from '../config';
import { HTTPException } from '../errors';
import { requestError } from '../errors/request-error';
import { isAbortOf } from '../http/abort';
import { TernRequest } from '../http/request';
import { TernResponse } from '../http/response';
import { writeResponse } from '../http/write';
import type { StreamContext } from '../http/write-stream';
import type { RouteTable } from '../routing/table';
import type { Middleware } from '../routing/types';
import { compose, type Step } from './chain';
import type { ExceptionHandlers } from './exceptions';
import type { responseObserver } from './observe';
import type { requestIdentity } from './request-identity';
import type { ServedRoute } from './serve';
import { splitTarget } from './target';
import { traceStep, tracingRequested } from './tracing';

/** Routing errors found before app middleware runs, answered after it (so it can still act). */
const routingErrors = new WeakMap<TernRequest, HTTPException>();
const rejectWithRoutingError: Step = (req) => Promise.reject(routingErrors.get(req));

export class RequestPipeline {
  /** App middleware around the routing error, for requests no route serves. */
  private readonly unmatched: Step;
  /** True while the app closes: responses then say `Connection: close`. */
  closing = false;
  /** The request class: `TernRequest`, or its `trustProxy` subclass. Chosen once, at ready. */
  requestClass: typeof TernRequest = TernRequest;
  /** Set at ready only when `onResponse` hooks exist: apps without them never call anything. */
  observe?: ReturnType<typeof responseObserver>;
  /** Set at ready only when the app uses request ids or a structured logger. */
  identify?: ReturnType<typeof requestIdentity>;
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
    const exceptionsRef = exceptions;
    this.streams = {
      controller: new AbortController(),
      report: (err, req) => exceptionsRef.report(err, req),
      get closing() {
        return this.controller.signal;
      },
    };
  }

  /** Ends the event streams open now (the app is closing); later ones get a fresh signal. */
  endStreams(): void {
    const { controller } = this.streams;
    this.streams.controller = new AbortController();
    controller.abort();
  }

  handle(rawReq: IncomingMessage, rawRes: ServerResponse): void {
    const { path, search } = splitTarget(rawReq.url ?? '/');
    const req = new this.requestClass(rawReq, path, search, this.config);
    const res = new TernResponse(rawRes);
    req.rawResponse = rawRes;
    if (this.identify !== undefined) this.identify(req, res);
    if (this.observe !== undefined) this.observe(req, res);
    const found = path ? this.table.lookup(rawReq.method as string, path) : { error: badTarget() };
    let step: Step;
    if (found.route) {
      req.route = found.route.info;
      req.pathParams = found.params;
      step = found.route.dispatch;
    } else {
      routingErrors.set(req, found.error);
      step = this.unmatched;
    }
    // diagnostics_channel subscribers (APM agents, OpenTelemetry) can come and go at any time.
    const pending = tracingRequested() ? traceStep(step, req, res) : step(req, res);
    pending.then(
      (response) => this.send(req, rawRes, response),
      (err) => this.fail(req, res, err),
    );
  }

  /** Answers a failed chain through the exception handlers, unless the answer already started. */
  private fail(req: TernRequest, res: TernResponse, err: unknown): void {
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
      (response) => this.send(req, res.raw, response),
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

function badTarget(): HTTPException {
  return requestError('TERN_BAD_REQUEST_TARGET', 'The request target must be a path.');
}
