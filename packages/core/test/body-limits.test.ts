import { request } from 'node:http';
import { Controller, MakeConfig, Post, TernApp, UploadedFile, type MultipartFile } from '@tern/core';
import { multipartBody, multipartHeaders } from '../../../test-support/multipart';
import { listenOnFreePort } from '../../../test-support/raw-http';

/** An app whose JSON routes keep a 1 KiB limit while its upload routes take far more. */
function uploadsApp(config = new MakeConfig({ bodyLimit: 1024 })) {
  const app = new TernApp({ config, logger: false });
  app.post('/login', async (req) => ({ got: Object.keys((await req.json()) as object).length }));
  app.post('/avatar', { bodyLimit: 256 * 1024 }, async (req) => ({ size: (await req.buffer()).length }));
  app.post('/upload', { multipartLimit: 256 * 1024 }, async (req) => {
    const { files } = await req.multipart();
    return { size: files[0]?.size };
  });
  return app;
}

const jsonOf = (bytes: number) => JSON.stringify({ password: 'x'.repeat(bytes) });
const fileOf = (bytes: number) => multipartBody([{ name: 'file', filename: 'a.bin', contentType: 'application/octet-stream', value: Buffer.alloc(bytes, 7) }]);

describe('per-route body limits (inject)', () => {
  it('keeps the JSON route at the app limit while the upload route takes a large body', async () => {
    const app = uploadsApp();
    const login = await app.inject({ method: 'POST', url: '/login', headers: { 'content-type': 'application/json' }, payload: jsonOf(100_000) });
    expect(login.statusCode).toBe(413);
    expect(login.json()).toMatchObject({ code: 'TERN_BODY_TOO_LARGE', detail: 'Request body exceeds the limit of 1024 bytes.' });

    const avatar = await app.inject({ method: 'POST', url: '/avatar', headers: { 'content-type': 'image/png' }, payload: Buffer.alloc(100_000) });
    expect([avatar.statusCode, avatar.json()]).toEqual([200, { size: 100_000 }]);
    const tooBig = await app.inject({ method: 'POST', url: '/avatar', headers: { 'content-type': 'image/png' }, payload: Buffer.alloc(300_000) });
    expect(tooBig.json()).toMatchObject({ status: 413, detail: 'Request body exceeds the limit of 262144 bytes.' });
  });

  it('bounds a chunked body (no Content-Length) by the route limit while it is read', async () => {
    const app = uploadsApp();
    const chunked = { 'content-type': 'application/json', 'transfer-encoding': 'chunked' };
    const login = await app.inject({ method: 'POST', url: '/login', headers: chunked, payload: jsonOf(5000) });
    expect(login.statusCode).toBe(413);
    const avatar = await app.inject({ method: 'POST', url: '/avatar', headers: { ...chunked, 'content-type': 'image/png' }, payload: Buffer.alloc(50_000) });
    expect(avatar.json()).toEqual({ size: 50_000 });
  });

  it("reads a route's body with its multipart option when the handler gives no limits (resolved in ready())", async () => {
    const app = new TernApp({ logger: false });
    const limited = { multipart: { limits: { files: 1, fieldSize: 8 } } };
    app.post('/one', limited, async (req) => ({ files: (await req.multipart()).files.length }));
    app.post('/parts', limited, async (req) => {
      let count = 0;
      for await (const part of req.parts()) {
        if (part.type !== 'file') continue;
        count++;
        part.stream.resume();
      }
      return { files: count };
    });
    app.post('/own', limited, async (req) => ({ files: (await req.multipart({ limits: { files: 3 } })).files.length }));
    const two = multipartBody([1, 2].map((n) => ({ name: 'f', filename: `${n}.bin`, contentType: 'application/octet-stream', value: Buffer.from('x') })));
    for (const url of ['/one', '/parts']) {
      const response = await app.inject({ method: 'POST', url, headers: multipartHeaders(), payload: two });
      expect([response.statusCode, response.json().code, response.json().detail]).toEqual([413, 'TERN_MULTIPART_LIMIT', expect.stringContaining("(multipart limit 'files')")]);
    }
    const field = await app.inject({ method: 'POST', url: '/one', headers: multipartHeaders(), payload: multipartBody([{ name: 'note', value: 'x'.repeat(9) }]) });
    expect(field.json().detail).toContain("(multipart limit 'fieldSize')");
    // Limits given to the call win for that call.
    expect((await app.inject({ method: 'POST', url: '/own', headers: multipartHeaders(), payload: two })).json()).toEqual({ files: 2 });
  });

  it('gives a multipart body its own limit: the route’s, else MakeConfig.multipartLimit', async () => {
    const app = uploadsApp();
    const upload = await app.inject({ method: 'POST', url: '/upload', headers: multipartHeaders(), payload: fileOf(100_000) });
    expect([upload.statusCode, upload.json()]).toEqual([200, { size: 100_000 }]);
    // The multipart limit does not widen the route's other bodies.
    const json = await app.inject({ method: 'POST', url: '/upload', headers: { 'content-type': 'application/json' }, payload: jsonOf(5000) });
    expect(json.statusCode).toBe(413);

    const appWide = new TernApp({ config: new MakeConfig({ bodyLimit: 1024, multipartLimit: 512 * 1024 }), logger: false });
    appWide.post('/login', async (req) => req.json());
    appWide.post('/files', async (req) => ({ size: (await req.multipart()).files[0].size }));
    expect((await appWide.inject({ method: 'POST', url: '/files', headers: multipartHeaders(), payload: fileOf(300_000) })).json()).toEqual({ size: 300_000 });
    const login = await appWide.inject({ method: 'POST', url: '/login', headers: { 'content-type': 'application/json' }, payload: jsonOf(5000) });
    expect(login.statusCode).toBe(413);
    // Files default to the multipart limit too (limits.fileSize), not to bodyLimit.
    const over = await appWide.inject({ method: 'POST', url: '/files', headers: multipartHeaders(), payload: fileOf(600_000) });
    expect(over.json()).toMatchObject({ status: 413, code: 'TERN_BODY_TOO_LARGE' });
  });

  it('applies the route limit before middleware reads the body', async () => {
    const app = new TernApp({ config: new MakeConfig({ bodyLimit: 1024 }), logger: false });
    app.addMiddleware(async (req, _res, next) => {
      await req.buffer();
      return next();
    });
    app.post('/big', { bodyLimit: 64 * 1024 }, async (req) => ({ size: (await req.buffer()).length }));
    app.post('/small', async () => ({}));
    const chunked = { 'content-type': 'application/octet-stream', 'transfer-encoding': 'chunked' };
    expect((await app.inject({ method: 'POST', url: '/big', headers: chunked, payload: Buffer.alloc(10_000) })).json()).toEqual({ size: 10_000 });
    expect((await app.inject({ method: 'POST', url: '/small', headers: chunked, payload: Buffer.alloc(10_000) })).statusCode).toBe(413);
  });

  it('takes a controller’s limits for its routes, a route’s own winning', async () => {
    @Controller('/files', { bodyLimit: 8 * 1024, multipartLimit: 128 * 1024 })
    class Files {
      @Post('/photo')
      async photo(@UploadedFile('file') file: MultipartFile) {
        return { size: file.size };
      }

      @Post('/note', { bodyLimit: 100 })
      async note() {
        return { ok: true };
      }
    }
    const app = new TernApp({ config: new MakeConfig({ bodyLimit: 1024 }), logger: false });
    app.registerControllers([Files]);
    app.post('/elsewhere', async () => ({}));
    const photo = await app.inject({ method: 'POST', url: '/files/photo', headers: multipartHeaders(), payload: fileOf(100_000) });
    expect([photo.statusCode, photo.json()]).toEqual([200, { size: 100_000 }]);
    const note = await app.inject({ method: 'POST', url: '/files/note', headers: { 'content-type': 'text/plain' }, payload: 'x'.repeat(200) });
    expect(note.json()).toMatchObject({ status: 413, detail: 'Request body exceeds the limit of 100 bytes.' });
    const elsewhere = await app.inject({ method: 'POST', url: '/elsewhere', headers: { 'content-type': 'text/plain' }, payload: 'x'.repeat(2000) });
    expect(elsewhere.statusCode).toBe(413);
  });

  it.each([0, -1, 1.5, '1mb'])('refuses bodyLimit %p at startup, naming the route and the option', async (value) => {
    const app = new TernApp({ logger: false });
    app.post('/x', { bodyLimit: value as number }, async () => ({}));
    await expect(app.ready()).rejects.toMatchObject({
      code: 'TERN_INVALID_ROUTE_OPTION',
      message: "Route POST /x: bodyLimit must be a positive whole number of bytes.",
    });
  });
});

