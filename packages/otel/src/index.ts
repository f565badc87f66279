/**
 * `@tern/otel`: Tern's `tern.request` tracing events turned into OpenTelemetry data. The HTTP
 * server span (made by `@opentelemetry/instrumentation-http`, or whatever span is active when
 * Tern starts the request) gets `http.route` and is named `GET /users/{id}`; a 5xx error is
 * recorded on it; opted into, a span wraps each request's middleware and handler.
 *
 * Nothing here patches Tern or loads it: it subscribes to the diagnostics channels Tern
 * publishes on, so it can start before anything loads `node:http`.
 */
import diagnostics_channel from 'node:diagnostics_channel';
import { context, createContextKey, SpanStatusCode, trace, type Span, type Tracer } from '@opentelemetry/api';

/**
 * @example
 * const options: TernTracingOptions = { handlerSpans: true };
 */
export interface TernTracingOptions {
  /** A span (`handler GET /users/{id}`) around each request's middleware and handler. Default false. */
  handlerSpans?: boolean;
  /** The tracer handler spans come from (default: the global provider's `@tern/otel` tracer). */
  tracer?: Tracer;
}

/** Tern's `REQUEST_TRACING_CHANNEL`, written out so that loading this module loads no Tern code. */
const REQUEST_CHANNEL = 'tern.request';
/** OpenTelemetry's semantic convention for the route template. */
const ATTR_HTTP_ROUTE = 'http.route';
/**
 * Where the HTTP instrumentation reads the route it names its span from at the response's end:
 * `@opentelemetry/core`'s RPC metadata, whose key is this registered symbol (kept here so the
 * package needs only `@opentelemetry/api`).
 */
const RPC_METADATA_KEY = createContextKey('OpenTelemetry SDK Context Key RPC_METADATA');

/** What Tern publishes (its `RequestTraceContext`), read structurally: this module loads no Tern types. */
interface TraceMessage {
  request: { method: string };
  route?: { template: string };
  error?: unknown;
}

/**
 * Subscribes to Tern's tracing events; returns the unsubscribe. Call it once, after the SDK
 * started (so `trace.getTracer` gets the real provider).
 *
 * @example
 * const sdk = new NodeSDK({ instrumentations: [new HttpInstrumentation()] });
 * sdk.start();
 * const stopTern = instrumentTern({ handlerSpans: true });
 */
export function instrumentTern(options: TernTracingOptions = {}): () => void {
  const tracer = options.tracer ?? trace.getTracer('@tern/otel');
  const handlerSpans = new WeakMap<object, Span>();
  const listeners: Record<string, (message: unknown) => void> = {
    start(message) {
      const ctx = message as TraceMessage;
      // Runs inside the HTTP instrumentation's context: the active span is the server span.
      const route = ctx.route?.template;
      if (route !== undefined) {
        const server = trace.getActiveSpan();
        server?.setAttribute(ATTR_HTTP_ROUTE, route);
        server?.updateName(`${ctx.request.method} ${route}`);
        const rpc = context.active().getValue(RPC_METADATA_KEY) as { type?: string; route?: string } | undefined;
        if (rpc?.type === 'http') rpc.route = route;
      }
      if (options.handlerSpans) {
        const name = `handler ${ctx.request.method} ${route ?? 'unmatched'}`;
        handlerSpans.set(ctx, tracer.startSpan(name, { attributes: route === undefined ? {} : { [ATTR_HTTP_ROUTE]: route } }));
      }
    },
    asyncEnd(message) {
      const span = handlerSpans.get(message as object);
      if (span === undefined) return;
      span.end();
      handlerSpans.delete(message as object);
    },
    error(message) {
      const ctx = message as TraceMessage;
      // 4xx answers (an HTTPException's status) are the client's doing, not a failure of the service.
      const status = (ctx.error as { status?: unknown } | null)?.status;
      if (typeof status === 'number' && status < 500) return;
      for (const span of [trace.getActiveSpan(), handlerSpans.get(ctx)]) {
        if (span === undefined) continue;
        span.recordException(ctx.error instanceof Error ? ctx.error : String(ctx.error));
        span.setStatus({ code: SpanStatusCode.ERROR, message: ctx.error instanceof Error ? ctx.error.message : undefined });
      }
    },
  };
  // The tracing channel's events, subscribed one by one: Channel#subscribe's signature is the
  // same in every @types/node, where tracingChannel's type parameters are not.
  for (const [event, listener] of Object.entries(listeners)) diagnostics_channel.subscribe(`tracing:${REQUEST_CHANNEL}:${event}`, listener);
  return () => {
    for (const [event, listener] of Object.entries(listeners)) diagnostics_channel.unsubscribe(`tracing:${REQUEST_CHANNEL}:${event}`, listener);
  };
}

/**
 * Shuts telemetry down with a bound of its own, so a slow exporter cannot hold the process past
 * the orchestrator's grace period: resolves when `shutdown` does or after `timeoutMs` (default
 * 2000), whichever comes first. Call it after `app.close()`.
 *
 * @example
 * await app.close();
 * await shutdownWithin(() => sdk.shutdown(), 2_000);
 */
export async function shutdownWithin(shutdown: () => Promise<unknown>, timeoutMs = 2_000): Promise<'done' | 'timed out'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'timed out'>((resolve) => {
    timer = setTimeout(() => resolve('timed out'), timeoutMs);
    timer.unref();
  });
  try {
    return await Promise.race([shutdown().then(() => 'done' as const, () => 'done' as const), late]);
  } finally {
    clearTimeout(timer);
  }
}
