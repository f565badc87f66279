/**
 * The soak's second half of the mix: the attack bodies of the hardening issue and the everyday
 * HTTP features (uploads, downloads with and without Range, server-sent events), as routes
 * the soak child registers and as requests the runner sends. Cheap requests join autocannon's
 * cycle (`EXTRA_REQUESTS`); the 1 MiB bodies, the aborted upload and the SSE stream run in one
 * sequential client (`extrasClient`) so they do not crowd out the rest of the mix.
 */
import 'reflect-metadata';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, IsOptional, IsString, ValidateNested } from 'class-validator';
import type { TernApp } from '@tern/core';
import { Convertor, registerUrlConvertor } from '@tern/core/converters';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

/** The biggest body the soak sends (the 1 MiB attack bodies); the child's bodyLimit is above it. */
export const BIG_BODY_BYTES = 1024 * 1024;
/** A 422 for a 1 MiB attack body must stay small: the issue list is capped. */
const SMALL_ANSWER_BYTES = 16 * 1024;
const DOWNLOAD_BYTES = 64 * 1024;
/** Between two rounds of the sequential client's heavy requests. */
const PAUSE_MS = 300;
const BOUNDARY = 'soakboundary7MA4YWxkTrZu0gW';

class Item {
  @IsInt() n!: number;
}

/** Each element goes through Item: 524,000 non-objects must still give a small 422. */
class Basket {
  @ValidateNested({ each: true })
  @Type(() => Item)
  items!: Item[];
}

/** A natively compiled model: 90,000 junk keys must be refused by the key cap, not walked. */
class Named {
  @IsString() name!: string;
}

/** A trimming `@Transform` is enough to send a model to the class-validator fallback. */
class Tag {
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsOptional()
  @IsString()
  name?: string;
}

/** A fallback model with a size rule: 1 MiB of `{}` items must be refused by it, unbuilt. */
class TagList {
  @IsArray()
  @ArrayMaxSize(1000)
  @ValidateNested({ each: true })
  @Type(() => Tag)
  items!: Tag[];
}

/** A fallback model without one: the same body must be refused by the fallback's value bound. */
class LooseTagList {
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => Tag)
  items!: Tag[];
}

/** An ordinary custom converter (the catastrophic patterns are refused at registration). */
class SkuConvertor extends Convertor<string> {
  regex = '[A-Z0-9]+';
  convert(value: string): string {
    return value;
  }
  toString(value: string): string {
    return value;
  }
}

/** The child's routes for the extra mix; `dir` holds the file it serves. */
export function addExtraRoutes(app: TernApp, onClientAbort: () => void): void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tern-soak-'));
  fs.writeFileSync(path.join(dir, 'blob.bin'), Buffer.alloc(DOWNLOAD_BYTES, 'x'));
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  registerUrlConvertor('soaksku', new SkuConvertor());

  app.post('/basket', { requestModel: Basket }, async (req) => ({ count: (req.body as Basket).items.length }));
  app.post('/named', { requestModel: Named }, async (req) => ({ name: (req.body as Named).name }));
  app.post('/tags', { requestModel: TagList }, async (req) => ({ count: (req.body as TagList).items.length }));
  app.post('/loose-tags', { requestModel: LooseTagList }, async (req) => ({ count: (req.body as LooseTagList).items.length }));
  app.get('/sku/{code:soaksku}', async (_req, _res, { code }) => ({ length: String(code).length }));
  app.post('/files', async (req) => {
    try {
      const { fields, files } = await req.multipart({ limits: { files: 2 } });
      return { fields: Object.keys(fields).length, bytes: files.reduce((n, f) => n + f.size, 0) };
    } catch (err) {
      if ((err as { code?: string }).code === 'TERN_CLIENT_ABORTED') onClientAbort();
      throw err;
    }
  });
  app.get('/download', async (_req, res) => res.file('blob.bin', { root: dir }));
  app.get('/events', { sse: true }, async (_req, res) =>
    res.sse(
      (async function* () {
        for (let i = 0; i < 10_000; i++) {
          yield { id: i, data: { i } };
          await sleep(20);
        }
      })(),
    ),
  );
}

