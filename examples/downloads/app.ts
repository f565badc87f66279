/**
 * Files and live updates: a page (served by res.file) that follows an event stream, file
 * downloads through res.file (with Range, so interrupted downloads resume), and a CSV export
 * streamed row by row with res.stream.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { compress, TernApp } from '@tern/core';

/** The folders next to this file (also when run compiled from examples/dist/downloads). */
function folder(name: string): string {
  const beside = join(__dirname, name);
  return existsSync(beside) ? beside : join(__dirname, '..', '..', 'downloads', name);
}

export const PUBLIC = folder('public');
export const FILES = folder('files');

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

export function buildApp(options: { tickMs?: number } = {}): TernApp {
  const tickMs = options.tickMs ?? 1000;
  const app = new TernApp();
  app.addMiddleware(compress());

  // GET /files/report.csv: sent as a download, with ETag, Last-Modified and Range support.
  app.get('/files/{name}', async (req, res, { name }) => res.file(name, { root: FILES, download: true, maxAge: '1h' }));

  // A generated export, streamed: the server never holds the whole CSV in memory.
  app.get('/export.csv', async (req, res) =>
    res.stream(
      (async function* () {
        yield 'id,name\n';
        for (let id = 1; id <= 1000; id++) yield `${id},item ${id}\n`;
      })(),
      'text/csv; charset=utf-8',
    ),
  );

  // Server-sent events: one tick per second; a reconnecting browser resumes after Last-Event-ID.
  app.get('/events', { sse: true, summary: 'Clock ticks as server-sent events' }, async (req, res) => {
    const from = Number(req.lastEventId ?? 0) + 1;
    const stop = new AbortController();
    return res.sse(
      (async function* () {
        try {
          for (let n = from; ; n++) {
            yield { event: 'tick', id: String(n), data: { n, at: new Date().toISOString() } };
            await sleep(tickMs, stop.signal);
          }
        } finally {
          // Runs when the browser goes away or the app closes.
          stop.abort();
        }
      })(),
      { heartbeat: 15_000 },
    );
  });

  // The page. A folder of assets would be `app.mountRouter(serveStatic(PUBLIC, { prefix: '/' }))`.
  app.get('/', async (req, res) => res.file('index.html', { root: PUBLIC }));
  return app;
}
