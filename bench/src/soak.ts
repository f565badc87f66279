/**
 * `npm run soak` — a durability soak test of Tern (not part of `npm test`). See docs/performance.md.
 *
 *   node bench/dist/soak.js [--duration 60] [--rounds 3] [--connections 20] [--raw-clients 4]
 *
 * A Tern server runs in a child process (`--expose-gc`, this same file with `--child <port>`)
 * with routes that answer 200/201, 404, 405, 413, 422 (converter and body validation) and 500 (a
 * throwing handler, logger off), and a body-reading route that clients abandon mid-body. This
 * process drives mixed traffic at full rate: autocannon cycling through a `requests` array of
 * those requests over keep-alive connections, plus a few clients on raw sockets that alternately
 * send part of a body and destroy the connection, and send a body over the limit (413, after
 * which the server closes the connection: kept out of autocannon, which would write its next
 * request onto that closing connection and lose it). `soak/extras.ts` adds the attack bodies of
 * the hardening issues (1 MiB arrays, 90k junk keys, 1 MiB of `{}` items to class-validator
 * fallback models) and everyday HTTP (a custom converter,
 * multipart uploads, an upload aborted half-way, `res.file` with and without Range, an SSE
 * stream per round). `soak/stalled.ts` adds stalled readers: clients that request a 32 MiB file
 * or a ~16 MB JSON answer and never read, which the child's send timeout must cut (its open
 * descriptors are reported with the heap).
 *
 * A warm-up round, then `--rounds` measured rounds of `--duration` seconds each. After every
 * round the load stops, the child reports `server.getConnections()` until it is 0 (idle
 * keep-alive connections must time out: at most the keep-alive timeout plus a margin), then
 * forces two GCs and reports `heapUsed`. The soak passes when the heap after GC of every measured
 * round stays within +10% of the warm-up round's, the child never crashed and no connection
 * stayed open. Every loop is bounded in count and time; the child is always killed.
 */
import 'reflect-metadata';
import { MakeConfig, TernApp } from '@tern/core';
import autocannon from 'autocannon';
import { ChildProcess, spawn } from 'node:child_process';
import * as net from 'node:net';
import * as os from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { request } from './harness/checks';
import { runAutocannon } from './harness/load';
import { freePort } from './harness/children';
import { ItemDto } from './shared/item-dto';
import { ITEM_JSON, makeItem } from './shared/payload';
import { addExtraRoutes, BIG_BODY_BYTES, checkExtraRoutes, EXTRA_REQUESTS, extrasClient, type ExtrasCounts } from './soak/extras';
import { addStalledRoutes, openDescriptors, STALL_SEND_TIMEOUT_MS, stalledReaders, type StalledCounts } from './soak/stalled';

const HOST = '127.0.0.1';
/** The child's body limit: the 1 MiB attack bodies fit, the oversized upload does not. */
const BODY_LIMIT = BIG_BODY_BYTES + 64 * 1024;
/** The child's keep-alive timeout (Tern's default): idle connections must be gone soon after. */
const KEEP_ALIVE_MS = 5_000;
/** Node 20 closes an idle keep-alive connection about 1 s after keepAliveTimeout; then a margin. */
const CONNECTIONS_GONE_WITHIN_MS = KEEP_ALIVE_MS + 4_000;
/** Heap after GC may grow by at most this much over the warm-up round's. */
const HEAP_TOLERANCE = 0.1;
/** Keep-alive connections left idle after each round: the server must time them out. */
const IDLE_CONNECTIONS = 5;
/** Each raw-socket client stops after this many connections, or at the end of the round. */
const MAX_RAW_PER_CLIENT = 200_000;

// ---------------------------------------------------------------------------------------------
// Messages between this runner and the server child (Node IPC).

type Command = { type: 'heap' } | { type: 'connections' } | { type: 'stats' } | { type: 'close' };

interface ServerStats {
  /** Responses fully written, by status. */
  statuses: Record<string, number>;
  /** Requests whose connection closed before their response was written. */
  abandoned: number;
  /** Bodies whose reading failed because the client went away. */
  clientAborts: number;
  /** process 'warning' events (MaxListenersExceededWarning would be a leak). */
  warnings: string[];
}

