/**
 * Files and live updates: a page (served by res.file) that follows an event stream, uploads a
 * file (multipart), downloads files through res.file (with Range, so interrupted downloads resume)
 * and a CSV export streamed row by row with res.stream, and calls a second origin, an API that
 * answers with CORS for the page's origin and credentials (`buildApi`).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { compress, cors, HTTPException, TernApp } from '@tern/core';
import { exampleOpenAPI } from '../shared/openapi';

/** The folders next to this file (also when run compiled from examples/dist/downloads). */
function folder(name: string): string {
  const beside = join(__dirname, name);
  return existsSync(beside) ? beside : join(__dirname, '..', '..', 'downloads', name);
}

export const PUBLIC = folder('public');
export const FILES = folder('files');

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const onAbort = () => (clearTimeout(timer), resolve());
    // Removed after each tick: a stream that runs long would pile up listeners on its signal.
    const timer = setTimeout(() => (signal?.removeEventListener('abort', onAbort), resolve()), ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

export interface AppOptions {
  /** Milliseconds between clock ticks (1000). */
  tickMs?: number;
  /** The origin of the API the page calls cross-origin (see `buildApi`), served as /config.json; read on each request, so a getter works when the API starts after the page. */
  apiOrigin?: string;
}

export function buildApp(options: AppOptions = {}): TernApp {
  const tickMs = options.tickMs ?? 1000;
  const app = new TernApp({
    openapi: exampleOpenAPI({
      title: 'Downloads, events and uploads',
      description: 'Files with ranges, a streamed CSV export, server-sent events and uploads, used by a page.',
      tags: [
        { name: 'files', description: 'Downloads and uploads.' },
        { name: 'events', description: 'Server-sent events.' },
        { name: 'page', description: 'The page and its settings.' },
      ],
    }),
  });
  app.addMiddleware(compress());

  // GET /files/report.csv: sent as a download, with ETag, Last-Modified and Range support.
  app.get('/files/{name}', { summary: 'Download a file', description: 'Sends the file as an attachment, with Range, ETag and Last-Modified.', tags: ['files'], produces: { 200: 'application/octet-stream' }, problems: { 404: 'No such file' } }, async (req, res, { name }) => res.file(name, { root: FILES, download: true, maxAge: '1h' }));

  // A generated export, streamed: the server never holds the whole CSV in memory.
  app.get('/export.csv', { summary: 'Export as CSV', description: 'Rows streamed as they are produced.', tags: ['files'], produces: { 200: 'text/csv' } }, async (req, res) =>
    res.stream(
      (async function* () {
        yield 'id,name\n';
        for (let id = 1; id <= 1000; id++) yield `${id},item ${id}\n`;
      })(),
      'text/csv; charset=utf-8',
    ),
  );

  // Server-sent events: one tick per second; a reconnecting browser resumes after Last-Event-ID.
  app.get('/events', { sse: true, summary: 'Clock ticks as server-sent events', description: 'One event per tick until the client leaves or the app closes.', tags: ['events'] }, async (req, res) => {
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

  // An upload from the page (fetch + FormData): one file, held in memory within limits.
  app.post('/uploads', { statusCode: 201, summary: 'Upload one file', description: 'One file of at most 1 MiB, answered with its name, size and type.', tags: ['files'], consumes: ['multipart/form-data'], problems: { 422: "No file in the field 'file'" } }, async (req) => {
    const { files } = await req.multipart({ limits: { fileSize: 1024 * 1024, files: 1, fields: 1 } });
    const [file] = files;
    if (!file || file.fieldName !== 'file') throw new HTTPException(422, "Send the file in the field 'file'.");
    // The client's file name is only echoed back, never used as a path.
    return { name: file.filename, size: file.size, type: file.mimeType };
  });

  // Where the page's script finds the API it calls cross-origin.
  app.get('/config.json', { summary: 'Where the API is', description: 'The origin of the API the page calls cross-origin.', tags: ['page'] }, async () => ({ api: options.apiOrigin ?? null }));

  // The page. A folder of assets would be `app.mountRouter(serveStatic(PUBLIC, { prefix: '/' }))`.
  app.get('/', { summary: 'The page', description: 'The page that follows events, uploads, downloads and calls the API.', tags: ['page'], produces: { 200: 'text/html' } }, async (req, res) => res.file('index.html', { root: PUBLIC }));
  return app;
}

/**
 * The API on a second origin: only `frontend` (the page's origin) may read its answers, cookies
 * included. A page on any other origin gets an answer the browser refuses to hand to its script.
 */
export function buildApi(frontend: string): TernApp {
  const api = new TernApp();
  // Outermost, so errors carry the CORS headers too.
  api.addMiddleware(cors({ origin: frontend, credentials: true, exposedHeaders: ['X-Served-By'] }));
  api.get('/greeting', async (req, res) =>
    res.setHeader('X-Served-By', 'api').json({ hello: req.cookies.get('visitor') ?? 'stranger', from: req.headers.get('origin') }),
  );
  return api;
}
