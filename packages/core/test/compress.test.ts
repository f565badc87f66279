import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { TernApp, TernError, type InjectResponse } from '@tern/core';
import { compress, type CompressOptions } from '../src/middleware/compress';

/** A JSON text of about `bytes` bytes (compresses well, like real API answers). */
function jsonOf(bytes: number): string {
  const rows: Array<{ id: number; name: string }> = [];
  let length = 2;
  while (length < bytes) {
    const row = { id: rows.length, name: `user ${rows.length} — ünïcødé` };
    rows.push(row);
    length += JSON.stringify(row).length + 1;
  }
  return JSON.stringify(rows);
}

const BIG = jsonOf(4096);
const HUGE = jsonOf(300 * 1024);

function buildApp(options?: CompressOptions): TernApp {
  const app = new TernApp({ logger: false });
  app.addMiddleware(compress(options));
  app.get('/big', async (req, res) => res.send(BIG, 'application/json; charset=utf-8'));
  app.get('/sized/{bytes:int}', async (req, res, { bytes }) => res.text('x'.repeat(bytes)));
  app.get('/typed', async (req, res) => res.send(Buffer.from(BIG), req.queryParams.get('type') as string));
  app.get('/huge', async (req, res) => res.send(HUGE, 'application/json'));
  app.get('/etag', async (req, res) => res.setHeader('ETag', req.queryParams.get('etag') as string).send(BIG, 'application/json'));
  app.get('/encoded', async (req, res) => res.setHeader('Content-Encoding', 'gzip').send(BIG, 'application/json'));
  app.get('/no-transform', async (req, res) => res.setHeader('Cache-Control', 'public, no-transform').send(BIG, 'application/json'));
  app.get('/stale-length', async (req, res) => res.setHeader('Content-Length', '123456').send(BIG, 'application/json'));
  app.get('/vary', async (req, res) => res.setHeader('Vary', 'Origin').send(BIG, 'application/json'));
  app.get('/empty/{status:int}', async (req, res, { status }) => res.json(null, status));
  return app;
}

function decoded(res: InjectResponse): string {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'gzip') return gunzipSync(res.rawPayload).toString('utf8');
  if (encoding === 'br') return brotliDecompressSync(res.rawPayload).toString('utf8');
  return res.body;
}

