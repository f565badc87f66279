/**
 * The application every cluster worker runs: a couple of routes plus the two probes a load
 * balancer or an orchestrator asks. Liveness (`/healthz`) says the process runs; readiness
 * (`/readyz`) says it wants new traffic, and turns 503 as soon as shutdown begins, before the
 * server stops accepting, so a balancer polling it moves traffic away first.
 */
import cluster from 'node:cluster';
import { setTimeout as sleep } from 'node:timers/promises';
import { randomBytes } from 'node:crypto';
import { session, TernApp, type TernStore } from '@tern/core';
import { exampleOpenAPI } from '../shared/openapi';

/** The longest `/slow` wait, so a query string cannot hold a worker's shutdown for long. */
const MAX_SLOW_MS = 5_000;

/**
 * Whether this process should receive new requests. Starts ready (the server only listens once
 * the app is compiled) and never becomes ready again once closing starts.
 *
 * @example
 * const readiness = new Readiness();
 * readiness.startClosing(); // /readyz answers 503 from now on
 */
export class Readiness {
  private closing = false;

  get ready(): boolean {
    return !this.closing;
  }

  startClosing(): void {
    this.closing = true;
  }
}

/**
 * Builds the worker's app and the readiness flag its shutdown flips.
 *
 * @example
 * const { app, readiness } = buildApp();
 * await app.listen({ port: 3000 });
 */
export function buildApp(options: { closeTimeoutMs?: number; store?: TernStore; sessionSecret?: string; rateLimit?: number } = {}): { app: TernApp; readiness: Readiness } {
  const readiness = new Readiness();
  const app = new TernApp({
    // Rate limits and sessions: redisStore() in the workers when REDIS_URL is set, else memory.
    store: options.store,
    // close() waits this long for in-flight requests, then cuts what is left.
    server: { closeTimeout: options.closeTimeoutMs ?? 10_000 },
    openapi: exampleOpenAPI({
      title: 'Tern cluster example',
      description: 'One app served by several worker processes, shut down without dropping a request.',
      tags: [{ name: 'cluster', description: 'Which worker answered, and how shutdown waits for slow requests.' }],
    }),
  });
  const workerId = cluster.worker?.id ?? null;

  app.get('/', { summary: 'Which process answered', description: 'The pid and cluster worker id of the process that served this request.', tags: ['cluster'] }, async () => ({ pid: process.pid, worker: workerId }));

  // Stands for real work (a database call, an upstream request) that shutdown must let finish.
  app.get(
    '/slow',
    {
      summary: 'Answers after `ms` milliseconds (at most 5000)',
      description: 'Stands for slow work; shutdown lets it finish.',
      tags: ['cluster'],
      parameters: [{ name: 'ms', in: 'query', description: 'How long to wait (0–5000, default 300).', schema: { type: 'integer', minimum: 0, maximum: 5000, default: 300 } }],
    },
    async (req) => {
    const asked = Number(req.queryParams.get('ms') ?? 300);
    const waitedMs = Number.isFinite(asked) ? Math.min(Math.max(Math.trunc(asked), 0), MAX_SLOW_MS) : 300;
    await sleep(waitedMs);
    return { pid: process.pid, waitedMs };
  });

  // One quota per client across every worker, when they share a Redis.
  app.get(
    '/limited',
    {
      summary: 'A rate-limited answer',
      description: 'At most `RATE_LIMIT` requests per minute per client address, counted in the shared store.',
      tags: ['cluster'],
      rateLimit: { limit: options.rateLimit ?? 100, window: 60_000 },
    },
    async () => ({ pid: process.pid, worker: workerId }),
  );

  // One session per visitor across every worker, when they share a Redis.
  app.addMiddleware(session({ secret: options.sessionSecret ?? randomBytes(32).toString('base64url') }));
  app.post(
    '/visits',
    {
      summary: "Counts this visitor's visits in their session",
      description: 'Adds one to the `visits` of the session its cookie names, whichever worker answers, when the workers share a Redis.',
      tags: ['cluster'],
    },
    async (req) => {
      const visits = (req.session.get<number>('visits') ?? 0) + 1;
      req.session.set('visits', visits);
      return { visits, pid: process.pid };
    },
  );

  app.get('/healthz', { excludeFromSchema: true }, async () => ({ status: 'ok' }));
  app.get('/readyz', { excludeFromSchema: true }, async (_req, res) =>
    readiness.ready ? { status: 'ready' } : res.json({ status: 'closing' }, 503),
  );

  return { app, readiness };
}
