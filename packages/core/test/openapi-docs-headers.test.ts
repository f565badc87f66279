import { OAuth2, TernApp, type Handler, type Middleware, type OpenAPIOptions } from '@tern/core';

const ok: Handler = async () => ({ ok: true });

function appWith(openapi: OpenAPIOptions = {}): TernApp {
  const app = new TernApp({ openapi });
  app.get('/items', { summary: 'List items' }, ok);
  return app;
}

/** The default policy of the Swagger UI page, as a browser receives it. */
const PAGE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; style-src-elem 'self'; img-src 'self' data: blob:; " +
  "connect-src 'self'; media-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/** A Content-Security-Policy header's directives by name, as a browser reads them. */
function directives(policy: unknown): Record<string, string> {
  const entries = String(policy).split(';').map((directive) => directive.trim().split(/\s+/));
  return Object.fromEntries(entries.map(([name, ...sources]) => [name, sources.join(' ')]));
}

const REDIRECT_POLICY = "default-src 'none'; script-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'";

describe('security headers of the docs responses (defaults)', () => {
  it('sends the Swagger UI page with a policy that allows no inline script, no eval and no framing', async () => {
    const response = await appWith().inject('/docs');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-security-policy']).toBe(PAGE_POLICY);
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('keeps the same headers on a HEAD of the page', async () => {
    const response = await appWith().inject({ method: 'HEAD', url: '/docs' });
    expect(response.headers['content-security-policy']).toBe(PAGE_POLICY);
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('sends the OAuth2 redirect page with a policy of its own: only the app’s scripts', async () => {
    const response = await appWith().inject('/docs/oauth2-redirect.html');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-security-policy']).toBe(REDIRECT_POLICY);
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it.each(['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'tern-swagger-ui-init.js', 'oauth2-redirect.js', 'favicon-16x16.png'])(
    'sends nosniff (and no page policy) with the asset %s',
    async (file) => {
      const response = await appWith().inject(`/docs/assets/${file}`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['content-security-policy']).toBeUndefined();
      expect(response.headers['x-frame-options']).toBeUndefined();
    },
  );

  it('sends nosniff with a 304 of an asset and with the 404 of an unknown one', async () => {
    const app = appWith();
    const first = await app.inject('/docs/assets/swagger-ui.css');
    const again = await app.inject({ url: '/docs/assets/swagger-ui.css', headers: { 'if-none-match': first.headers.etag as string } });
    expect(again.statusCode).toBe(304);
    expect(again.headers['x-content-type-options']).toBe('nosniff');
    const missing = await app.inject('/docs/assets/package.json');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['x-content-type-options']).toBe('nosniff');
  });

  it('sends nosniff with the OpenAPI document', async () => {
    const response = await appWith().inject('/openapi.json');
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toBeUndefined();
  });

  it('leaves the app’s own routes alone', async () => {
    const response = await appWith().inject('/items');
    expect(response.headers['x-content-type-options']).toBeUndefined();
    expect(response.headers['content-security-policy']).toBeUndefined();
  });
});

describe('what the docs page may connect to', () => {
  it('adds the origins of absolute servers and of OAuth2 token and refresh URLs, once each', async () => {
    const app = appWith({
      servers: [
        { url: 'https://api.example.com/v1' },
        { url: 'https://api.example.com:443/v2' },
        { url: '/relative' },
        { url: 'https://{region}.example.com' },
        { url: 'http://localhost:8080/' },
      ],
    });
    app.openapiConfig.addSecurityScheme(
      'oauth2',
      new OAuth2({
        flows: {
          authorizationCode: { authorizationUrl: 'https://login.example.com/authorize', tokenUrl: 'https://login.example.com/token', scopes: {} },
          clientCredentials: { tokenUrl: 'https://tokens.example.com/token', refreshUrl: 'https://refresh.example.com/r', scopes: {} },
          password: { tokenUrl: '/token', scopes: {} },
        },
      }),
    );
    const apis = "'self' https://api.example.com http://localhost:8080 https://login.example.com https://tokens.example.com https://refresh.example.com";
    const policy = (await app.inject('/docs')).headers['content-security-policy'];
    expect(directives(policy)).toEqual({ ...directives(PAGE_POLICY), 'connect-src': apis, 'media-src': apis });
  });

  it('adds docsConnectSrc after them', async () => {
    const app = appWith({ servers: [{ url: 'https://api.example.com' }], docsConnectSrc: ['https://*.eu.example.com', 'wss://events.example.com'] });
    const apis = "'self' https://api.example.com https://*.eu.example.com wss://events.example.com";
    const policy = (await app.inject('/docs')).headers['content-security-policy'];
    expect(directives(policy)).toEqual({ ...directives(PAGE_POLICY), 'connect-src': apis, 'media-src': apis });
  });
});

describe('docsFrameAncestors', () => {
  it('lets named origins frame the pages, without X-Frame-Options (it cannot name them)', async () => {
    const app = appWith({ docsFrameAncestors: ["'self'", 'https://portal.example.com'] });
    const page = await app.inject('/docs');
    expect(directives(page.headers['content-security-policy'])).toEqual({ ...directives(PAGE_POLICY), 'frame-ancestors': "'self' https://portal.example.com" });
    expect(page.headers['x-frame-options']).toBeUndefined();
    const redirect = await app.inject('/docs/oauth2-redirect.html');
    expect(directives(redirect.headers['content-security-policy'])).toEqual({ ...directives(REDIRECT_POLICY), 'frame-ancestors': "'self' https://portal.example.com" });
    expect(redirect.headers['x-frame-options']).toBeUndefined();
  });

  it("sends X-Frame-Options: SAMEORIGIN for ['self'] alone", async () => {
    const page = await appWith({ docsFrameAncestors: ["'self'"] }).inject('/docs');
    expect(directives(page.headers['content-security-policy'])).toEqual({ ...directives(PAGE_POLICY), 'frame-ancestors': "'self'" });
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
  });
});

describe('docsContentSecurityPolicy', () => {
  const mine = "default-src 'self'; img-src 'self' data: https:; frame-ancestors 'self'";

  it('replaces the policy of both pages; the other headers stay', async () => {
    const app = appWith({ docsContentSecurityPolicy: mine, docsFrameAncestors: ["'self'"] });
    for (const url of ['/docs', '/docs/oauth2-redirect.html']) {
      const response = await app.inject(url);
      expect(response.headers['content-security-policy']).toBe(mine);
      expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('false sends no policy (for a proxy that sets its own)', async () => {
    const app = appWith({ docsContentSecurityPolicy: false });
    for (const url of ['/docs', '/docs/oauth2-redirect.html']) {
      const response = await app.inject(url);
      expect(response.headers['content-security-policy']).toBeUndefined();
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('can still be changed by app middleware after the docs handler ran', async () => {
    const app = appWith();
    const mine: Middleware = async (req, res, next) => {
      const response = await next();
      return response.setHeader('Content-Security-Policy', "default-src 'self'");
    };
    app.addMiddleware(mine);
    const response = await app.inject('/docs');
    expect(response.headers['content-security-policy']).toBe("default-src 'self'");
    expect(response.headers['x-frame-options']).toBe('DENY');
  });
});

describe('invalid docs header options fail when the app is built', () => {
  it.each<[string, OpenAPIOptions]>([
    ['an empty frame-ancestors list', { docsFrameAncestors: [] }],
    ["'none' among other sources", { docsFrameAncestors: ["'none'", "'self'"] }],
    ['a source with a space', { docsFrameAncestors: ["'self' https://a.example.com"] }],
    ['a source with a semicolon', { docsConnectSrc: ["https://a.example.com; script-src 'unsafe-inline'"] }],
    ['a source with a comma', { docsConnectSrc: ['https://a.example.com,https://b.example.com'] }],
    ['a source that is not a string', { docsConnectSrc: [42 as unknown as string] }],
    ['sources that are not a list', { docsConnectSrc: 'https://a.example.com' as unknown as string[] }],
    ['an empty source', { docsConnectSrc: [''] }],
    ['a policy with a line break', { docsContentSecurityPolicy: "default-src 'self'\r\nX-Injected: 1" }],
    ['an empty policy', { docsContentSecurityPolicy: ' ' }],
    ['a policy that is not a string', { docsContentSecurityPolicy: true as unknown as string }],
  ])('%s', (_, openapi) => {
    expect(() => new TernApp({ openapi })).toThrow(expect.objectContaining({ code: 'TERN_INVALID_OPENAPI_OPTIONS' }));
  });
});

describe('the docs page has no inline script', () => {
  it('runs only scripts served by the app; its settings travel in a JSON block the browser does not execute', async () => {
    const html = (await appWith().inject('/docs')).body;
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)].map(([, attributes, body]) => ({ attributes: attributes.trim(), body }));
    const inline = scripts.filter((script) => !/\bsrc="/.test(script.attributes));
    expect(inline).toEqual([{ attributes: 'type="application/json" id="tern-swagger-ui-config"', body: expect.stringContaining('"url":"/openapi.json"') }]);
    expect(JSON.parse(inline[0].body)).toEqual({
      url: '/openapi.json',
      dom_id: '#swagger-ui',
      deepLinking: true,
      validatorUrl: null,
      oauth2RedirectPath: '/docs/oauth2-redirect.html',
    });
    expect(html).not.toMatch(/\son[a-z]+=/i);
  });

  it('serves the start-up script as an asset whose URL changes with its bytes', async () => {
    const app = appWith();
    const html = (await app.inject('/docs')).body;
    const url = /src="(\/docs\/assets\/tern-swagger-ui-init\.js\?v=[A-Za-z0-9_-]+)"/.exec(html)?.[1];
    expect(url).toBeDefined();
    const script = await app.inject(url as string);
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers['cache-control']).toBe('public, max-age=604800');
    expect(script.headers.etag).toBe(`"${(url as string).split('?v=')[1]}"`);
    expect(script.body).toContain("document.getElementById(\"tern-swagger-ui-config\")");
    expect(script.body).toContain('config.oauth2RedirectUrl = window.location.origin + config.oauth2RedirectPath');
  });
});