type Reply =
  | { type: 'ready' }
  | { type: 'heap'; heapUsed: number; rss: number; external: number; descriptors: number }
  | { type: 'connections'; count: number }
  | ({ type: 'stats' } & ServerStats);

// ---------------------------------------------------------------------------------------------
// The server child.

async function runChild(port: number): Promise<void> {
  const send = (msg: Reply) => {
    if (process.connected) process.send?.(msg);
  };
  // Die with the runner, whatever happens to it.
  process.on('disconnect', () => process.exit(0));

  const stats: ServerStats = { statuses: {}, abandoned: 0, clientAborts: 0, warnings: [] };
  process.on('warning', (w) => {
    if (stats.warnings.length < 20) stats.warnings.push(`${w.name}: ${w.message}`);
  });

  const app = new TernApp({
    config: new MakeConfig({ bodyLimit: BODY_LIMIT }),
    logger: false,
    server: { keepAliveTimeout: KEEP_ALIVE_MS, sendTimeout: STALL_SEND_TIMEOUT_MS },
  });
  app.addMiddleware(async (_req, res, next) => {
    const raw = res.raw;
    raw.once('close', () => {
      if (raw.writableFinished) stats.statuses[raw.statusCode] = (stats.statuses[raw.statusCode] ?? 0) + 1;
      else stats.abandoned++;
    });
    return next();
  });
  app.get('/hello', async () => ({ hello: 'world' }));
  app.get('/users/{id:int}', async (_req, _res, { id }) => ({ id }));
  app.get('/search', async (req) => ({ q: req.queryParams.get('q'), page: req.queryParams.get('page'), ua: req.headers.get('user-agent') }));
  let nextId = 0;
  app.post('/items', { requestModel: ItemDto, statusCode: 201 }, async (req) => ({ id: ++nextId, ...(req.body as object) }));
  app.post('/upload', async (req) => {
    try {
      return { bytes: (await req.text()).length };
    } catch (err) {
      if ((err as { code?: string }).code === 'TERN_CLIENT_ABORTED') stats.clientAborts++;
      throw err;
    }
  });
  app.get('/boom', async () => {
    throw new Error('boom');
  });
  addExtraRoutes(app, () => stats.clientAborts++);
  addStalledRoutes(app);
  await app.listen({ port, host: HOST });
  const server = app.server!;

  const gc = (globalThis as { gc?: () => void }).gc;
  process.on('message', (msg: Command) => {
    switch (msg.type) {
      case 'heap': {
        gc?.();
        gc?.();
        const mem = process.memoryUsage();
        send({ type: 'heap', heapUsed: mem.heapUsed, rss: mem.rss, external: mem.external, descriptors: openDescriptors() });
        break;
      }
      case 'connections':
        server.getConnections((_err, count) => send({ type: 'connections', count }));
        break;
      case 'stats':
        send({ type: 'stats', ...stats });
        break;
      case 'close':
        void Promise.race([app.close(), sleep(2000)]).then(() => process.exit(0));
        break;
    }
  });
  if (!gc) throw new Error('the soak child needs --expose-gc');
  send({ type: 'ready' });
}

// ---------------------------------------------------------------------------------------------
// The runner.

interface Options {
  duration: number;
  rounds: number;
  connections: number;
  rawClients: number;
}

const HELP = `Usage: node bench/dist/soak.js [options]   (or: npm run soak -- [options])

  --duration <s>      seconds of load per round (default 60)
  --rounds <n>        measured rounds after the warm-up round (default 3)
  --connections <n>   autocannon connections (default 20)
  --raw-clients <n>   concurrent raw-socket clients that alternately abandon a request mid-body and
                      send a body over the limit (default 4)
  --help
`;

