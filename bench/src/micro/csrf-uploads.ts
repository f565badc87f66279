/**
 * Memory measurement (not a test, not part of `npm run bench`): what four concurrent 60 MiB
 * multipart uploads cost a server behind `csrf()` when they carry a valid CSRF cookie but no
 * token (the forged-upload case of issue 42, item 1), next to the same uploads to a route without
 * `csrf()` whose handler refuses them without reading the body.
 *
 *   npm run bench:csrf-uploads -- [--mib 60] [--uploads 4]
 *
 * The server and the client share this process; the client sends one reused 1 MiB chunk again
 * and again (with backpressure), so what the resident set grows by is the server's holding.
 * Each case runs in a fresh child process so one case's garbage cannot hide in the next.
 */
import { fork } from 'node:child_process';
import { request } from 'node:http';
import { parseArgs } from 'node:util';
import { csrf, MakeConfig, TernApp } from '../../../packages/core/src';

const BOUNDARY = '----tern-measure-boundary';
const MiB = 1024 * 1024;

type Case = 'csrf' | 'no-csrf';

async function server(mode: Case, mib: number): Promise<{ port: number; close: () => Promise<void> }> {
  const app = new TernApp({ logger: false, config: new MakeConfig({ secret: 'measurement-secret-sixteen+' }) });
  if (mode === 'csrf') app.addMiddleware(csrf());
  app.get('/form', async (_req, res) => ({ token: res.locals.csrfToken }));
  const limits = { bodyLimit: (mib + 1) * MiB, multipartLimit: (mib + 1) * MiB, multipart: { limits: { fileSize: (mib + 1) * MiB } } };
  app.post('/upload', limits, async (_req, res) => res.json({ refused: true }, 403));
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const port = Number(new URL(address).port);
  return { port, close: () => app.close() };
}

function cookieOf(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    request({ port, host: '127.0.0.1', path: '/form' }, (res) => {
      res.resume();
      const cookie = (res.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');
      resolve(cookie);
    })
      .on('error', reject)
      .end();
  });
}

/** One upload: a file part first (no `_csrf` field, no header), streamed from one reused chunk. */
function upload(port: number, cookie: string, mib: number): Promise<number> {
  const head = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  const chunk = Buffer.alloc(MiB, 0x61);
  return new Promise((resolve) => {
    const req = request({
      port,
      host: '127.0.0.1',
      path: '/upload',
      method: 'POST',
      headers: { cookie, 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': head.length + mib * MiB + tail.length },
    });
    let status = 0;
    req.on('response', (res) => {
      status = res.statusCode ?? 0;
      res.resume();
      res.on('end', () => resolve(status));
    });
    // A server that answers early and closes cuts the upload: that is the point, not a failure.
    req.on('error', () => resolve(status));
    let sent = 0;
    const pump = () => {
      while (sent < mib) {
        sent++;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end(tail);
    };
    req.write(head);
    pump();
  });
}

async function measure(mode: Case, mib: number, uploads: number): Promise<void> {
  const { port, close } = await server(mode, mib);
  const cookie = await cookieOf(port);
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const started = Date.now();
  const statuses = await Promise.all(Array.from({ length: uploads }, () => upload(port, cookie, mib)));
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  await close();
  process.send?.({ mode, statuses, addedMiB: (peak - before) / MiB, ms: Date.now() - started });
}

function runCase(mode: Case, mib: number, uploads: number): Promise<{ mode: Case; statuses: number[]; addedMiB: number; ms: number }> {
  return new Promise((resolve, reject) => {
    const child = fork(__filename, ['--child', mode, '--mib', String(mib), '--uploads', String(uploads)], { execArgv: [...process.execArgv, '--expose-gc'] });
    child.on('message', resolve);
    child.on('error', reject);
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { mib: { type: 'string', default: '60' }, uploads: { type: 'string', default: '4' }, child: { type: 'string' } } });
  const mib = Number(values.mib);
  const uploads = Number(values.uploads);
  if (values.child) return measure(values.child as Case, mib, uploads);
  for (const mode of ['no-csrf', 'csrf'] as const) {
    const result = await runCase(mode, mib, uploads);
    console.log(`${mode.padEnd(8)} ${uploads} x ${mib} MiB: statuses ${result.statuses.join(',')}, resident set +${result.addedMiB.toFixed(1)} MiB, ${result.ms} ms`);
  }
}

void main();
