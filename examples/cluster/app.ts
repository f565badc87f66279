/**
 * The application every cluster worker runs: a couple of routes plus the two probes a load
 * balancer or an orchestrator asks. Liveness (`/healthz`) says the process runs; readiness
 * (`/readyz`) says it wants new traffic, and turns 503 as soon as shutdown begins, before the
 * server stops accepting, so a balancer polling it moves traffic away first.
 */
import cluster from 'node:cluster';
import { setTimeout as sleep } from 'node:timers/promises';
import { TernApp } from '@tern/core';
import { exampleOpenAPI } from '../shared/openapi';

/** The longest `/slow` wait, so a query string cannot hold a worker's shutdown for long. */
const MAX_SLOW_MS = 10_000;

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
export function buildApp(options: { closeTimeoutMs?: number } = {}): { app: TernApp; readiness: Readiness } {
  const readiness = new Readiness();
  const app = new TernApp({
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
      summary: 'Answers after `ms` milliseconds (at most 10000)',
      description: 'Stands for slow work; shutdown lets it finish.',
      tags: ['cluster'],
      parameters: [{ name: 'ms', in: 'query', description: 'How long to wait (0–10000, default 300).', schema: { type: 'integer', minimum: 0, maximum: 10000, default: 300 } }],
    },
    async (req) => {
    const asked = Number(req.queryParams.get('ms') ?? 300);
    const waitedMs = Number.isFinite(asked) ? Math.min(Math.max(Math.trunc(asked), 0), MAX_SLOW_MS) : 300;
    await sleep(waitedMs);
    return { pid: process.pid, waitedMs };
  });

  app.get('/healthz', { excludeFromSchema: true }, async () => ({ status: 'ok' }));
  app.get('/readyz', { excludeFromSchema: true }, async (_req, res) =>
    readiness.ready ? { status: 'ready' } : res.json({ status: 'closing' }, 503),
  );

  return { app, readiness };
}
