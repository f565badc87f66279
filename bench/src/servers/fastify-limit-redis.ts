/**
 * Scenario 13: Fastify with @fastify/rate-limit counting in Redis (its `redis` option, an ioredis
 * client), one route, as its README shows; against `tern-limit-redis` on the same Redis.
 */
import rateLimit from '@fastify/rate-limit';
import Fastify from 'fastify';
import { Redis } from 'ioredis';
import { BENCH_LIMIT, BENCH_WINDOW_MS, benchRedisUrl } from '../shared/store-bench';
import type { StartServer } from './types';

export const start: StartServer = async (options) => {
  const redis = new Redis(benchRedisUrl(), { keyPrefix: `bench:fastify:${process.pid}:`, connectTimeout: 1000, maxRetriesPerRequest: 1 });
  await redis.ping();
  const app = Fastify({ logger: false });
  await app.register(rateLimit, { max: BENCH_LIMIT, timeWindow: BENCH_WINDOW_MS, redis });
  app.get('/', async () => ({ hello: 'world' }));
  await app.listen({ port: options.port, host: options.host });
  return {
    close: async () => {
      await app.close();
      redis.disconnect();
    },
  };
};