/** One POST over a real socket; with `expectContinue`, the body is sent only once the server asks for it. */
function post(port: number, path: string, headers: Record<string, string>, body: Buffer, expectContinue = false): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { port, host: '127.0.0.1', path, method: 'POST', headers: { ...headers, 'content-length': String(body.length), ...(expectContinue ? { expect: '100-continue' } : {}) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode as number, body: text }));
      },
    );
    req.on('error', reject);
    if (expectContinue) req.on('continue', () => req.end(body));
    else req.end(body);
  });
}

describe('per-route body limits (real socket)', () => {
  let app: TernApp;
  let port: number;
  beforeAll(async () => {
    app = uploadsApp();
    port = await listenOnFreePort(app);
  });
  afterAll(() => app.close());

  it('accepts a large upload and refuses a large login body on one server', async () => {
    const upload = await post(port, '/upload', multipartHeaders(), fileOf(200_000));
    expect([upload.status, JSON.parse(upload.body)]).toEqual([200, { size: 200_000 }]);
    const login = await post(port, '/login', { 'content-type': 'application/json' }, Buffer.from(jsonOf(100_000)));
    expect(login.status).toBe(413);
    expect(JSON.parse(login.body)).toMatchObject({ code: 'TERN_BODY_TOO_LARGE', detail: 'Request body exceeds the limit of 1024 bytes.' });
  });

  it('answers Expect: 100-continue up to the largest route limit, and each route keeps its own', async () => {
    const upload = await post(port, '/avatar', { 'content-type': 'image/png' }, Buffer.alloc(200_000), true);
    expect([upload.status, JSON.parse(upload.body)]).toEqual([200, { size: 200_000 }]);
    // Over every route's limit: refused before the body is sent.
    const huge = await post(port, '/avatar', { 'content-type': 'image/png' }, Buffer.alloc(300_000), true);
    expect(huge.status).toBe(413);
  });
});
