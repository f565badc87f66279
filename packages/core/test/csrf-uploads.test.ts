/**
 * `csrf()` and multipart bodies: the token is looked for only among the fields before the first
 * file part, a file part without a token before it is refused at once (nothing of the upload is
 * held, the connection closes), and a body that passes is handed to the handler whole.
 */
import { csrf, MakeConfig, TernApp } from '@tern/core';
import { BOUNDARY, multipartBody, multipartHeaders } from '../../../test-support/multipart';
import { bodyOf, listenOnFreePort, rawExchange, statusOf } from '../../../test-support/raw-http';

function site(): TernApp {
  const app = new TernApp({ logger: false, config: new MakeConfig({ secret: 'sixteen-or-more-characters' }) });
  app.addMiddleware(csrf());
  app.get('/form', async (_req, res) => ({ token: res.locals.csrfToken }));
  const limits = { bodyLimit: 64 * 1024 * 1024, multipartLimit: 64 * 1024 * 1024, multipart: { limits: { fileSize: 64 * 1024 * 1024 } } };
  app.post('/upload', limits, async (req) => {
    const { fields, files } = await req.multipart();
    return { caption: fields.caption ?? null, files: files.map((f) => [f.filename, f.buffer.toString()]) };
  });
  app.post('/stream', limits, async (req) => {
    const seen: string[] = [];
    for await (const part of req.parts()) {
      if (part.type === 'field') seen.push(`${part.fieldName}=${part.value}`);
      else {
        let text = '';
        for await (const chunk of part.stream) text += chunk;
        seen.push(`${part.filename}:${text}`);
      }
    }
    return { seen };
  });
  app.post('/ignores-body', limits, async () => ({ ok: true }));
  return app;
}

async function visit(app: TernApp): Promise<{ token: string; cookie: string }> {
  const { token } = (await app.inject('/form')).json();
  return { token, cookie: `tern_csrf=${token}` };
}

afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});
const apps: TernApp[] = [];

describe('csrf() and multipart bodies', () => {
  it('refuses a file part that comes before any token as soon as it starts, without reading the upload', async () => {
    const app = site();
    apps.push(app);
    const port = await listenOnFreePort(app);
    const { cookie } = await visit(app);
    // 60 MiB declared, only the first 64 KiB sent: the answer cannot wait for the rest.
    const head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    const start =
      `POST /upload HTTP/1.1\r\nHost: x\r\nCookie: ${cookie}\r\nContent-Type: ${multipartHeaders()['content-type']}\r\n` +
      `Content-Length: ${60 * 1024 * 1024}\r\n\r\n${head}${'a'.repeat(64 * 1024)}`;
    const exchange = await rawExchange(port, start, { waitMs: 10_000 });
    expect(statusOf(exchange.data)).toBe(403);
    expect(exchange.data.toLowerCase()).toContain('connection: close');
    expect(JSON.parse(bodyOf(exchange.data))).toMatchObject({ code: 'TERN_CSRF_INVALID', detail: expect.stringContaining('a file part came before') });
    expect(exchange.closedByServer).toBe(true);
  });

  it('does not take a token that comes after a file part', async () => {
    const app = site();
    const { token, cookie } = await visit(app);
    const payload = multipartBody([
      { name: 'photo', filename: 'a.txt', value: 'pixels' },
      { name: '_csrf', value: token },
    ]);
    const response = await app.inject({ method: 'POST', url: '/upload', headers: { ...multipartHeaders(), cookie }, payload });
    expect([response.statusCode, response.json().code]).toEqual([403, 'TERN_CSRF_INVALID']);
  });

  it('hands a body whose token comes first to req.multipart() and req.parts(), every part in order', async () => {
    const app = site();
    const { token, cookie } = await visit(app);
    const payload = multipartBody([
      { name: '_csrf', value: token },
      { name: 'caption', value: 'Sunset' },
      { name: 'photo', filename: 'a.txt', value: 'pixels' },
      { name: 'photo', filename: 'b.txt', value: 'more' },
      { name: 'after', value: 'yes' },
    ]);
    const headers = { ...multipartHeaders(), cookie };
    const buffered = await app.inject({ method: 'POST', url: '/upload', headers, payload });
    expect(buffered.json()).toEqual({ caption: 'Sunset', files: [['a.txt', 'pixels'], ['b.txt', 'more']] });
    const streamed = await app.inject({ method: 'POST', url: '/stream', headers, payload });
    expect(streamed.json()).toEqual({ seen: [`_csrf=${token}`, 'caption=Sunset', 'a.txt:pixels', 'b.txt:more', 'after=yes'] });
    // A handler that never reads the body still answers; the rest of it is drained.
    const ignored = await app.inject({ method: 'POST', url: '/ignores-body', headers, payload });
    expect(ignored.json()).toEqual({ ok: true });
    // A form of fields only, the token among them, passes too.
    const fieldsOnly = await app.inject({ method: 'POST', url: '/upload', headers, payload: multipartBody([{ name: 'caption', value: 'x' }, { name: '_csrf', value: token }]) });
    expect(fieldsOnly.json()).toEqual({ caption: 'x', files: [] });
  });

  it('keeps the header for uploads that stream: no body is looked at', async () => {
    const app = site();
    const { token, cookie } = await visit(app);
    const payload = multipartBody([{ name: 'photo', filename: 'a.txt', value: 'pixels' }]);
    const response = await app.inject({ method: 'POST', url: '/stream', headers: { ...multipartHeaders(), cookie, 'x-csrf-token': token }, payload });
    expect(response.json()).toEqual({ seen: ['a.txt:pixels'] });
  });
});
