/**
 * The example as `main.ts` runs it, with spans kept in memory: `app.test.ts` forks this file (a
 * real Node process, since jest's module registry bypasses the HTTP instrumentation's require
 * hook), sends it requests over HTTP, and asks for the finished spans over IPC; it ends the child with a signal.
 */
import { tracing } from '@opentelemetry/sdk-node';
import pino from 'pino';
import { startTelemetry } from './telemetry';

/** What the parent receives for each finished span. */
export interface SpanRecord {
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: Record<string, unknown>;
  status: number;
  events: Array<{ name: string; attributes?: Record<string, unknown> }>;
}

const exporter = new tracing.InMemorySpanExporter();
startTelemetry(exporter, { handlerSpans: true });
// eslint-disable-next-line @typescript-eslint/no-require-imports -- after the SDK started, as main.ts does
const { buildApp } = require('./app') as typeof import('./app');
const app = buildApp(pino({ level: 'silent' }));

function finishedSpans(): SpanRecord[] {
  return exporter.getFinishedSpans().map((span) => ({
    name: span.name,
    kind: span.kind,
    traceId: span.spanContext().traceId,
    spanId: span.spanContext().spanId,
    parentSpanId: span.parentSpanContext?.spanId,
    attributes: { ...span.attributes },
    status: span.status.code,
    events: span.events.map((event) => ({ name: event.name, attributes: { ...event.attributes } })),
  }));
}

process.on('message', (message) => {
  if (message !== 'spans') return;
  process.send?.({ spans: finishedSpans() });
  exporter.reset();
});

app.listen({ port: 0, host: '127.0.0.1' }).then(
  (address) => process.send?.({ address }),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