const get = (app: TernApp, url: string, acceptEncoding?: string) =>
  app.inject({ url, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

describe('compress()', () => {
  it('gzips a body that decompresses to the original, with a Content-Length of what was sent', async () => {
    const res = await get(buildApp(), '/big', 'gzip');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    expect(res.rawPayload.length).toBeLessThan(Buffer.byteLength(BIG) / 3);
    expect(decoded(res)).toBe(BIG);
  });

  it.each([
    // header, coding chosen (undefined: sent as is)
    ['gzip, deflate, br', 'br'],
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['GZIP', 'gzip'],
    ['x-gzip', 'gzip'],
    ['deflate', undefined],
    ['br;q=0.5, gzip', 'gzip'],
    ['br;q=0.9, gzip;q=0.9', 'br'],
    ['gzip;q=0.5', 'gzip'],
    ['gzip;q=0, br;q=0', undefined],
    ['br;q=0, *', 'gzip'],
    ['*', 'br'],
    ['*;q=0', undefined],
    ['identity', undefined],
    ['identity;q=1, gzip;q=0.5', undefined],
    ['identity;q=0.5, gzip', 'gzip'],
    ['gzip;q=2', undefined],
    ['gzip; q=0.001', 'gzip'],
    ['', undefined],
    [undefined, undefined],
  ])('Accept-Encoding %p gets %p', async (header, coding) => {
    const res = await get(buildApp(), '/big', header);
    expect(res.headers['content-encoding']).toBe(coding);
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(decoded(res)).toBe(BIG);
  });

  it('offers only the configured encodings, in their order', async () => {
    expect((await get(buildApp({ encodings: ['gzip'] }), '/big', 'br, gzip')).headers['content-encoding']).toBe('gzip');
    expect((await get(buildApp({ encodings: ['gzip', 'br'] }), '/big', 'br, gzip')).headers['content-encoding']).toBe('gzip');
    expect((await get(buildApp({ encodings: ['gzip'] }), '/big', 'br')).headers['content-encoding']).toBeUndefined();
  });

  it.each([
    [undefined, 1023, false],
    [undefined, 1024, true],
    [0, 1, true],
    [2048, 2047, false],
    [2048, 2048, true],
  ])('threshold %p: a %p-byte body compressed: %p', async (threshold, bytes, compressed) => {
    const res = await get(buildApp({ threshold }), `/sized/${bytes}`, 'gzip');
    expect(res.headers['content-encoding'] !== undefined).toBe(compressed);
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(decoded(res)).toBe('x'.repeat(bytes));
  });

  it('compresses bodies over 64 KiB (the asynchronous path) with both codings', async () => {
    for (const coding of ['br', 'gzip']) {
      const res = await get(buildApp(), '/huge', coding);
      expect(res.headers['content-encoding']).toBe(coding);
      expect(decoded(res)).toBe(HUGE);
    }
  });

  it.each([
    ['text/html; charset=utf-8', true],
    ['text/csv', true],
    ['application/problem+json', true],
    ['image/svg+xml', true],
    ['application/javascript', true],
    ['image/png', false],
    ['image/jpeg', false],
    ['video/mp4', false],
    ['audio/mpeg', false],
    ['application/zip', false],
    ['application/gzip', false],
    ['font/woff2', false],
    ['application/pdf', false],
    ['application/octet-stream', false],
    ['text/event-stream', false],
  ])('Content-Type %s compressed: %p', async (type, compressed) => {
    const res = await get(buildApp(), `/typed?type=${encodeURIComponent(type)}`, 'br, gzip');
    expect(res.headers['content-encoding'] !== undefined).toBe(compressed);
    // Vary only where Accept-Encoding could change the answer.
    expect(res.headers.vary).toBe(compressed ? 'Accept-Encoding' : undefined);
    expect(decoded(res)).toBe(BIG);
  });

  it('lets a filter decide from the content type and the request', async () => {
    const app = buildApp({ filter: (type, req) => req.queryParams.get('type') === 'image/png' });
    expect((await get(app, '/typed?type=image%2Fpng', 'gzip')).headers['content-encoding']).toBe('gzip');
    expect((await get(app, '/big', 'gzip')).headers['content-encoding']).toBeUndefined();
  });

  it('leaves a body alone that already has a Content-Encoding', async () => {
    const res = await get(buildApp(), '/encoded', 'gzip');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.body).toBe(BIG);
  });

  it('leaves Cache-Control: no-transform answers alone', async () => {
    const res = await get(buildApp(), '/no-transform', 'gzip');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toBeUndefined();
    expect(res.body).toBe(BIG);
  });

  it('drops a stale Content-Length and weakens a strong ETag, keeping a weak one', async () => {
    const app = buildApp();
    const stale = await get(app, '/stale-length', 'gzip');
    expect(Number(stale.headers['content-length'])).toBe(stale.rawPayload.length);
    expect(decoded(stale)).toBe(BIG);
    expect((await get(app, '/etag?etag=%22v1%22', 'gzip')).headers.etag).toBe('W/"v1"');
    expect((await get(app, '/etag?etag=W%2F%22v1%22', 'gzip')).headers.etag).toBe('W/"v1"');
    expect((await get(app, '/etag?etag=%22v1%22', 'identity')).headers.etag).toBe('"v1"');
  });

  it('adds Accept-Encoding to a Vary the handler set', async () => {
    expect((await get(buildApp(), '/vary', 'gzip')).headers.vary).toBe('Origin, Accept-Encoding');
  });

  it("answers HEAD with GET's headers, uncompressed, and Vary", async () => {
    const res = await buildApp().inject({ method: 'HEAD', url: '/big', headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(BIG)));
    expect(res.body).toBe('');
  });

  it.each([204, 304])('leaves a %i alone', async (status) => {
    const res = await get(buildApp({ threshold: 0 }), `/empty/${status}`, 'gzip');
    expect(res.statusCode).toBe(status);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toBeUndefined();
  });

  it('passes a body that is neither a string nor a Buffer through untouched', async () => {
    const stream = Readable.from(['streamed']);
    let seen: unknown;
    const app = new TernApp({ logger: false });
    // Outermost: looks at what compress() handed back, then sends something writable today.
    app.addMiddleware(async (req, res, next) => {
      const response = await next();
      seen = response.body;
      return response.text('sent');
    });
    app.addMiddleware(compress({ threshold: 0 }));
    app.get('/stream', async (req, res) => {
      res.setHeader('content-type', 'text/plain');
      (res as { body: unknown }).body = stream;
      return res;
    });
    const res = await get(app, '/stream', 'gzip');
    expect(seen).toBe(stream);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toBeUndefined();
  });

  it('is decoded by a real HTTP client over a socket', async () => {
    const app = buildApp();
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      for (const coding of ['br', 'gzip']) {
        const response = await fetch(`${address}/big`, { headers: { 'accept-encoding': coding } });
        expect(response.headers.get('content-encoding')).toBe(coding);
        expect(await response.text()).toBe(BIG);
      }
    } finally {
      await app.close();
    }
  });

  it('round-trips any text body under any Accept-Encoding', async () => {
    let body = '';
    const app = new TernApp({ logger: false });
    app.addMiddleware(compress({ threshold: 64 }));
    app.post('/echo', async (req, res) => res.text(body));
    const coding = fc.constantFrom('br', 'gzip', 'x-gzip', 'identity', '*', 'deflate', 'BR');
    const entry = fc.tuple(coding, fc.option(fc.constantFrom('0', '0.001', '0.5', '1', '1.000', '2', 'x'))).map(([name, q]) => (q === null ? name : `${name};q=${q}`));
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 3000 }), fc.array(entry, { maxLength: 4 }), async (text, entries) => {
        body = text;
        const res = await app.inject({ method: 'POST', url: '/echo', headers: { 'accept-encoding': entries.join(', ') } });
        expect(decoded(res)).toBe(text);
        expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
        // Below the threshold nothing is compressed, whatever the client accepts.
        expect(res.headers['content-encoding'] === undefined || Buffer.byteLength(text) >= 64).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it.each([
    ['a negative threshold', { threshold: -1 }],
    ['an unknown coding', { encodings: ['deflate'] as unknown as CompressOptions['encodings'] }],
  ])('refuses %s when called', (_name, options) => {
    expect(() => compress(options)).toThrow(expect.objectContaining({ code: 'TERN_INVALID_COMPRESS_OPTIONS' }));
    expect(() => compress(options)).toThrow(TernError);
  });
});
