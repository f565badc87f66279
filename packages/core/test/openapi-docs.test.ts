import { readFileSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { getAbsoluteFSPath } from 'swagger-ui-dist';
import { TernApp, type Handler, type Middleware } from '@tern/core';

const ok: Handler = async () => ({ ok: true });
const swaggerUiDir = getAbsoluteFSPath();
const swaggerUiVersion = JSON.parse(readFileSync(join(swaggerUiDir, 'package.json'), 'utf8')).version as string;

function appWithRoute(options: ConstructorParameters<typeof TernApp>[0] = {}): TernApp {
  const app = new TernApp(options);
  app.get('/items', { summary: 'List items' }, ok);
  return app;
}

describe('GET /openapi.json', () => {
  it('serves the document as JSON', async () => {
    const response = await appWithRoute().inject('/openapi.json');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.json().paths['/items'].get.summary).toBe('List items');
  });

  it('is built once, in ready(): later changes to route metadata do not reach it', async () => {
    const app = new TernApp();
    const route = app.get('/items', { summary: 'Before' }, ok);
    await app.ready();
    (route.options as { summary?: string }).summary = 'After';
    const first = await app.inject('/openapi.json');
    const second = await app.inject('/openapi.json');
    expect(first.json().paths['/items'].get.summary).toBe('Before');
    expect(second.body).toBe(first.body);
  });

  it('answers HEAD like any GET route', async () => {
    const response = await appWithRoute().inject({ method: 'HEAD', url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
    expect(Number(response.headers['content-length'])).toBeGreaterThan(0);
  });

  it('moves with openapiPath, and docsPath with it', async () => {
    const app = appWithRoute({ openapi: { openapiPath: '/api/schema.json', docsPath: '/api/docs' } });
    expect((await app.inject('/api/schema.json')).json().openapi).toBe('3.1.0');
    expect((await app.inject('/openapi.json')).statusCode).toBe(404);
    const page = await app.inject('/api/docs');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('"url":"/api/schema.json"');
    expect(page.body).toContain(`src="/api/docs/assets/swagger-ui-bundle.js?v=${swaggerUiVersion}"`);
    expect((await app.inject('/api/docs/assets/swagger-ui.css')).statusCode).toBe(200);
  });

  it('is not served with openapiPath: false, and then neither are the docs', async () => {
    const app = appWithRoute({ openapi: { openapiPath: false } });
    expect((await app.inject('/openapi.json')).statusCode).toBe(404);
    expect((await app.inject('/docs')).statusCode).toBe(404);
  });

  it('is not one of the app’s routes and is not in its own document', async () => {
    const app = appWithRoute();
    await app.ready();
    expect(app.getAllRoutes().map((route) => route.rawPath)).toEqual(['/items']);
    expect(Object.keys((await app.inject('/openapi.json')).json().paths)).toEqual(['/items']);
  });

  it('goes through app middleware like any request', async () => {
    const seen: string[] = [];
    const log: Middleware = async (req, res, next) => {
      seen.push(req.path);
      return next();
    };
    const app = appWithRoute();
    app.addMiddleware(log);
    await app.inject('/openapi.json');
    await app.inject('/docs');
    expect(seen).toEqual(['/openapi.json', '/docs']);
  });

  it('conflicts with a user route at the same path', async () => {
    const app = appWithRoute();
    app.get('/openapi.json', ok);
    await expect(app.ready()).rejects.toMatchObject({ code: 'TERN_ROUTE_CONFLICT' });
  });
});

describe('GET /docs (Swagger UI)', () => {
  it('serves an HTML page that loads Swagger UI from the app and points at the document', async () => {
    const response = await appWithRoute({ openapi: { title: 'Shop <API>' } }).inject('/docs');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = response.body;
    expect(html).toContain('<title>Shop &#60;API&#62; - Swagger UI</title>');
    for (const asset of ['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js']) {
      expect(html).toContain(`/docs/assets/${asset}?v=${swaggerUiVersion}`);
    }
    expect(html).toContain('"url":"/openapi.json"');
    expect(html).toContain('"oauth2RedirectPath":"/docs/oauth2-redirect.html"');
    expect(html).toMatch(/<script src="\/docs\/assets\/tern-swagger-ui-init\.js\?v=[A-Za-z0-9_-]+"><\/script>/);
    expect(html).toContain('"validatorUrl":null');
    // Everything comes from the app: no absolute URL to any other host.
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
  });

  it('escapes values so they cannot close the settings’ script block', async () => {
    const html = (await appWithRoute({ openapi: { openapiPath: '/x</script><script>alert(1)</script>.json' } }).inject('/docs')).body;
    expect(html).not.toContain('</script><script>alert(1)');
    expect(html).toContain('\\u003c/script\\u003e');
  });

  it('serves the OAuth2 redirect page, which loads swagger-ui-dist’s script from the app', async () => {
    const response = await appWithRoute().inject('/docs/oauth2-redirect.html');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toContain(`<script src="/docs/assets/oauth2-redirect.js?v=${swaggerUiVersion}"></script>`);
    const script = await appWithRoute().inject('/docs/assets/oauth2-redirect.js');
    expect(script.body).toBe(readFileSync(join(swaggerUiDir, 'oauth2-redirect.js'), 'utf8'));
  });

  it('serves the assets byte for byte with their content types and caching headers', async () => {
    const app = appWithRoute();
    for (const [file, type] of [
      ['swagger-ui.css', 'text/css; charset=utf-8'],
      ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
      ['swagger-ui-standalone-preset.js', 'text/javascript; charset=utf-8'],
      ['favicon-32x32.png', 'image/png'],
    ]) {
      const response = await app.inject(`/docs/assets/${file}`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe(type);
      expect(response.headers['cache-control']).toBe('public, max-age=604800');
      expect(response.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
      expect(response.rawPayload.equals(readFileSync(join(swaggerUiDir, file)))).toBe(true);
    }
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const app = appWithRoute();
    const first = await app.inject('/docs/assets/swagger-ui.css');
    const etag = first.headers.etag as string;
    const again = await app.inject({ url: '/docs/assets/swagger-ui.css', headers: { 'if-none-match': `"other", W/${etag}` } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    const changed = await app.inject({ url: '/docs/assets/swagger-ui.css', headers: { 'if-none-match': '"other"' } });
    expect(changed.statusCode).toBe(200);
  });

  it.each([
    '/docs/assets/package.json',
    '/docs/assets/index.html',
    '/docs/assets/swagger-ui-bundle.js.map',
    '/docs/assets/%2Fetc%2Fpasswd',
    '/docs/assets/constructor',
    '/docs/assets/',
  ])('answers 404 for anything but its own files: %s', async (url) => {
    const response = await appWithRoute().inject(url);
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toBe('application/problem+json; charset=utf-8');
  });

  it.each([
    '/docs/assets/..%2Fpackage.json',
    '/docs/assets/%2e%2e%2fpackage.json',
    '/docs/assets/..%2f..%2f..%2fpackage.json',
    '/docs/assets/x/../../package.json',
  ])('answers 400 to a way out of its folder: %s', async (url) => {
    const response = await appWithRoute().inject(url);
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('TERN_BAD_PATH');
  });

  it('never serves a file for raw dot segments sent on a socket (they are a 400 before routing)', async () => {
    // inject() normalises `..` away like a browser would; a raw client does not.
    const app = appWithRoute();
    const address = new URL(await app.listen({ port: 0 }));
    try {
      for (const path of ['/docs/assets/../../package.json', '/docs/assets/%2e%2e/%2e%2e/package.json', '/docs/assets/..\\..\\package.json']) {
        const status = await new Promise<number | undefined>((resolve, reject) => {
          get({ host: address.hostname, port: address.port, path }, (res) => {
            res.resume();
            resolve(res.statusCode);
          }).on('error', reject);
        });
        expect([400, 404]).toContain(status);
      }
    } finally {
      await app.close();
    }
  });

  it('is not served with docsPath: false; the document still is', async () => {
    const app = appWithRoute({ openapi: { docsPath: false } });
    expect((await app.inject('/docs')).statusCode).toBe(404);
    expect((await app.inject('/docs/assets/swagger-ui.css')).statusCode).toBe(404);
    expect((await app.inject('/openapi.json')).statusCode).toBe(200);
  });
});
