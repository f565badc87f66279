/**
 * The OpenTelemetry Node SDK for a Tern app: HTTP server spans from the HTTP instrumentation,
 * named by Tern's route (`tern-tracing.ts`). Start it before the app's modules load `node:http`:
 * `main.ts` imports this module first.
 */
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { NodeSDK, tracing } from '@opentelemetry/sdk-node';
import { instrumentTern, type TernTracingOptions } from './tern-tracing';

export interface Telemetry {
  shutdown(): Promise<void>;
}

/**
 * Starts the SDK with `exporter` (an OTLP exporter in production; the console or memory here).
 *
 * @example
 * const telemetry = startTelemetry(new tracing.ConsoleSpanExporter(), { handlerSpans: true });
 * app.onClose(() => telemetry.shutdown());
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
    async shutdown() {
      stopTern();
      await sdk.shutdown();
    },
  };
}
