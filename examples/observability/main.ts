// First: the HTTP instrumentation must patch node:http before Tern loads it.
import { tracing } from '@opentelemetry/sdk-node';
import { startTelemetry } from './telemetry';

const telemetry = startTelemetry(new tracing.ConsoleSpanExporter(), { handlerSpans: true });

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after telemetry started, on purpose
const { buildApp } = require('./app') as typeof import('./app');

async function main(): Promise<void> {
  const app = buildApp(true);
  app.onClose(() => telemetry.shutdown());
  const address = await app.listen({ port: Number(process.env.PORT ?? 3000), host: process.env.HOST ?? '127.0.0.1' });
  console.log(`listening on ${address}: try /users/1, /users/9, /reports/2024 and /metrics`);
  process.once('SIGINT', () => void app.close());
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
