/**
 * Scenario 13: Tern with one rate-limited route counted in Redis (`redisStore`), against
 * `fastify-limit-redis` on the same Redis.
 */
import { redisStore, TernApp } from '@tern/core';
import { BENCH_LIMIT, BENCH_WINDOW_MS, benchRedisUrl } from '../shared/store-bench';
import type { StartServer } from './types';

export const start: StartServer = async (options) => {
  const store = redisStore({ url: benchRedisUrl(), keyPrefix: `bench:tern:${process.pid}:` });
  await store.ping();
  const app = new TernApp({ store });
  app.get('/', { rateLimit: { limit: BENCH_LIMIT, window: BENCH_WINDOW_MS } }, async () => ({ hello: 'world' }));
  await app.listen({ port: options.port, host: options.host });
  return { close: () => app.close() };
};