function positive(name: string, value: string | undefined, fallback: number, integer: boolean): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) {
    throw new Error(`--${name} must be a positive ${integer ? 'integer' : 'number'}, got "${value}"`);
  }
  return n;
}

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      duration: { type: 'string' },
      rounds: { type: 'string' },
      connections: { type: 'string' },
      'raw-clients': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    process.stdout.write(HELP);
    process.exit(0);
  }
  return {
    duration: positive('duration', values.duration, 60, false),
    rounds: positive('rounds', values.rounds, 3, true),
    connections: positive('connections', values.connections, 20, true),
    rawClients: values['raw-clients'] === '0' ? 0 : positive('raw-clients', values['raw-clients'], 4, true),
  };
}

const log = (s: string) => process.stderr.write(s + '\n');

class SoakChild {
  readonly proc: ChildProcess;
  /** Why the child exited, once it has. */
  exit: string | null = null;
  stopping = false;
  private readonly waiters = new Map<Reply['type'], (msg: Reply) => void>();
  private readonly exitWaiters: Array<(why: string) => void> = [];

  constructor(port: number) {
    this.proc = spawn(process.execPath, ['--expose-gc', __filename, '--child', String(port)], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env, NODE_ENV: 'production' },
    });
    this.proc.on('message', (msg: Reply) => {
      const waiter = this.waiters.get(msg.type);
      this.waiters.delete(msg.type);
      waiter?.(msg);
    });
    const exited = (why: string) => {
      if (this.exit !== null) return;
      this.exit = why;
      for (const w of this.exitWaiters.splice(0)) w(why);
    };
    this.proc.on('error', (err) => exited(`spawn error: ${err.message}`));
    this.proc.on('exit', (code, signal) => exited(`exited (code ${code}, signal ${signal})`));
  }

  get alive(): boolean {
    return this.exit === null;
  }

  /** Waits for the child's next message of `type` (after sending `command`, if any). */
  ask<T extends Reply['type']>(type: T, command: Command | null, timeoutMs: number): Promise<Extract<Reply, { type: T }>> {
    return new Promise((resolve, reject) => {
      if (this.exit !== null) return reject(new Error(`server child ${this.exit}`));
      const timer = setTimeout(() => {
        this.waiters.delete(type);
        reject(new Error(`server child: no '${type}' answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.set(type, (msg) => {
        clearTimeout(timer);
        resolve(msg as Extract<Reply, { type: T }>);
      });
      this.exitWaiters.push((why) => {
        clearTimeout(timer);
        reject(new Error(`server child ${why}`));
      });
      if (command && this.proc.connected) this.proc.send(command);
    });
  }

  /** Asks the child to close, then SIGKILLs it after `graceMs`. */
  async stop(graceMs = 3000): Promise<void> {
    this.stopping = true;
    if (this.exit !== null) return;
    const gone = new Promise<void>((resolve) => this.exitWaiters.push(() => resolve()));
    if (this.proc.connected) this.proc.send({ type: 'close' } satisfies Command);
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), graceMs);
    await gone;
    clearTimeout(timer);
  }

  kill(): void {
    if (this.exit === null) this.proc.kill('SIGKILL');
  }
}

// ----- load

interface SoakRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** What the server must answer (checked once before the load). */
  expect: number;
}

const json = { 'content-type': 'application/json' };
const badItem = JSON.stringify({ ...makeItem(), price: 'free' });
/** Declared over the limit; only its first 8 KiB are sent (the server answers 413 on the declared length). */
const OVERSIZED = BODY_LIMIT + 1;

/** What autocannon cycles through, on every connection. */
const REQUESTS: SoakRequest[] = [
  { method: 'GET', path: '/hello', expect: 200 },
  { method: 'GET', path: '/users/42', expect: 200 },
  { method: 'POST', path: '/items', headers: json, body: ITEM_JSON, expect: 201 },
  { method: 'GET', path: '/users/forty-two', expect: 422 },
  { method: 'POST', path: '/items', headers: json, body: badItem, expect: 422 },
  { method: 'GET', path: '/search?q=tern&page=2', headers: { 'user-agent': 'soak' }, expect: 200 },
  { method: 'GET', path: '/nowhere/to/be/found', expect: 404 },
  { method: 'DELETE', path: '/hello', expect: 405 },
  { method: 'GET', path: '/boom', expect: 500 },
  { method: 'POST', path: '/upload', headers: { 'content-type': 'text/plain' }, body: 'small body', expect: 200 },
  ...EXTRA_REQUESTS,
];

/** Every route answers what the soak expects of it, before any load. */
async function checkRoutes(port: number): Promise<void> {
  for (const r of REQUESTS.filter((r) => !EXTRA_REQUESTS.includes(r))) {
    const reply = await request(port, HOST, r.method, r.path, r.body);
    if (reply.status !== r.expect) {
      throw new Error(`${r.method} ${r.path}: status ${reply.status}, expected ${r.expect}; body ${reply.text.slice(0, 200)}`);
    }
  }
  if ((await rawOnce(port, 'oversized', 0)) !== '413') throw new Error('POST /upload over the body limit: no 413');
  await checkExtraRoutes(port, HOST);
}

function driveMixedTraffic(port: number, o: Options): Promise<autocannon.Result> {
  const options = {
    url: `http://${HOST}:${port}`,
    connections: o.connections,
    duration: o.duration,
    pipelining: 1,
    timeout: 10,
    requests: REQUESTS.map(({ method, path, headers, body }) => ({ method, path, headers, body })),
  } as autocannon.Options;
  return runAutocannon(options, o.duration);
}

const ABORT_HEAD =
  `POST /upload HTTP/1.1\r\nHost: soak\r\nContent-Type: text/plain\r\nContent-Length: ${BODY_LIMIT - 96}\r\n\r\n` + 'a'.repeat(512);
const OVERSIZED_REQUEST =
  `POST /upload HTTP/1.1\r\nHost: soak\r\nContent-Type: text/plain\r\nContent-Length: ${OVERSIZED}\r\n\r\n` + 'u'.repeat(8192);

/**
 * One raw connection, bounded by a 2 s timeout. `abort`: send a request head and part of its
 * body, wait `holdMs` (the handler is reading the body by then), destroy the socket.
 * `oversized`: send a whole body over the limit and read until the server closes.
 * Resolves to what happened.
 */
function rawOnce(port: number, kind: 'abort' | 'oversized', holdMs: number): Promise<'aborted' | '413' | 'failed'> {
  return new Promise((resolve) => {
    let settled = false;
    let data = '';
    const done = (outcome: 'aborted' | '413' | 'failed') => {
      if (settled) return;
      settled = true;
      clearTimeout(timeout);
      socket.destroy();
      resolve(outcome);
    };
    const socket = net.connect(port, HOST);
    const timeout = setTimeout(() => done('failed'), 2000);
    socket.on('error', () => done('failed'));
    socket.on('data', (chunk: Buffer) => (data += chunk.toString('latin1')));
    socket.on('close', () => done(data.startsWith('HTTP/1.1 413 ') ? '413' : 'failed'));
    socket.once('connect', () => {
      if (kind === 'oversized') {
        socket.write(OVERSIZED_REQUEST);
        return;
      }
      socket.write(ABORT_HEAD);
      setTimeout(() => done('aborted'), holdMs);
    });
  });
}

interface RawCounts {
  aborted: number;
  answered413: number;
  failed: number;
}

/** `clients` loops of raw connections until `deadline`: three aborts, then one oversized body. */
async function rawClients(port: number, clients: number, deadline: number): Promise<RawCounts> {
  const counts: RawCounts = { aborted: 0, answered413: 0, failed: 0 };
  const loop = async (k: number) => {
    for (let i = 0; i < MAX_RAW_PER_CLIENT && performance.now() < deadline; i++) {
      // Hold an aborted request 1–10 ms.
      const outcome = await rawOnce(port, i % 4 === 3 ? 'oversized' : 'abort', 1 + ((i + k) % 10));
      if (outcome === 'aborted') counts.aborted++;
      else if (outcome === '413') counts.answered413++;
      else counts.failed++;
    }
  };
  await Promise.all(Array.from({ length: clients }, (_, k) => loop(k)));
  return counts;
}

/**
 * Opens `count` keep-alive connections, makes one request on each and leaves them open and idle,
 * as a client that goes quiet would. Resolves with the sockets (destroy them when done).
 */
async function idleConnections(port: number, count: number): Promise<net.Socket[]> {
  const one = () =>
    new Promise<net.Socket>((resolve, reject) => {
      const socket = net.connect(port, HOST);
      let data = '';
      const timeout = setTimeout(() => fail(new Error('idle connection: no response within 5 s')), 5000);
      const fail = (err: Error) => {
        clearTimeout(timeout);
        socket.destroy();
        reject(err);
      };
      socket.on('error', fail);
      socket.on('data', (chunk: Buffer) => {
        data += chunk.toString('latin1');
        // '{"hello":"world"}' is the whole body: the response is complete.
        if (data.endsWith('}')) {
          clearTimeout(timeout);
          socket.removeAllListeners('data');
          socket.on('error', () => undefined);
          resolve(socket);
        }
      });
      socket.write('GET /hello HTTP/1.1\r\nHost: soak\r\n\r\n');
    });
  const settled = await Promise.allSettled(Array.from({ length: count }, one));
  const sockets = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    for (const s of sockets) s.destroy();
    throw failed.reason;
  }
  return sockets;
}

// ----- rounds

interface RoundResult {
  name: string;
  requests: number;
  rps: number;
  /** autocannon's connection errors and timeouts. */
  errors: number;
  timeouts: number;
  raw: RawCounts;
  /** The sequential client of the 1 MiB attack bodies, aborted uploads and the SSE stream. */
  extras: ExtrasCounts;
  /** The server's view over the round. */
  server: { statuses: Record<string, number>; abandoned: number; clientAborts: number };
  connectionsAfter: number;
  /** From the end of the load until the server had no connection left (idle ones timed out). */
  connectionsClosedMs: number;
  /** Idle keep-alive connections the server had not closed by then (seen from the client). */
  idleStillOpen: number;
  heapUsed: number;
  rss: number;
  /** Descriptors the child had open after the round (stalled downloads must not keep theirs). */
  descriptors: number;
  /** Stalled readers: cut by the server, sent whole, or still open (a failure). */
  stalled: StalledCounts;
}

function diffCounts(now: Record<string, number>, before: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(now)) if (v - (before[k] ?? 0) > 0) out[k] = v - (before[k] ?? 0);
  return out;
}

async function runRound(name: string, child: SoakChild, port: number, o: Options, before: ServerStats): Promise<[RoundResult, ServerStats]> {
  const t0 = performance.now();
  const deadline = t0 + o.duration * 1000;
  const [result, raw, extras, stalled] = await Promise.all([
    driveMixedTraffic(port, o),
    rawClients(port, o.rawClients, deadline),
    extrasClient(port, HOST, deadline),
    stalledReaders(port, HOST, deadline),
  ]);
  const loadEnd = performance.now();

  // The load has stopped and autocannon closed its connections; a few clients stay connected
  // and idle. Whatever the server still holds must be gone within the keep-alive timeout.
  const idle = await idleConnections(port, IDLE_CONNECTIONS);
  let connections: number;
  let idleStillOpen: number;
  try {
    connections = (await child.ask('connections', { type: 'connections' }, 5000)).count;
    while (connections > 0 && performance.now() - loadEnd < CONNECTIONS_GONE_WITHIN_MS) {
      await sleep(100);
      connections = (await child.ask('connections', { type: 'connections' }, 5000)).count;
    }
    idleStillOpen = idle.filter((s) => !s.destroyed && s.readable).length;
  } finally {
    for (const s of idle) s.destroy();
  }
  const connectionsClosedMs = performance.now() - loadEnd;
  const heap = await child.ask('heap', { type: 'heap' }, 30_000);
  const stats = await child.ask('stats', { type: 'stats' }, 5000);

  const durationS = result.duration > 0 ? result.duration : (loadEnd - t0) / 1000;
  return [
    {
      name,
      requests: result.requests.total,
      rps: result.requests.total / durationS,
      errors: result.errors,
      timeouts: result.timeouts,
      raw,
      extras,
      server: {
        statuses: diffCounts(stats.statuses, before.statuses),
        abandoned: stats.abandoned - before.abandoned,
        clientAborts: stats.clientAborts - before.clientAborts,
      },
      connectionsAfter: connections,
      connectionsClosedMs,
      idleStillOpen,
      heapUsed: heap.heapUsed,
      rss: heap.rss,
      descriptors: heap.descriptors,
      stalled,
    },
    stats,
  ];
}

// ----- report

const mb = (bytes: number) => (bytes / 1048576).toFixed(2);
const int = (n: number) => Math.round(n).toLocaleString('en-US');
const pct = (r: number) => `${r >= 0 ? '+' : ''}${(r * 100).toFixed(1)}%`;
const fmtCounts = (c: Record<string, number>) =>
  Object.keys(c)
    .sort()
    .map((k) => `${k}: ${int(c[k]!)}`)
    .join(', ');

function table(rows: RoundResult[], baseline: number | null): string {
  const head = ['round', 'requests', 'req/s', 'client errors', 'aborted requests', '413 (raw)', 'sockets left', 'idle closed after (s)', 'heap after GC (MB)', 'vs warm-up', 'RSS (MB)'];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`];
  for (const r of rows) {
    const vs = baseline === null || r.name === 'warm-up' ? '—' : pct(r.heapUsed / baseline - 1);
    lines.push(
      `| ${r.name} | ${int(r.requests)} | ${int(r.rps)} | ${int(r.errors + r.timeouts)} | ${int(r.raw.aborted)} | ${int(r.raw.answered413)} | ` +
        `${r.connectionsAfter} | ${(r.connectionsClosedMs / 1000).toFixed(1)} | ${mb(r.heapUsed)} | ${vs} | ${mb(r.rss)} |`,
    );
  }
  return lines.join('\n');
}

async function main(): Promise<number> {
  let o: Options;
  try {
    o = parseOptions(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n\n${HELP}`);
    return 2;
  }

  const port = await freePort(HOST);
  const child = new SoakChild(port);
  const killChild = () => child.kill();
  process.on('exit', killChild);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      process.stderr.write(`\n${signal}: stopping the server child\n`);
      child.kill();
      process.exit(130);
    });
  }

  const rows: RoundResult[] = [];
  const failures: string[] = [];
  try {
    await child.ask('ready', null, 60_000);
    await checkRoutes(port);
    log(
      `Tern soak: warm-up + ${o.rounds} round(s) × ${o.duration} s, ${o.connections} connections cycling ${REQUESTS.length} requests ` +
        `(200/201/404/405/422/500) + ${o.rawClients} raw-socket clients (aborts, 413); Node ${process.version}, ${os.availableParallelism()} CPUs; ` +
        `server pid ${child.proc.pid}, port ${port}`,
    );
    let stats: ServerStats = { statuses: {}, abandoned: 0, clientAborts: 0, warnings: [] };
    for (let r = 0; r <= o.rounds; r++) {
      const name = r === 0 ? 'warm-up' : String(r);
      const [row, now] = await runRound(name, child, port, o, stats);
      stats = now;
      rows.push(row);
      const base = rows[0]!.heapUsed;
      log(
        `  round ${name}: ${int(row.requests)} autocannon requests (${int(row.rps)} req/s, ${int(row.errors + row.timeouts)} errors); ` +
          `raw sockets: ${int(row.raw.aborted)} aborted, ${int(row.raw.answered413)} answered 413, ${int(row.raw.failed)} failed\n` +
          `    sockets left ${row.connectionsAfter} (${(row.connectionsClosedMs / 1000).toFixed(1)} s after the load); ` +
          `heap after GC ${mb(row.heapUsed)} MB` +
          (r === 0 ? ' (baseline)' : ` (${pct(row.heapUsed / base - 1)})`),
      );
      log(
        `    server answered ${fmtCounts(row.server.statuses)}; ${int(row.server.abandoned)} requests abandoned by their client ` +
          `(${int(row.server.clientAborts)} while the handler read the body)`,
      );
      log(
        `    extras: ${int(row.extras.basket422)} × 1 MiB items → 422, ${int(row.extras.junkKeys422)} × 90k junk keys → 422, ` +
          `${int(row.extras.fallback422)} × 1 MiB {} items to a fallback model → 422, ` +
          `${int(row.extras.abortedUploads)} uploads aborted half-way, ${row.extras.sseStreams} SSE stream(s) read then dropped`,
      );
      log(
        `    stalled readers: ${int(row.stalled.cut)} cut by the send timeout, ${int(row.stalled.complete)} sent whole, ${int(row.stalled.stuck)} stuck; ` +
          `open descriptors after the round ${row.descriptors}` +
          (r === 0 ? '' : ` (warm-up ${rows[0]!.descriptors})`),
      );
      if (row.stalled.stuck > 0) failures.push(`round ${name}: ${row.stalled.stuck} stalled reader(s) still connected 20 s after reading again`);
      if (row.stalled.cut + row.stalled.complete + row.stalled.stuck === 0) failures.push(`round ${name}: no stalled reader ran`);
      if (r > 0 && row.descriptors > rows[0]!.descriptors + 5) failures.push(`round ${name}: ${row.descriptors} descriptors open, warm-up ${rows[0]!.descriptors}`);
      for (const u of row.extras.unexpected) failures.push(`round ${name}: ${u}`);
      if (row.extras.sseStreams === 0) failures.push(`round ${name}: no SSE stream was read`);
      if (row.idleStillOpen > 0) failures.push(`round ${name}: ${row.idleStillOpen} idle keep-alive connection(s) not closed by the server`);
      if (row.connectionsAfter > 0) failures.push(`round ${name}: ${row.connectionsAfter} connection(s) still open ${((row.connectionsClosedMs) / 1000).toFixed(1)} s after the load stopped`);
      if (r > 0 && row.heapUsed > base * (1 + HEAP_TOLERANCE)) {
        failures.push(`round ${name}: heap after GC ${mb(row.heapUsed)} MB is ${pct(row.heapUsed / base - 1)} over the warm-up's ${mb(base)} MB`);
      }
      if (!child.alive) break;
    }
    if (stats.warnings.length > 0) log(`  server process warnings: ${stats.warnings.join('; ')}`);
  } catch (err) {
    failures.push((err as Error).message);
  } finally {
    if (!child.alive && !child.stopping) failures.push(`the server child crashed: ${child.exit}`);
    await child.stop();
    child.kill();
  }

  const baseline = rows[0]?.heapUsed ?? null;
  const out: string[] = ['', `## Tern soak, ${new Date().toISOString()}`, ''];
  out.push(
    `Node ${process.version} · ${os.availableParallelism()} × ${os.cpus()[0]?.model.trim() ?? 'CPU'} · warm-up + ${o.rounds} round(s) of ${o.duration} s · ` +
      `${o.connections} autocannon connections + ${o.rawClients} raw-socket clients · keep-alive timeout ${KEEP_ALIVE_MS / 1000} s`,
    '',
  );
  if (rows.length > 0) out.push(table(rows, baseline), '');
  const measured = rows.slice(1);
  const worst = baseline === null || measured.length === 0 ? NaN : Math.max(...measured.map((r) => r.heapUsed / baseline - 1));
  out.push(
    `- heap after GC: warm-up ${baseline === null ? '—' : mb(baseline) + ' MB'}, largest growth ${Number.isFinite(worst) ? pct(worst) : '—'} (limit +${HEAP_TOLERANCE * 100}%)`,
    `- server child: ${failures.some((f) => f.includes('crashed')) ? 'CRASHED' : 'never crashed'}`,
    `- sockets left after the load: ${rows.map((r) => r.connectionsAfter).join(', ') || '—'}`,
    '',
  );
  if (failures.length === 0 && rows.length === o.rounds + 1) {
    out.push('Verdict: PASS');
  } else {
    if (rows.length < o.rounds + 1 && failures.length === 0) failures.push('not every round ran');
    out.push('Verdict: FAIL', ...failures.map((f) => `  - ${f}`));
  }
  process.stdout.write(out.join('\n') + '\n');
  return failures.length === 0 ? 0 : 1;
}

if (process.argv[2] === '--child') {
  runChild(Number(process.argv[3])).catch((err: unknown) => {
    process.stderr.write(`soak child: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  });
} else {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`soak failed: ${err instanceof Error ? err.stack : String(err)}\n`);
      process.exit(1);
    },
  );
}
