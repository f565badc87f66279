/**
 * Memory per uploaded byte of a buffered multipart upload (issue 42 item 11; not a test, not
 * part of `npm run bench`). Serves one `req.multipart()` route on a real socket and uploads one
 * file of `--mib` MiB to it, several times; for each upload it reads the process's memory when
 * the request starts, every 2 ms while the body streams, and once `req.multipart()` has resolved
 * (the file still held), and prints the peak growth of the resident set (and of `arrayBuffers`,
 * what Buffers hold, garbage not yet collected included) per uploaded byte. A 1 MiB upload
 * first warms the route up. The client writes the same 64 KiB buffer again and again, so it adds nothing. Each
 * upload runs in a fresh process (`--child`), so one upload's garbage does not hide another's.
 * Runs from the TypeScript sources:
 *
 *   TS_NODE_PROJECT=tsconfig.test.json node -r ts-node/register/transpile-only bench/src/micro/multipart-memory.ts [--mib 60] [--runs 5] [--chunked]
 */
import { execFileSync, spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { MakeConfig, TernApp } from '../../../packages/core/src';

const { values } = parseArgs({ options: { mib: { type: 'string', default: '60' }, runs: { type: 'string', default: '5' }, child: { type: 'boolean', default: false }, chunked: { type: 'boolean', default: false } } });
const size = Number(values.mib) * 1024 * 1024;

interface Reading {
  rss: number;
  arrayBuffers: number;
}

async function uploadOnce(): Promise<{ rss: number; arrayBuffers: number }> {
  let before: Reading | undefined;
  let peak: Reading = { rss: 0, arrayBuffers: 0 };
  let sampler: NodeJS.Timeout | undefined;
  const sample = () => {
    const now = process.memoryUsage();
    peak = { rss: Math.max(peak.rss, now.rss), arrayBuffers: Math.max(peak.arrayBuffers, now.arrayBuffers) };
  };
  const app = new TernApp({ logger: false, openapi: { openapiPath: false }, config: new MakeConfig({ bodyLimit: size + 1024 * 1024 }) });
  app.post('/upload', async (req) => {
    before = process.memoryUsage();
    peak = { ...before };
    sampler = setInterval(sample, 2);
    const { files } = await req.multipart({ limits: { fileSize: size } });
    sample();
    clearInterval(sampler);
    return { size: files[0].size };
  });
  const port = Number(new URL(await app.listen({ port: 0, host: '127.0.0.1' })).port);
  await upload(port, 1024 * 1024);
  await upload(port, size);
  await app.close();
  return { rss: (peak.rss - before!.rss) / size, arrayBuffers: (peak.arrayBuffers - before!.arrayBuffers) / size };
}

/**
 * Uploads `size` bytes as one file from another process (plain Node, no Tern), so the client's
 * buffers are not counted: it writes the same 64 KiB block again and again.
 */
function upload(port: number, size: number): Promise<void> {
  const client = `
    const http = require('node:http');
    const [port, size, chunked] = process.argv.slice(1).map(Number);
    const boundary = 'tern-memory-boundary';
    const head = Buffer.from('--' + boundary + '\\r\\nContent-Disposition: form-data; name="file"; filename="big.bin"\\r\\nContent-Type: application/octet-stream\\r\\n\\r\\n');
    const tail = Buffer.from('\\r\\n--' + boundary + '--\\r\\n');
    const block = Buffer.alloc(64 * 1024, 'x');
    const req = http.request({ port, host: '127.0.0.1', method: 'POST', path: '/upload', headers: { 'content-type': 'multipart/form-data; boundary=' + boundary, ...(chunked ? {} : { 'content-length': head.length + size + tail.length }) } }, (res) => {
      res.resume();
      res.on('end', () => process.exit(res.statusCode === 200 ? 0 : 1));
    });
    req.write(head);
    let sent = 0;
    const pump = () => {
      while (sent < size) {
        const piece = size - sent >= block.length ? block : block.subarray(0, size - sent);
        sent += piece.length;
        if (!req.write(piece)) return req.once('drain', pump);
      }
      req.end(tail);
    };
    pump();`;
  return new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', client, String(port), String(size), values.chunked ? '1' : '0'], { stdio: 'inherit' });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`upload failed (${code})`))));
  });
}

function median(list: number[]): number {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main(): Promise<void> {
  if (values.child) {
    process.stdout.write(JSON.stringify(await uploadOnce()));
    return;
  }
  const results: Array<{ rss: number; arrayBuffers: number }> = [];
  for (let run = 0; run < Number(values.runs); run++) {
    const out = execFileSync(process.execPath, [...process.execArgv, __filename, '--child', '--mib', String(values.mib), ...(values.chunked ? ['--chunked'] : [])], { encoding: 'utf8' });
    results.push(JSON.parse(out) as { rss: number; arrayBuffers: number });
  }
  const rss = results.map((r) => r.rss);
  const framing = values.chunked ? 'chunked (no Content-Length)' : 'with Content-Length';
  console.log(`${values.mib} MiB file ${framing}, ${results.length} uploads, one per process: peak memory added per uploaded byte`);
  console.log(`  rss:          median ${median(rss).toFixed(2)}  (${rss.map((v) => v.toFixed(2)).join(' ')})`);
  console.log(`  arrayBuffers: median ${median(results.map((r) => r.arrayBuffers)).toFixed(2)}`);
}

void main();