// ----- requests

const multipartBody = (fileBytes: number) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="note"\r\n\r\nsoak\r\n` +
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n` +
  'f'.repeat(fileBytes) +
  `\r\n--${BOUNDARY}--\r\n`;
const MULTIPART = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };
const UPLOAD = multipartBody(2048);

export interface ExtraRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  expect: number;
}

/** Cheap requests cycled by autocannon with the rest. */
export const EXTRA_REQUESTS: ExtraRequest[] = [
  { method: 'GET', path: `/sku/${'A9'.repeat(50)}`, expect: 200 },
  { method: 'GET', path: `/sku/${'A9'.repeat(49)}a!`, expect: 422 },
  { method: 'POST', path: '/files', headers: MULTIPART, body: UPLOAD, expect: 200 },
  { method: 'GET', path: '/download', expect: 200 },
  { method: 'GET', path: '/download', headers: { range: 'bytes=1000-4999' }, expect: 206 },
];

const BASKET_BODY = (() => {
  const head = '{"items":[';
  const n = Math.floor((BIG_BODY_BYTES - head.length - 2) / 2);
  return head + '1,'.repeat(n - 1) + '1]}';
})();
/** 1 MiB of `{}` items, for the fallback models (`/tags`, `/loose-tags`). */
const EMPTY_ITEMS_BODY = (() => {
  const head = '{"items":[';
  const n = Math.floor((BIG_BODY_BYTES - head.length - 2) / 3);
  return head + '{},'.repeat(n - 1) + '{}]}';
})();
const JUNK_KEYS_BODY = (() => {
  const keys: string[] = [];
  for (let i = 0; i < 90_000; i++) keys.push(`"k${i}":1`);
  return `{${keys.join(',')},"zz":{"constructor":1}}`;
})();

export interface Reply {
  status: number;
  bytes: number;
}

/** One request on its own connection, bounded by `timeoutMs`. */
export function send(port: number, host: string, r: Omit<ExtraRequest, 'expect'>, timeoutMs = 10_000): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...r.headers };
    if (r.body !== undefined) headers['content-length'] = Buffer.byteLength(r.body);
    const req = http.request({ host, port, method: r.method, path: r.path, agent: false, headers, timeout: timeoutMs }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`${r.method} ${r.path}: timed out`)));
    req.on('error', reject);
    req.end(r.body);
  });
}

export interface ExtrasCounts {
  /** 1 MiB `{"items":[1,1,…]}` answered with a small 422. */
  basket422: number;
  /** 90k junk keys answered with a small 422. */
  junkKeys422: number;
  /** 1 MiB `{"items":[{},{},…]}` to the two fallback models answered with a small 422. */
  fallback422: number;
  /** Multipart uploads abandoned half-way. */
  abortedUploads: number;
  /** SSE streams read for a few events, then dropped. */
  sseStreams: number;
  /** Anything else: a wrong status, a big answer, a timeout. */
  unexpected: string[];
}

/** Sends half a multipart body, holds it `holdMs`, then destroys the socket. */
function abortedUpload(port: number, host: string, holdMs: number): Promise<boolean> {
  const body = multipartBody(64 * 1024);
  return new Promise((resolve) => {
    const socket = net.connect(port, host);
    const timer = setTimeout(() => done(false), 2000);
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    socket.on('error', () => done(false));
    socket.once('connect', () => {
      socket.write(
        `POST /files HTTP/1.1\r\nHost: soak\r\nContent-Type: ${MULTIPART['content-type']}\r\nContent-Length: ${body.length}\r\n\r\n` +
          body.slice(0, body.length >> 1),
      );
      setTimeout(() => done(true), holdMs);
    });
  });
}

