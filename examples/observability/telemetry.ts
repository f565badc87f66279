/**
 * The OpenTelemetry Node SDK for a Tern app: HTTP server spans from the HTTP instrumentation,
 * named by Tern's route (`@tern/otel`). Start it before the app's modules load `node:http`:
 * `main.ts` imports this module first.
 */
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { NodeSDK, tracing } from '@opentelemetry/sdk-node';
import { instrumentTern, shutdownWithin, type TernTracingOptions } from '@tern/otel';

export interface Telemetry {
  /** Flushes and stops the SDK, giving up after `timeoutMs` (default 2000) so exit is never held. */
  shutdown(timeoutMs?: number): Promise<void>;
}

/**
 * Starts the SDK with `exporter` (an OTLP exporter in production; the console or memory here).
 *
 * @example
 * const telemetry = startTelemetry(new tracing.ConsoleSpanExporter(), { handlerSpans: true });
 * await app.close();
 * await telemetry.shutdown();
 */
export function startTelemetry(exporter: tracing.SpanExporter, options: TernTracingOptions = {}): Telemetry {
  const sdk = new NodeSDK({
    serviceName: 'tern-observability-example',
    // One span per finished span, at once: an example and its test want to see them immediately.
    // Production uses BatchSpanProcessor.
    spanProcessors: [new tracing.SimpleSpanProcessor(exporter)],
    instrumentations: [new HttpInstrumentation()],
  });
  sdk.start();
  const stopTern = instrumentTern(options);
  return {
    async shutdown(timeoutMs = 2_000) {
      stopTern();
      await shutdownWithin(() => sdk.shutdown(), timeoutMs);
    },
  };
}
