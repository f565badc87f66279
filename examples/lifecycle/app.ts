/**
 * Lifecycle and observability: an access log written with pino from `app.onResponse`, a request
 * id carried in `req.state` and echoed in `X-Request-Id`, a slow report that stops when its
 * client goes away (`req.signal`), and a store released by `app.onClose` once the server stopped.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { HTTPException, TernApp, type Middleware, type TernAppOptions } from '@tern/core';
import pino, { type Logger } from 'pino';
import { exampleOpenAPI } from '../shared/openapi';

/** Something the app holds open for its whole life (a database pool in a real app). */
export class ReportStore {
  closed = false;

  async build(id: number, signal: AbortSignal): Promise<{ id: number; rows: number }> {
    // A slow query: abandoned (rejects with an AbortError) when the client disconnects.
    await sleep(50, undefined, { signal });
    return { id, rows: id * 10 };
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

/** An id the client (or the proxy in front) may send; anything else is replaced. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Reads `X-Request-Id` or makes one, keeps it in `req.state.requestId` and sends it back. */
export const requestId: Middleware = async (req, res, next) => {
  const sent = req.headers.get('x-request-id');
  const id = sent !== undefined && REQUEST_ID.test(sent) ? sent : randomUUID();
  req.state.requestId = id;
  res.setHeader('X-Request-Id', id);
  return next();
};

export interface BuildOptions {
  /** Where the access log goes (default: a silent logger). */
  log?: Logger;
  store?: ReportStore;
  trustProxy?: TernAppOptions['trustProxy'];
  /** Which headers the trusted proxy writes: `X-Forwarded-*` (default) or RFC 7239 `Forwarded`. */
  proxyHeaders?: TernAppOptions['proxyHeaders'];
}

export function buildApp({ log = pino({ level: 'silent' }), store = new ReportStore(), trustProxy = false, proxyHeaders }: BuildOptions = {}): TernApp {
  const app = new TernApp({
    openapi: exampleOpenAPI({
      title: 'Reports (lifecycle)',
      description: 'Slow reports that stop when the client leaves; an access log and request ids.',
      tags: [{ name: 'reports', description: 'Reports built on demand.' }],
    }),
    // close() gives in-flight requests 10 s, then cuts what is left (and aborts their signals).
    server: { closeTimeout: 10_000 },
    // req.ip is the client's address only when the proxy in front is trusted (docs/proxies.md).
    trustProxy,
    proxyHeaders,
    logger: { error: (message: string, err: unknown) => log.error({ err }, message) },
  });
  // Outermost: 404s and errors carry the id too.
  app.addMiddleware(requestId);

  app.onResponse((req, res, { statusCode, durationMs, route, aborted }) => {
    log.info(
      {
        reqId: req.state.requestId,
        method: req.method,
        path: req.url.path,
        route: route?.rawPath,
        statusCode,
        durationMs: Math.round(durationMs * 10) / 10,
        ip: req.ip,
        ...(aborted ? { aborted } : {}),
      },
      'request completed',
    );
  });
  app.onClose(() => store.close());

  app.get('/reports/{id:int}', { name: 'report', summary: 'Build a report', description: 'Builds the report, stopping early when the client goes away (req.signal).', tags: ['reports'], problems: { 404: 'No such report' } }, async (req, res, { id }) => {
    if (id > 1000) throw new HTTPException(404, `No report ${id}`);
    return store.build(id, req.signal);
  });
  return app;
}
