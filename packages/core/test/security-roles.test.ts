/**
 * Roles in security requirements (`{ bearerAuth: ['admin'] }`, OpenAPI 3.1 allows them on every
 * scheme type): accepted for HTTP, API-key and OpenID Connect schemes, enforced against the
 * principal's roles (or `enforceSecurity`'s `roles` option), documented where they can fail.
 */
import { APIKey, Controller, enforceSecurity, Get, HTTPBearer, jwtVerifier, OAuth2, Security, TernApp, type SecurityScheme, type SecurityVerifiers } from '@tern/core';
import { signHs256 } from '../../../test-support/jwt';

const people: Record<string, { name: string; roles?: string[]; groups?: string[] }> = {
  'admin-token': { name: 'Ada', roles: ['admin', 'editor'] },
  'editor-token': { name: 'Eve', roles: ['editor'] },
  'plain-token': { name: 'Pat' },
  'grouped-token': { name: 'Gus', groups: ['admin'] },
};

const openIdConnect: SecurityScheme = { type: 'openIdConnect', toOpenAPI: () => ({ type: 'openIdConnect', openIdConnectUrl: 'https://issuer.test/.well-known/openid-configuration' }) };

function buildApp(options?: Parameters<typeof enforceSecurity>[2], verifiers: Partial<SecurityVerifiers> = {}): TernApp {
  const app = new TernApp({ logger: false });
  app.openapiConfig.addSecurityScheme('bearerAuth', new HTTPBearer());
  app.openapiConfig.addSecurityScheme('apiKey', new APIKey({ name: 'X-API-Key', in: 'header' }));
  app.openapiConfig.addSecurityScheme('oidc', openIdConnect);
  app.openapiConfig.addSecurityScheme('oauth2', new OAuth2({ flows: { clientCredentials: { tokenUrl: 'https://issuer.test/token', scopes: { read: 'Read' } } } }));
  const person = async (credential: string) => people[credential] ?? null;
  app.addMiddleware(
    enforceSecurity(
      app,
      { bearerAuth: person, apiKey: person, oidc: person, oauth2: async (token) => (people[token] ? { user: people[token], scopes: ['read'] } : null), ...verifiers } as SecurityVerifiers,
      options,
    ),
  );
  const who = async (req: { user?: unknown }) => ({ user: req.user ?? null });
  app.get('/admin', { security: [{ bearerAuth: ['admin'] }] }, who);
  app.get('/admin-editor', { security: [{ bearerAuth: ['admin', 'editor'] }] }, who);
  app.get('/signed-in', { security: [{ bearerAuth: [] }] }, who);
  app.get('/key-admin', { security: [{ apiKey: ['admin'] }] }, who);
  app.get('/oidc-editor', { security: [{ oidc: ['editor'] }] }, who);
  app.get('/admin-or-key', { security: [{ bearerAuth: ['admin'] }, { apiKey: [] }] }, who);
  app.get('/maybe-admin', { security: [{ bearerAuth: ['admin'] }, {}] }, who);
  app.get('/read', { security: [{ oauth2: ['read'] }] }, who);
  return app;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('roles on HTTP, API-key and OpenID Connect schemes', () => {
  it("lets in a principal holding the role, answers 403 problem+json to one without, 401 to no one", async () => {
    const app = buildApp();
    expect((await app.inject({ url: '/admin', headers: bearer('admin-token') })).json()).toEqual({ user: people['admin-token'] });
    const forbidden = await app.inject({ url: '/admin', headers: bearer('editor-token') });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(forbidden.json()).toMatchObject({ status: 403, code: 'TERN_FORBIDDEN', detail: 'Insufficient role: this route requires bearerAuth [admin].' });
    // RFC 6750's insufficient_scope challenge is for OAuth scopes, not roles.
    expect(forbidden.headers['www-authenticate']).toBeUndefined();
    expect((await app.inject({ url: '/admin', headers: bearer('plain-token') })).statusCode).toBe(403);
    expect((await app.inject('/admin')).statusCode).toBe(401);
    expect((await app.inject({ url: '/admin', headers: bearer('forged') })).statusCode).toBe(401);
  });

  it('requires every role listed, and reads roles for API keys and OpenID Connect tokens too', async () => {
    const app = buildApp();
    expect((await app.inject({ url: '/admin-editor', headers: bearer('admin-token') })).statusCode).toBe(200);
    expect((await app.inject({ url: '/admin-editor', headers: bearer('editor-token') })).statusCode).toBe(403);
    expect((await app.inject({ url: '/key-admin', headers: { 'x-api-key': 'admin-token' } })).statusCode).toBe(200);
    expect((await app.inject({ url: '/key-admin', headers: { 'x-api-key': 'editor-token' } })).statusCode).toBe(403);
    expect((await app.inject({ url: '/oidc-editor', headers: bearer('editor-token') })).statusCode).toBe(200);
    const none = await app.inject({ url: '/oidc-editor', headers: bearer('plain-token') });
    expect([none.statusCode, none.json().detail]).toEqual([403, 'Insufficient role: this route requires oidc [editor].']);
    expect((await app.inject('/oidc-editor')).headers['www-authenticate']).toBe('Bearer');
  });

  it('tries alternatives: a role missing on one entry is no 403 when another entry is met', async () => {
    const app = buildApp();
    expect((await app.inject({ url: '/admin-or-key', headers: { ...bearer('editor-token'), 'x-api-key': 'plain-token' } })).json()).toEqual({ user: people['plain-token'] });
    expect((await app.inject({ url: '/admin-or-key', headers: bearer('editor-token') })).statusCode).toBe(403);
    // With anonymous allowed, a signed-in user without the role is served as anonymous.
    expect((await app.inject({ url: '/maybe-admin', headers: bearer('editor-token') })).json()).toEqual({ user: null });
    expect((await app.inject({ url: '/maybe-admin', headers: bearer('admin-token') })).json()).toEqual({ user: people['admin-token'] });
  });

  it('reads roles where the roles option says', async () => {
    const app = buildApp({ roles: (principal, scheme) => (scheme === 'bearerAuth' ? (principal as { groups?: string[] }).groups : undefined) });
    expect((await app.inject({ url: '/admin', headers: bearer('grouped-token') })).statusCode).toBe(200);
    expect((await app.inject({ url: '/admin', headers: bearer('admin-token') })).statusCode).toBe(403);
    expect((await app.inject({ url: '/key-admin', headers: { 'x-api-key': 'admin-token' } })).statusCode).toBe(403);
    expect(() => enforceSecurity(new TernApp(), {}, { roles: 'admin' as never })).toThrow(expect.objectContaining({ code: 'TERN_INVALID_ARGUMENT' }));
  });

  it('keeps scopes for OAuth2: they are granted by the verifier, not read from roles', async () => {
    const app = buildApp();
    expect((await app.inject({ url: '/read', headers: bearer('plain-token') })).statusCode).toBe(200);
  });

  it('enforces the roles claim of a verified JWT', async () => {
    const secret = 'a-shared-secret-of-at-least-32-bytes!';
    const app = buildApp(undefined, { bearerAuth: jwtVerifier({ secret, algorithms: ['HS256'] }) });
    expect((await app.inject({ url: '/admin', headers: bearer(signHs256(secret, { sub: 'ada', roles: ['admin'] })) })).statusCode).toBe(200);
    expect((await app.inject({ url: '/admin', headers: bearer(signHs256(secret, { sub: 'eve', roles: ['editor'] })) })).statusCode).toBe(403);
    expect((await app.inject({ url: '/admin', headers: bearer(signHs256(secret, { sub: 'eve', roles: 'admin' })) })).statusCode).toBe(403);
  });

  it("accepts @Security('bearerAuth', ['admin']) on controllers", async () => {
    const app = buildApp();
    @Controller('/panel')
    class Panel {
      @Get('/')
      @Security('bearerAuth', ['admin'])
      async panel() {
        return { ok: true };
      }
    }
    app.registerControllers([Panel]);
    expect((await app.inject({ url: '/panel', headers: bearer('admin-token') })).statusCode).toBe(200);
    expect((await app.inject({ url: '/panel', headers: bearer('editor-token') })).statusCode).toBe(403);
  });
});

describe('roles in the document', () => {
  it('keeps the roles in each requirement and lists the 403 only where a role can be missing', async () => {
    const document = (await buildApp().inject('/openapi.json')).json();
    const operation = (path: string) => document.paths[path].get;
    expect(operation('/admin').security).toEqual([{ bearerAuth: ['admin'] }]);
    expect(operation('/admin').responses['403']).toMatchObject({ description: 'The credentials are valid but lack a required role.' });
    expect(operation('/admin').responses['401']).toBeDefined();
    expect(operation('/key-admin').responses['403']).toBeDefined();
    expect(operation('/read').responses['403']).toMatchObject({ description: 'The credentials are valid but lack a required scope.' });
    expect(operation('/signed-in').responses['403']).toBeUndefined();
    expect(operation('/signed-in').responses['401']).toBeDefined();
    // Anonymous allowed: neither a 401 nor a 403 can happen.
    expect(operation('/maybe-admin').responses['403']).toBeUndefined();
    expect(operation('/maybe-admin').responses['401']).toBeUndefined();
  });
});