/** Opens the SSE stream, reads `events` events, then disconnects. */
function sseStream(port: number, host: string, events: number): Promise<boolean> {
  return new Promise((resolve) => {
    let data = '';
    const socket = net.connect(port, host);
    const timer = setTimeout(() => done(false), 5000);
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    socket.on('error', () => done(false));
    socket.on('close', () => done(false));
    socket.on('data', (c: Buffer) => {
      data += c.toString('latin1');
      if (data.startsWith('HTTP/1.1 200') && data.split('\n\n').length > events) done(true);
    });
    socket.once('connect', () => socket.write('GET /events HTTP/1.1\r\nHost: soak\r\nAccept: text/event-stream\r\n\r\n'));
  });
}

async function expectSmall(port: number, host: string, path: string, body: string, what: string, c: ExtrasCounts): Promise<boolean> {
  try {
    const reply = await send(port, host, { method: 'POST', path, headers: { 'content-type': 'application/json' }, body });
    if (reply.status === 422 && reply.bytes <= SMALL_ANSWER_BYTES) return true;
    if (c.unexpected.length < 10) c.unexpected.push(`${what}: ${reply.status}, ${reply.bytes} bytes`);
  } catch (err) {
    if (c.unexpected.length < 10) c.unexpected.push(`${what}: ${(err as Error).message}`);
  }
  return false;
}

/** Checks the extra routes once, before any load; throws on the first wrong answer. */
export async function checkExtraRoutes(port: number, host: string): Promise<void> {
  for (const r of EXTRA_REQUESTS) {
    const reply = await send(port, host, r);
    if (reply.status !== r.expect) throw new Error(`${r.method} ${r.path.slice(0, 40)}: status ${reply.status}, expected ${r.expect}`);
  }
  const c: ExtrasCounts = { basket422: 0, junkKeys422: 0, fallback422: 0, abortedUploads: 0, sseStreams: 0, unexpected: [] };
  await expectSmall(port, host, '/basket', BASKET_BODY, '1 MiB items', c);
  await expectSmall(port, host, '/named', JUNK_KEYS_BODY, '90k junk keys', c);
  await expectSmall(port, host, '/tags', EMPTY_ITEMS_BODY, '1 MiB {} items, fallback with @ArrayMaxSize', c);
  await expectSmall(port, host, '/loose-tags', EMPTY_ITEMS_BODY, '1 MiB {} items, fallback without a size rule', c);
  if (!(await sseStream(port, host, 3))) c.unexpected.push('SSE: fewer than 3 events');
  if (c.unexpected.length > 0) throw new Error(c.unexpected.join('; '));
}

/**
 * One sequential client until `deadline`: one SSE stream first, then the 1 MiB items body, the
 * junk keys body, 1 MiB of `{}` items to each fallback model and an aborted upload, over and over.
 */
export async function extrasClient(port: number, host: string, deadline: number): Promise<ExtrasCounts> {
  const c: ExtrasCounts = { basket422: 0, junkKeys422: 0, fallback422: 0, abortedUploads: 0, sseStreams: 0, unexpected: [] };
  if (await sseStream(port, host, 3)) c.sseStreams++;
  else c.unexpected.push('SSE: fewer than 3 events');
  for (let i = 0; i < 100_000 && performance.now() < deadline; i++) {
    if (await expectSmall(port, host, '/basket', BASKET_BODY, '1 MiB items', c)) c.basket422++;
    if (await expectSmall(port, host, '/named', JUNK_KEYS_BODY, '90k junk keys', c)) c.junkKeys422++;
    if (await expectSmall(port, host, '/tags', EMPTY_ITEMS_BODY, '1 MiB {} items, fallback with @ArrayMaxSize', c)) c.fallback422++;
    if (await expectSmall(port, host, '/loose-tags', EMPTY_ITEMS_BODY, '1 MiB {} items, fallback without a size rule', c)) c.fallback422++;
    if (await abortedUpload(port, host, 20)) c.abortedUploads++;
    // Parsing 2 MiB holds the event loop ~100 ms: pause so they stay a part of the mix, not most of it.
    await sleep(PAUSE_MS);
  }
  return c;
}
