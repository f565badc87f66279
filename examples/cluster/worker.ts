/**
 * A worker: serves the app on the port the primary shares, and closes gracefully on SIGTERM,
 * SIGINT or the primary's shutdown message. Run on its own (`node worker.js`) it is a plain
 * single-process server with the same shutdown, which is what one container per core wants.
 */
import closeWithGrace from 'close-with-grace';
import { setTimeout as sleep } from 'node:timers/promises';
import { redisStore } from '@tern/core';
import { buildApp } from './app';
import { readSettings } from './settings';
import { isShutdownMessage } from './shutdown-message';

async function main(): Promise<void> {
  const settings = readSettings(process.env);
  const store = settings.redisUrl ? redisStore({ url: settings.redisUrl, keyPrefix: settings.redisKeyPrefix }) : undefined;
  const { app, readiness } = buildApp({ closeTimeoutMs: settings.closeTimeoutMs, store, sessionSecret: settings.sessionSecret, rateLimit: settings.rateLimit });
  const listening = app.listen({ port: settings.port, host: settings.host });

  let closing = false;
  const closer = closeWithGrace(
    // The backstop (close() is bounded by closeTimeout itself): past drain + close time plus a
    // margin for the onClose hooks, the process exits with 1, whatever is still running.
    { delay: settings.drainDelayMs + settings.closeTimeoutMs + 1_000 },
    async ({ err }) => {
      closing = true;
      if (err) console.error(`worker ${process.pid}:`, err);
      // Readiness first, while the server still accepts: balancers see 503 and move traffic away.
      readiness.startClosing();
      // A close asked for during startup lets the server finish starting, then closes it.
      await listening.catch(() => undefined);
      await sleep(settings.drainDelayMs);
      // Stops accepting, answers in-flight requests with `Connection: close`, closes idle sockets.
      await app.close();
    },
  );
  process.on('message', (message) => {
    if (isShutdownMessage(message) && !closing) closer.close();
  });

  const address = await listening;
  if (!process.send) console.log(`Tern worker ${process.pid} listening on ${address}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
