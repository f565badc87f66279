/**
 * Prometheus metrics with prom-client: a request-duration histogram labelled by method, route
 * template and status, Node's default process metrics, and `/metrics` to scrape them.
 */
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import type { TernApp } from '@tern/core';

/** The `route` label of requests no route matched: one series, whatever paths clients send. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Adds the histogram (fed by `onResponse`), the default metrics and `GET /metrics` (kept out of
 * the OpenAPI document) to `app`; returns the registry.
 *
 * @example
 * const registry = addMetrics(app);
 */
export function addMetrics(app: TernApp, registry = new Registry()): Registry {
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from the request reaching Tern to the response being written, by route template.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  app.onResponse((req, _res, { statusCode, durationMs, route }) => {
    // The template, never the path: `/users/7` and `/users/8` are one series.
    duration.observe({ method: req.method, route: route?.template ?? UNMATCHED_ROUTE, status_code: statusCode }, durationMs / 1000);
  });
  app.get('/metrics', { excludeFromSchema: true }, async (_req, res) => res.text(await registry.metrics()).setHeader('content-type', registry.contentType));
  return registry;
}
