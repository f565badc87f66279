// First: the HTTP instrumentation must patch node:http before Tern loads it.
import { tracing } from '@opentelemetry/sdk-node';
import { startTelemetry } from './telemetry';

const telemetry = startTelemetry(new tracing.ConsoleSpanExporter(), { handlerSpans: true });

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after telemetry started, on purpose
const { buildApp } = require('./app') as typeof import('./app');

async function main(): Promise<void> {
  const app = buildApp(true);
  const address = await app.listen({ port: Number(process.env.PORT ?? 3000), host: process.env.HOST ?? '127.0.0.1' });
  console.log(`listening on ${address}: try /users/1, /users/9, /reports/2024 and /metrics`);
  // Telemetry stops after the app (its last spans are the last requests'), with its own bound:
  // an exporter that cannot reach its collector must not hold the exit past the grace period.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void app.close().then(() => telemetry.shutdown(2_000)).then(() => process.exit(0)));
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
