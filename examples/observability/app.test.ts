/**
 * The observability example as an operator sees it: JSON log lines, spans exported in memory
 * (names, routes, statuses, recorded errors) and Prometheus metrics scraped as text. Traces run in
 * a forked process (`traced-child.ts`): the HTTP instrumentation patches node:http through a
 * require hook that jest's module registry bypasses, and wraps the server, which inject() skips.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import pino from 'pino';
import type { TernApp } from '@tern/core';
import { ROOT_DIR, SOURCE_ENV, SOURCE_EXEC_ARGV } from '../../test-support/source-process';
import { buildApp } from './app';
import type { SpanRecord } from './traced-child';

type Line = Record<string, unknown>;

function get(base: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function until(check: () => boolean, ms = 3_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** The traced example in a child process, its address, and a way to collect its finished spans. */
function startTracedChild(): Promise<{ child: ChildProcess; base: string }> {
  const child = fork(join(__dirname, 'traced-child.ts'), [], {
    cwd: ROOT_DIR,
    execArgv: SOURCE_EXEC_ARGV,
    env: { ...process.env, ...SOURCE_ENV },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve({ child, base: (message as { address: string }).address }));
    child.once('exit', (code) => reject(new Error(`the traced example exited with ${code}`)));
  });
}

function spansOf(child: ChildProcess): Promise<SpanRecord[]> {
  return new Promise((resolve) => {
    child.once('message', (message) => resolve((message as { spans: SpanRecord[] }).spans));
    child.send('spans');
  });
}

const SERVER = 1; // SpanKind.SERVER
const ERROR = 2; // SpanStatusCode.ERROR

describe('observability example: traces', () => {
  let child: ChildProcess;
  let base: string;

  // ts-node transpiles Tern's sources in the child: slow on a busy machine.
  beforeAll(async () => {
    ({ child, base } = await startTracedChild());
  }, 120_000);

  // The child keeps its spans in memory only: ending it is all the cleanup there is.
  afterAll(async () => {
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill();
    await exited;
  });

  /** Waits until the child has `count` server spans finished (they end once the response is out). */
  async function serverSpans(count: number): Promise<{ server: SpanRecord[]; all: SpanRecord[] }> {
    const all: SpanRecord[] = [];
    const deadline = Date.now() + 3_000;
    while (all.filter((span) => span.kind === SERVER).length < count && Date.now() < deadline) all.push(...(await spansOf(child)));
    return { server: all.filter((span) => span.kind === SERVER), all };
  }

  it('names the server span by method and route template, with http.route', async () => {
    expect((await get(base, '/users/1')).status).toBe(200);
    const { server } = await serverSpans(1);
    expect(server).toHaveLength(1);
    expect(server[0].name).toBe('GET /users/{id}');
    expect(server[0].attributes).toMatchObject({ 'http.route': '/users/{id}' });
    expect(server[0].attributes['http.response.status_code'] ?? server[0].attributes['http.status_code']).toBe(200);
  });

  it('records errors on the server and handler spans; 4xx answers are not errors', async () => {
    expect((await get(base, '/reports/2024')).status).toBe(500);
    expect((await get(base, '/users/9')).status).toBe(404);
    const { server, all } = await serverSpans(2);
    const [failed, missing] = server;
    expect(failed.name).toBe('GET /reports/{year}');
    expect(failed.status).toBe(ERROR);
    expect(failed.events.map((event) => event.name)).toContain('exception');
    expect(JSON.stringify(failed.events)).toContain('the reporting database is down');
    expect(missing.name).toBe('GET /users/{id}');
    expect(missing.status).not.toBe(ERROR);
    expect(missing.events).toEqual([]);

    const handler = all.find((span) => span.name === 'handler GET /reports/{year}');
    expect(handler?.status).toBe(ERROR);
    // The handler span is a child of the server span, in the same trace.
    expect(handler?.parentSpanId).toBe(failed.spanId);
    expect(handler?.traceId).toBe(failed.traceId);
  });

  it('keeps unmatched requests under one span name', async () => {
    await get(base, '/no/such/path');
    await get(base, '/another/one');
    const { server, all } = await serverSpans(2);
    expect(server.map((span) => span.name)).toEqual(['GET', 'GET']);
    expect(server.every((span) => !('http.route' in span.attributes))).toBe(true);
    expect(all.filter((span) => span.name === 'handler GET unmatched')).toHaveLength(2);
  });
});

describe('observability example: logs and metrics', () => {
  const lines: Line[] = [];
  let app: TernApp;
  let base: string;

  beforeAll(async () => {
    app = buildApp(pino({}, { write: (line: string) => void lines.push(JSON.parse(line) as Line) }));
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(() => app.close());

  beforeEach(() => {
    lines.length = 0;
  });

  it('logs one JSON line per request with the id the proxy sent, and the failure with the same id', async () => {
    const response = await get(base, '/reports/2023', { 'x-request-id': 'trace-me-1' });
    expect(response.headers['x-request-id']).toBe('trace-me-1');
    expect(JSON.parse(response.body)).toMatchObject({ status: 500, requestId: 'trace-me-1' });
    await until(() => lines.some((line) => line.msg === 'request completed'));
    expect(lines.filter((line) => line.reqId === 'trace-me-1').map((line) => line.msg)).toEqual(['request failed', 'request completed']);
    expect(lines.find((line) => line.msg === 'request completed')).toMatchObject({ route: '/reports/{year}', statusCode: 500, method: 'GET' });
  });

  it('exposes Prometheus metrics by route template, unmatched under one label, with process metrics', async () => {
    await get(base, '/users/1');
    await get(base, '/users/2');
    await get(base, '/users/9');
    await get(base, '/random/a');
    await get(base, '/random/b');
    const scrape = await get(base, '/metrics');
    expect(scrape.status).toBe(200);
    expect(scrape.headers['content-type']).toContain('text/plain');
    const text = scrape.body;
    const count = (labels: string) => Number(new RegExp(`^http_request_duration_seconds_count\\{${labels}\\} (\\d+)$`, 'm').exec(text)?.[1]);
    expect(count('method="GET",route="/users/\\{id\\}",status_code="200"')).toBeGreaterThanOrEqual(2);
    expect(count('method="GET",route="/users/\\{id\\}",status_code="404"')).toBeGreaterThanOrEqual(1);
    expect(count('method="GET",route="unmatched",status_code="404"')).toBeGreaterThanOrEqual(2);
    expect(text).not.toContain('/random/');
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(text).toMatch(/^nodejs_heap_size_used_bytes \d/m);
  });

  it('keeps /metrics out of the public document', async () => {
    const document = JSON.parse((await get(base, '/openapi.json')).body) as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths)).toEqual(['/users/{id}', '/reports/{year}']);
  });
});
