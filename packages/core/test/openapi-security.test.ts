import { APIKey, HTTPBearer, OAuth2, Router, SecurityRequirementError, TernApp, type Handler } from '@tern/core';

const ok: Handler = async () => ({ ok: true });

const SCOPES = { read: 'Read things', write: 'Write things' };

function appWithSchemes(): TernApp {
  const app = new TernApp();
  app.openapiConfig
    .addSecurityScheme('bearerAuth', new HTTPBearer({ bearerFormat: 'JWT', description: 'A JWT from /login' }))
    .addSecurityScheme('headerKey', new APIKey({ name: 'X-API-Key', in: 'header', description: 'Per-client key' }))
    .addSecurityScheme('queryKey', new APIKey({ name: 'api_key', in: 'query' }))
    .addSecurityScheme('cookieKey', new APIKey({ name: 'session', in: 'cookie' }))
    .addSecurityScheme(
      'oauth2',
      new OAuth2({
        description: 'Our OAuth2 server',
        flows: {
          authorizationCode: {
            authorizationUrl: 'https://auth.example.com/authorize',
            tokenUrl: 'https://auth.example.com/token',
            refreshUrl: 'https://auth.example.com/refresh',
            scopes: SCOPES,
          },
          clientCredentials: { tokenUrl: 'https://auth.example.com/token', scopes: { admin: 'Everything' } },
          password: { tokenUrl: 'https://auth.example.com/token', scopes: SCOPES },
        },
      }),
    );
  return app;
}

async function documentOf(app: TernApp): Promise<any> {
  return (await app.inject('/openapi.json')).json();
}

describe('security schemes in components.securitySchemes', () => {
  it('renders bearer, API keys in header, query and cookie, and OAuth2 flows with OpenAPI’s field names', async () => {
    const app = appWithSchemes();
    app.get('/x', ok);
    expect((await documentOf(app)).components.securitySchemes).toEqual({
      bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A JWT from /login' },
      headerKey: { type: 'apiKey', name: 'X-API-Key', in: 'header', description: 'Per-client key' },
      queryKey: { type: 'apiKey', name: 'api_key', in: 'query' },
      cookieKey: { type: 'apiKey', name: 'session', in: 'cookie' },
      oauth2: {
        type: 'oauth2',
        description: 'Our OAuth2 server',
        flows: {
          authorizationCode: {
            authorizationUrl: 'https://auth.example.com/authorize',
            tokenUrl: 'https://auth.example.com/token',
            refreshUrl: 'https://auth.example.com/refresh',
            scopes: SCOPES,
          },
          clientCredentials: { tokenUrl: 'https://auth.example.com/token', scopes: { admin: 'Everything' } },
          password: { tokenUrl: 'https://auth.example.com/token', scopes: SCOPES },
        },
      },
    });
  });

  it('keeps registration order and lists schemes no route uses', async () => {
    const app = appWithSchemes();
    app.get('/x', ok);
    expect(Object.keys((await documentOf(app)).components.securitySchemes)).toEqual(['bearerAuth', 'headerKey', 'queryKey', 'cookieKey', 'oauth2']);
  });
});

describe('route security requirements', () => {
  it('renders entries exactly: alternatives, all-of within one entry, [] for public, absent when undeclared', async () => {
    const app = appWithSchemes();
    app.get('/either', { security: [{ bearerAuth: [] }, { oauth2: ['read'] }] }, ok);
    app.get('/both', { security: [{ bearerAuth: [], headerKey: [] }] }, ok);
    app.get('/public', { security: [] }, ok);
    app.get('/undeclared', ok);
    app.get('/scoped', { security: [{ oauth2: ['read', 'write'] }, { oauth2: ['admin'] }, { queryKey: [] }, { cookieKey: [] }] }, ok);
    const { paths } = await documentOf(app);
    expect(paths['/either'].get.security).toEqual([{ bearerAuth: [] }, { oauth2: ['read'] }]);
    expect(paths['/both'].get.security).toEqual([{ bearerAuth: [], headerKey: [] }]);
    expect(paths['/public'].get.security).toEqual([]);
    expect('security' in paths['/undeclared'].get).toBe(false);
    expect(paths['/scoped'].get.security).toEqual([{ oauth2: ['read', 'write'] }, { oauth2: ['admin'] }, { queryKey: [] }, { cookieKey: [] }]);
  });

  it('never enforces: a declared route still answers without credentials', async () => {
    const app = appWithSchemes();
    app.get('/secret', { security: [{ bearerAuth: [] }] }, ok);
    const response = await app.inject('/secret');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true });
  });

  it('fails ready() when a requirement names an unregistered scheme', async () => {
    const app = appWithSchemes();
    const admin = new Router({ prefix: '/admin' });
    admin.get('/stats', { security: [{ bearerAuth: [] }, { beraerAuth: [] }] }, ok);
    app.mountRouter(admin);
    const error = await app.ready().catch((err) => err);
    expect(error).toBeInstanceOf(SecurityRequirementError);
    expect(error.code).toBe('TERN_UNKNOWN_SECURITY_SCHEME');
    expect(error.message).toBe(
      "Route GET /admin/stats: security names the scheme 'beraerAuth', which is not registered " +
        '(registered schemes: bearerAuth, headerKey, queryKey, cookieKey, oauth2). ' +
        "Register it with app.openapiConfig.addSecurityScheme('beraerAuth', scheme) before app.ready().",
    );
  });

  it('says when no scheme is registered at all', async () => {
    const app = new TernApp();
    app.get('/x', { security: [{ bearerAuth: [] }] }, ok);
    await expect(app.ready()).rejects.toThrow("(no scheme is registered)");
  });

  it('fails ready() when an OAuth2 requirement asks for a scope no flow defines', async () => {
    const app = appWithSchemes();
    app.post('/x', { security: [{ oauth2: ['read', 'delete'] }] }, ok);
    const error = await app.ready().catch((err) => err);
    expect(error.code).toBe('TERN_UNKNOWN_SECURITY_SCOPE');
    expect(error.message).toBe(
      "Route POST /x: security asks the OAuth2 scheme 'oauth2' for scope 'delete', which none of its flows defines " +
        '(defined scopes: read, write, admin).',
    );
  });

  it('accepts a scope defined by any one flow, and role lists on other scheme types', async () => {
    const app = appWithSchemes();
    app.get('/x', { security: [{ oauth2: ['admin', 'read'] }, { bearerAuth: ['ops'] }] }, ok);
    await expect(app.ready()).resolves.toBeUndefined();
  });

  it('fails ready() on requirements that are not lists of { scheme: [scopes] }', async () => {
    for (const security of [{ bearerAuth: [] }, ['bearerAuth'], [{ bearerAuth: 'read' }], [{ bearerAuth: [1] }]]) {
      const app = appWithSchemes();
      app.get('/x', { security: security as any }, ok);
      await expect(app.ready()).rejects.toMatchObject({ code: 'TERN_INVALID_ROUTE_OPTION', message: expect.stringMatching(/^Route GET \/x: security/) });
    }
  });

  it('checks hidden routes and apps without a document too', async () => {
    const hidden = appWithSchemes();
    hidden.get('/x', { excludeFromSchema: true, security: [{ nope: [] }] }, ok);
    await expect(hidden.ready()).rejects.toMatchObject({ code: 'TERN_UNKNOWN_SECURITY_SCHEME' });
    const off = new TernApp({ openapi: { openapiPath: false } });
    off.get('/x', { security: [{ nope: [] }] }, ok);
    await expect(off.ready()).rejects.toMatchObject({ code: 'TERN_UNKNOWN_SECURITY_SCHEME' });
  });
});
