import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { TernApp, type InjectResponse } from '@tern/core';
import { compress } from '../src/middleware/compress';
import { listenOnFreePort } from '../../../test-support/raw-http';
import { openStream } from '../../../test-support/stream-client';

const dir = mkdtempSync(join(tmpdir(), 'tern-compress-stream-'));
const CSV = Array.from({ length: 2000 }, (_, i) => `${i},user ${i},user${i}@example.com`).join('\n');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function decoded(res: InjectResponse): string {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'gzip') return gunzipSync(res.rawPayload).toString('utf8');
  if (encoding === 'br') return brotliDecompressSync(res.rawPayload).toString('utf8');
  return res.body;
}

describe('compress() with stream bodies', () => {
  const app = new TernApp({ logger: false });
  app.addMiddleware(compress());
  beforeAll(() => {
    writeFileSync(join(dir, 'data.csv'), CSV);
    writeFileSync(join(dir, 'small.txt'), 'tiny');
  });
  app.get('/csv', async (req, res) => res.stream(Readable.from(CSV.match(/[^]{1,1000}/g) as string[]), 'text/csv'));
  app.get('/binary', async (req, res) => res.stream(Readable.from([Buffer.alloc(4096)]), 'image/png'));
  app.get('/file/{name}', async (req, res, { name }) => res.file(name, { root: dir }));
  app.get('/events', async (req, res) => res.sse((async function* () { yield 'a'.repeat(4096); })()));
  app.get('/fails', async (req, res) =>
    res.stream(
      (async function* () {
        yield 'x'.repeat(64 * 1024);
        throw new Error('source failed');
      })(),
      'text/plain',
    ),
  );

  it.each(['gzip', 'br'])('compresses a streamed body with %s, chunked', async (coding) => {
    const res = await app.inject({ url: '/csv', headers: { 'accept-encoding': coding } });
    expect(res.headers['content-encoding']).toBe(coding);
    expect(res.headers['content-length']).toBeUndefined();
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(decoded(res)).toBe(CSV);
    expect(res.rawPayload.length).toBeLessThan(CSV.length / 2);
  });

  it('compresses a file, weakening its ETag and dropping its length', async () => {
    const res = await app.inject({ url: '/file/data.csv', headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['content-length']).toBeUndefined();
    expect(String(res.headers.etag)).toMatch(/^W\//);
    expect(decoded(res)).toBe(CSV);
  });

  it('never compresses a Range answer (206), a file under the threshold, a binary type or an event stream', async () => {
    const range = await app.inject({ url: '/file/data.csv', headers: { 'accept-encoding': 'gzip', range: 'bytes=0-9' } });
    expect(range.statusCode).toBe(206);
    expect(range.headers['content-encoding']).toBeUndefined();
    expect(range.body).toBe(CSV.slice(0, 10));
    const small = await app.inject({ url: '/file/small.txt', headers: { 'accept-encoding': 'gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.body).toBe('tiny');
    const binary = await app.inject({ url: '/binary', headers: { 'accept-encoding': 'gzip' } });
    expect(binary.headers['content-encoding']).toBeUndefined();
    const events = await app.inject({ url: '/events', headers: { 'accept-encoding': 'gzip' } });
    expect(events.headers['content-encoding']).toBeUndefined();
    expect(events.body).toBe(`data: ${'a'.repeat(4096)}\n\n`);
  });

  it('sends the stream as is to a client that accepts no coding', async () => {
    const res = await app.inject('/csv');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe(CSV);
  });

  it('still cuts the connection when the source fails half-way', async () => {
    const port = await listenOnFreePort(app);
    try {
      const client = openStream(port, '/fails', 'Accept-Encoding: gzip\r\n');
      await client.closed;
      expect(client.closedByServer()).toBe(true);
      // gzip may not have emitted a byte yet: the client sees nothing, or a cut body; never an end.
      expect(client.data()).not.toMatch(/\r\n0\r\n\r\n$/);
    } finally {
      await app.close();
    }
  });
});
