import { csrf, MakeConfig, TernApp } from '@tern/core';

const FORM = 'application/x-www-form-urlencoded';

function app(): TernApp {
  const app = new TernApp({ config: new MakeConfig({ secret: 'sixteen-or-more-characters' }) });
  app.addMiddleware(csrf());
  app.get('/form', async (req, res) => ({ token: res.locals.csrfToken, field: res.locals.csrfFieldName }));
  app.post('/form', async (req) => ({ got: (await req.form()).name }));
  app.post('/api/notes', async (req) => ({ got: (await req.json()).text }));
  return app;
}

async function visit(site: TernApp): Promise<{ token: string; cookie: string }> {
  const page = await site.inject('/form');
  const cookie = page.cookies.find((c) => c.name === 'tern_csrf');
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
  expect(page.json().token).toBe(cookie?.value);
  return { token: page.json().token, cookie: `tern_csrf=${cookie?.value}` };
}

describe('csrf()', () => {
  it("passes the site's own form and fetch calls that carry the token", async () => {
    const site = app();
    const { token, cookie } = await visit(site);
    const form = await site.inject({ method: 'POST', url: '/form', headers: { cookie, 'content-type': FORM }, payload: `name=Ada&_csrf=${encodeURIComponent(token)}` });
    expect([form.statusCode, form.json()]).toEqual([200, { got: 'Ada' }]);
    const api = await site.inject({ method: 'POST', url: '/api/notes', headers: { cookie, 'x-csrf-token': token }, payload: { text: 'hi' } });
    expect(api.json()).toEqual({ got: 'hi' });
    // The same-origin Origin header a browser sends is fine.
    const sameOrigin = await site.inject({ method: 'POST', url: '/form', headers: { cookie, host: 'site.test', origin: 'http://site.test', 'content-type': FORM }, payload: `_csrf=${encodeURIComponent(token)}` });
    expect(sameOrigin.statusCode).toBe(200);
    // The default port written out is the same origin.
    const defaultPort = await site.inject({ method: 'POST', url: '/form', headers: { cookie, host: 'site.test', origin: 'http://site.test:80', 'content-type': FORM }, payload: `_csrf=${encodeURIComponent(token)}` });
    expect(defaultPort.statusCode).toBe(200);
    // A page seen again keeps its token (no new cookie).
    expect((await site.inject({ url: '/form', headers: { cookie } })).headers['set-cookie']).toBeUndefined();
  });

  it('refuses unsafe requests without a matching token, with 403 TERN_CSRF_INVALID', async () => {
    const site = app();
    const { token, cookie } = await visit(site);
    const other = await visit(site);
    const refused: Array<{ headers: Record<string, string>; payload: string }> = [
      { headers: { 'content-type': FORM }, payload: `_csrf=${encodeURIComponent(token)}` },
      { headers: { cookie, 'content-type': FORM }, payload: 'name=Ada' },
      { headers: { cookie, 'content-type': FORM }, payload: `_csrf=${encodeURIComponent(other.token)}` },
      { headers: { cookie: `tern_csrf=${token.split('.')[0]}.forged`, 'content-type': FORM }, payload: `_csrf=${token.split('.')[0]}.forged` },
      { headers: { cookie, 'content-type': FORM, 'sec-fetch-site': 'cross-site' }, payload: `_csrf=${encodeURIComponent(token)}` },
      { headers: { cookie, 'content-type': FORM, host: 'site.test', origin: 'https://evil.example' }, payload: `_csrf=${encodeURIComponent(token)}` },
      { headers: { cookie, 'content-type': FORM, origin: 'null' }, payload: `_csrf=${encodeURIComponent(token)}` },
      // Another scheme or port is another origin.
      { headers: { cookie, 'content-type': FORM, host: 'site.test', origin: 'https://site.test' }, payload: `_csrf=${encodeURIComponent(token)}` },
      { headers: { cookie, 'content-type': FORM, host: 'site.test', origin: 'http://site.test:8080' }, payload: `_csrf=${encodeURIComponent(token)}` },
      { headers: { cookie, 'content-type': FORM, host: 'site.test:8080', origin: 'http://site.test' }, payload: `_csrf=${encodeURIComponent(token)}` },
    ];
    for (const request of refused) {
      const response = await site.inject({ method: 'POST', url: '/form', ...request });
      expect([request, response.statusCode, response.json().code]).toEqual([request, 403, 'TERN_CSRF_INVALID']);
    }
  });

  it('reads the token of a multipart form, leaving the body to the handler', async () => {
    const site = app();
    site.post('/upload', async (req) => {
      const { fields, files } = await req.multipart();
      return { caption: fields.caption, file: files[0]?.filename };
    });
    const { token, cookie } = await visit(site);
    const boundary = 'tern-boundary';
    const part = (headers: string, body: string) => `--${boundary}\r\n${headers}\r\n\r\n${body}\r\n`;
    const body = (csrfToken: string) =>
      part('Content-Disposition: form-data; name="_csrf"', csrfToken) +
      part('Content-Disposition: form-data; name="caption"', 'Sunset') +
      part('Content-Disposition: form-data; name="photo"; filename="sunset.txt"\r\nContent-Type: text/plain', 'pixels') +
      `--${boundary}--\r\n`;
    const headers = { cookie, 'content-type': `multipart/form-data; boundary=${boundary}` };
    const accepted = await site.inject({ method: 'POST', url: '/upload', headers, payload: body(token) });
    expect(accepted.json()).toEqual({ caption: 'Sunset', file: 'sunset.txt' });
    expect((await site.inject({ method: 'POST', url: '/upload', headers, payload: body('wrong') })).statusCode).toBe(403);
  });

  it('does not accept a token signed with another secret', async () => {
    const { token, cookie } = await visit(app());
    const elsewhere = new TernApp({ config: new MakeConfig({ secret: 'a-different-secret-value' }) });
    elsewhere.addMiddleware(csrf());
    elsewhere.post('/form', async () => ({ ok: true }));
    const response = await elsewhere.inject({ method: 'POST', url: '/form', headers: { cookie, 'x-csrf-token': token } });
    expect(response.statusCode).toBe(403);
  });

  it('lets ignored requests through and checks options', async () => {
    const site = new TernApp();
    site.addMiddleware(csrf({ ignore: (req) => req.path === '/webhook' }));
    site.post('/webhook', async () => ({ ok: true }));
    expect((await site.inject({ method: 'POST', url: '/webhook' })).statusCode).toBe(200);
    expect(() => csrf({ secret: 'short' })).toThrow(TypeError);
    expect(() => csrf({ fieldName: '' })).toThrow(TypeError);
  });

  it('sets its cookie only on responses that used the token: not on JSON, static files, redirects or ignored paths', async () => {
    const site = new TernApp({ config: new MakeConfig({ secret: 'sixteen-or-more-characters' }) });
    site.addMiddleware(csrf({ ignore: (req) => req.path.startsWith('/hooks/') }));
    site.get('/page', async (_req, res) => res.html(`<input name="_csrf" value="${res.locals.csrfToken}">`));
    site.get('/api/data', async () => ({ ok: true }));
    site.get('/asset.css', async (_req, res) => res.setHeader('cache-control', 'public, max-age=31536000, immutable').send('body{}', 'text/css'));
    site.get('/go', async (_req, res) => res.redirect('/page', 303));
    site.get('/hooks/page', async (_req, res) => res.html(`${res.locals.csrfToken}`));
    for (const url of ['/api/data', '/asset.css', '/go', '/hooks/page']) {
      const response = await site.inject(url);
      expect([url, response.headers['set-cookie']]).toEqual([url, undefined]);
    }
    expect(String((await site.inject('/page')).headers['set-cookie'])).toMatch(/^tern_csrf=/);
  });

  it('gives the refusal its token too, so an error page can print the form again (and a fresh cookie)', async () => {
    const site = new TernApp({ config: new MakeConfig({ secret: 'sixteen-or-more-characters' }) });
    site.addMiddleware(csrf());
    site.post('/form', async () => ({ ok: true }));
    site.addExceptionHandler(403, async (_req, res) => res.html(`<form method="post"><input name="_csrf" value="${res.locals.csrfToken}"></form>`, 403));
    const refused = await site.inject({ method: 'POST', url: '/form', headers: { 'content-type': FORM }, payload: 'name=Ada' });
    expect(refused.statusCode).toBe(403);
    const cookie = refused.cookies.find((c) => c.name === 'tern_csrf');
    expect(refused.body).toBe(`<form method="post"><input name="_csrf" value="${cookie?.value}"></form>`);
    // The form on that page works.
    const again = await site.inject({ method: 'POST', url: '/form', headers: { cookie: `tern_csrf=${cookie?.value}`, 'content-type': FORM }, payload: `_csrf=${encodeURIComponent(String(cookie?.value))}` });
    expect(again.json()).toEqual({ ok: true });
  });

  it('without an app secret, signs with TERN_DEV_SECRET (the dev loop sets it; never in production), so a restarted server takes the forms it gave out', async () => {
    /** A fresh copy of Tern, as a restarted server process loads it: its per-process key is drawn anew. */
    const restartedSite = (): TernApp => {
      let fresh: typeof import('@tern/core') | undefined;
      jest.isolateModules(() => {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        fresh = require('@tern/core');
      });
      const core = fresh as typeof import('@tern/core');
      const site = new core.TernApp({ logger: false });
      site.addMiddleware(core.csrf());
      site.get('/form', async (_req, res) => ({ token: res.locals.csrfToken }));
      site.post('/form', async () => ({ ok: true }));
      return site as unknown as TernApp;
    };
    const postAfterRestart = async (): Promise<number> => {
      const { token } = (await restartedSite().inject('/form')).json();
      const response = await restartedSite().inject({ method: 'POST', url: '/form', headers: { cookie: `tern_csrf=${token}`, 'x-csrf-token': token } });
      return response.statusCode;
    };
    const saved = { secret: process.env.TERN_DEV_SECRET, env: process.env.NODE_ENV };
    try {
      delete process.env.TERN_DEV_SECRET;
      expect(await postAfterRestart()).toBe(403);
      process.env.TERN_DEV_SECRET = 'tern-dev-a-fixed-secret-for-this-project';
      expect(await postAfterRestart()).toBe(200);
      process.env.NODE_ENV = 'production';
      expect(await postAfterRestart()).toBe(403);
    } finally {
      if (saved.secret === undefined) delete process.env.TERN_DEV_SECRET;
      else process.env.TERN_DEV_SECRET = saved.secret;
      process.env.NODE_ENV = saved.env;
    }
  });
});
