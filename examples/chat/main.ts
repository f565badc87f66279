/**
 * Runs the chat. Without `REDIS_URL`: one process, rooms in its memory. With `REDIS_URL`: the
 * cluster example's primary forks `WORKERS` workers (default 2) running this same file, which
 * share the port and one `redisStore`, so a room spans them all. Either way SIGTERM or Ctrl-C
 * closes every socket with 1001 and exits.
 *
 * Settings (environment): `PORT` (default 3000, 0 picks one), `HOST` (default 127.0.0.1),
 * `REDIS_URL`, `REDIS_KEY_PREFIX` (default `chat:`), `WORKERS`, `CHAT_SECRET` (drawn once per
 * start when unset, and handed to the workers so a token signed by one is valid in every other).
 */
import cluster from 'node:cluster';
import { randomBytes } from 'node:crypto';
import closeWithGrace from 'close-with-grace';
import { redisStore } from '@tern/core';
import { runPrimary } from '../cluster/primary';
import { readSettings } from '../cluster/settings';
import { isShutdownMessage } from '../cluster/shutdown-message';
import { buildApp } from './app';

const settings = readSettings({ ...process.env, WORKERS: process.env.WORKERS || '2', REDIS_KEY_PREFIX: process.env.REDIS_KEY_PREFIX || 'chat:' });

if (settings.redisUrl && cluster.isPrimary) {
  process.env.CHAT_SECRET ??= randomBytes(32).toString('hex');
  // The workers run this file too (node:cluster starts them from it), and take the branch below.
  runPrimary({ workers: settings.workers, exec: __filename, shutdownTimeoutMs: settings.shutdownTimeoutMs });
  console.log(`Chat primary ${process.pid}: ${settings.workers} worker(s) on ${settings.host}:${settings.port}, rooms on Redis`);
} else {
  serve().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}

async function serve(): Promise<void> {
  const store = settings.redisUrl ? redisStore({ url: settings.redisUrl, keyPrefix: settings.redisKeyPrefix }) : undefined;
  const app = buildApp({ store });
  const listening = app.listen({ port: settings.port, host: settings.host });
  let closing = false;
  // close() is bounded by the server's close timeout; past it and a margin, the process exits 1.
  const closer = closeWithGrace({ delay: settings.closeTimeoutMs + 1_000 }, async ({ err }) => {
    closing = true;
    if (err) console.error(`chat ${process.pid}:`, err);
    await listening.catch(() => undefined);
    await app.close();
  });
  // Under the primary, shutdown comes as a message (see ../cluster/shutdown-message.ts).
  process.on('message', (message) => {
    if (isShutdownMessage(message) && !closing) closer.close();
  });
  const address = await listening;
  if (cluster.isPrimary) console.log(`Chat on ${address}`);
}
