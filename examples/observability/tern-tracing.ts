/**
 * Tern's `tern.request` tracing events turned into OpenTelemetry data: the HTTP server span (made
 * by `@opentelemetry/instrumentation-http`) gets `http.route` and is named `GET /users/{id}`, and,
 * opted into, a span around each request's middleware and handler with errors recorded.
 *
 * Nothing here patches Tern: it subscribes to the diagnostics channel Tern publishes on.
 */
import diagnostics_channel from 'node:diagnostics_channel';
import { context, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { getRPCMetadata, RPCType } from '@opentelemetry/core';
import { ATTR_HTTP_ROUTE } from '@opentelemetry/semantic-conventions';
// Types only: this module must not load Tern (and with it node:http) before the SDK starts.
import type { RequestTraceContext } from '@tern/core';

export interface TernTracingOptions {
  /** A span (`handler GET /users/{id}`) around each request's middleware and handler. Default false. */
  handlerSpans?: boolean;
}

/** Tern's `REQUEST_TRACING_CHANNEL`, written out so that importing this module loads no Tern code. */
const TERN_REQUEST = 'tern.request';
const tracer = trace.getTracer('tern-example');
/** The handler span of each traced request, kept beside Tern's trace context. */
const handlerSpans = new WeakMap<RequestTraceContext, Span>();

/**
 * Subscribes to Tern's tracing events; returns the unsubscribe. Call it once, next to the SDK.
 *
 * @example
 * const stop = instrumentTern({ handlerSpans: true });
 */
export function instrumentTern(options: TernTracingOptions = {}): () => void {
  const channel = diagnostics_channel.tracingChannel<unknown, RequestTraceContext>(TERN_REQUEST);
  const handlers = {
    start(ctx: RequestTraceContext) {
      // Runs inside the HTTP instrumentation's context: the active span is the server span.
      const route = ctx.route?.template;
      if (route !== undefined) {
        trace.getActiveSpan()?.setAttribute(ATTR_HTTP_ROUTE, route);
        // Read by the HTTP instrumentation when the response finishes: it names the span from it.
        const rpc = getRPCMetadata(context.active());
        if (rpc?.type === RPCType.HTTP) rpc.route = route;
      }
      if (options.handlerSpans) {
        const name = `handler ${ctx.request.method} ${route ?? 'unmatched'}`;
        handlerSpans.set(ctx, tracer.startSpan(name, { attributes: route === undefined ? {} : { [ATTR_HTTP_ROUTE]: route } }));
      }
    },
    end() {},
    asyncStart() {},
    asyncEnd(ctx: RequestTraceContext) {
      const span = handlerSpans.get(ctx);
      if (span === undefined) return;
      span.end();
      handlerSpans.delete(ctx);
    },
    error(ctx: RequestTraceContext) {
      // 4xx answers (an HTTPException's status) are the client's doing, not a failure of the service.
      const status = (ctx.error as { status?: unknown } | null)?.status;
      if (typeof status === 'number' && status < 500) return;
      const spans = [trace.getActiveSpan(), handlerSpans.get(ctx)];
      for (const span of spans) {
        if (span === undefined) continue;
        span.recordException(ctx.error instanceof Error ? ctx.error : String(ctx.error));
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
    },
  };
  channel.subscribe(handlers);
  return () => channel.unsubscribe(handlers);
}
