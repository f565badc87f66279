import {
  APIKey,
  Controller,
  enforceSecurity,
  Get,
  HTTPBearer,
  HTTPException,
  OAuth2,
  Public,
  Security,
  TernApp,
  TernError,
  User,
  type SecurityScheme,
  type SecurityVerifiers,
} from '@tern/core';
import { IsString } from 'class-validator';
import { bodyOf, listenOnFreePort, rawRequest, statusOf } from '../../../test-support/raw-http';

const users: Record<string, { name: string }> = { 'ada-token': { name: 'Ada' }, 'bob-token': { name: 'Bob' } };
const clients: Record<string, { client: string }> = { 'key-1': { client: 'billing' } };
const grants: Record<string, { user: string; scopes: string[] }> = {
  'reader-token': { user: 'reader', scopes: ['read'] },
  'writer-token': { user: 'writer', scopes: ['read', 'write'] },
};

function oauth2(): OAuth2 {
  return new OAuth2({
    flows: { clientCredentials: { tokenUrl: 'https://auth.example.com/token', scopes: { read: 'Read', write: 'Write' } } },
  });
}

/** An app with the three kinds of scheme registered and one route per requirement to test. */
function buildApp(verifiers?: Partial<SecurityVerifiers>, logger: Pick<Console, 'error'> | false = false): TernApp {
  const app = new TernApp({ logger });
  app.openapiConfig.addSecurityScheme('bearerAuth', new HTTPBearer({ bearerFormat: 'JWT' }));
  app.openapiConfig.addSecurityScheme('apiKey', new APIKey({ name: 'X-API-Key', in: 'header' }));
  app.openapiConfig.addSecurityScheme('queryKey', new APIKey({ name: 'api_key', in: 'query' }));
  app.openapiConfig.addSecurityScheme('cookieKey', new APIKey({ name: 'sid', in: 'cookie' }));
  app.openapiConfig.addSecurityScheme('oauth2', oauth2());
  app.addMiddleware(
    enforceSecurity(app, {
      bearerAuth: async (token) => users[token] ?? null,
      apiKey: async (key) => clients[key],
      queryKey: async (key) => clients[key],
      cookieKey: async (key) => clients[key] ?? false,
      oauth2: async (token) => grants[token] ?? null,
      ...verifiers,
    } as SecurityVerifiers),
  );
  const whoami = async (req: { user?: unknown; state: Record<string, unknown> }) => ({ user: req.user ?? null, principals: req.state.principals ?? null });
  app.get('/open', whoami);
  app.get('/declared-public', { security: [] }, whoami);
  app.get('/bearer', { security: [{ bearerAuth: [] }] }, whoami);
  app.get('/query-key', { security: [{ queryKey: [] }] }, whoami);
  app.get('/cookie-key', { security: [{ cookieKey: [] }] }, whoami);
  app.get('/either', { security: [{ bearerAuth: [] }, { apiKey: [] }] }, whoami);
  app.get('/both', { security: [{ apiKey: [], bearerAuth: [] }] }, whoami);
  app.get('/read', { security: [{ oauth2: ['read'] }] }, whoami);
  app.get('/write', { security: [{ oauth2: ['read', 'write'] }] }, whoami);
  app.get('/write-or-key', { security: [{ oauth2: ['write'] }, { apiKey: [] }] }, whoami);
  app.get('/optional', { security: [{ bearerAuth: [] }, {}] }, whoami);
  return app;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('enforceSecurity', () => {
  it('lets public routes through: no security declared, or []', async () => {
    const app = buildApp();
    expect((await app.inject('/open')).json()).toEqual({ user: null, principals: null });
    expect((await app.inject('/declared-public')).statusCode).toBe(200);
    expect((await app.inject('/nowhere')).statusCode).toBe(404);
  });

  it('answers 401 with a Bearer challenge for a missing or invalid bearer token', async () => {
    const app = buildApp();
    const missing = await app.inject('/bearer');
    expect(missing.statusCode).toBe(401);
    expect(missing.headers['www-authenticate']).toBe('Bearer');
    expect(missing.json()).toMatchObject({ status: 401, code: 'TERN_UNAUTHORIZED', detail: 'Authentication is required.' });
    const wrongScheme = await app.inject({ url: '/bearer', headers: { authorization: 'Basic YWRhOnB3' } });
    expect(wrongScheme.headers['www-authenticate']).toBe('Bearer');
    const invalid = await app.inject({ url: '/bearer', headers: bearer('nope') });
    expect(invalid.statusCode).toBe(401);
    expect(invalid.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    expect(invalid.json().detail).toBe('The credentials sent are not valid.');
  });

  it("makes the verifier's result req.user", async () => {
    const app = buildApp();
    const response = await app.inject({ url: '/bearer', headers: bearer('ada-token') });
    expect(response.json()).toEqual({ user: { name: 'Ada' }, principals: { bearerAuth: { name: 'Ada' } } });
  });

  it('reads API keys from the header, query parameter or cookie the scheme names', async () => {
    const app = buildApp();
    expect((await app.inject({ url: '/either', headers: { 'x-api-key': 'key-1' } })).json().user).toEqual({ client: 'billing' });
    expect((await app.inject('/query-key?api_key=key-1')).json().user).toEqual({ client: 'billing' });
    expect((await app.inject({ url: '/cookie-key', cookies: { sid: 'key-1' } })).json().user).toEqual({ client: 'billing' });
    const missing = await app.inject('/query-key');
    expect([missing.statusCode, missing.headers['www-authenticate']]).toEqual([401, 'APIKey in="query", name="api_key"']);
    expect((await app.inject({ url: '/cookie-key', cookies: { sid: 'bad' } })).statusCode).toBe(401);
  });

  it('reads a cookie API key under its HTTPS names too (__Host-, __Secure-), preferring them', async () => {
    const app = buildApp();
    expect((await app.inject({ url: '/cookie-key', cookies: { '__Host-sid': 'key-1' } })).json().user).toEqual({ client: 'billing' });
    expect((await app.inject({ url: '/cookie-key', cookies: { '__Secure-sid': 'key-1' } })).json().user).toEqual({ client: 'billing' });
    // A plain `sid` planted by a subdomain or an http page does not override the prefixed one.
    expect((await app.inject({ url: '/cookie-key', cookies: { '__Host-sid': 'key-1', sid: 'bad' } })).statusCode).toBe(200);
    expect((await app.inject({ url: '/cookie-key', cookies: { '__Host-sid': 'bad', sid: 'key-1' } })).statusCode).toBe(401);
  });

  it('tries alternatives in order: the first satisfied entry wins', async () => {
    const calls: string[] = [];
    const app = buildApp({
      bearerAuth: async (token) => (calls.push('bearer'), users[token] ?? null),
      apiKey: async (key) => (calls.push('apiKey'), clients[key]),
    });
    expect((await app.inject({ url: '/either', headers: { ...bearer('ada-token'), 'x-api-key': 'key-1' } })).json().user).toEqual({ name: 'Ada' });
    expect(calls).toEqual(['bearer']);
    calls.length = 0;
    expect((await app.inject({ url: '/either', headers: { ...bearer('bad'), 'x-api-key': 'key-1' } })).json().user).toEqual({ client: 'billing' });
    expect(calls).toEqual(['bearer', 'apiKey']);
    const neither = await app.inject('/either');
    expect(neither.statusCode).toBe(401);
    expect(neither.headers['www-authenticate']).toBe('Bearer, APIKey in="header", name="X-API-Key"');
  });

  it('requires every scheme of one entry', async () => {
    const app = buildApp();
    expect((await app.inject({ url: '/both', headers: bearer('ada-token') })).statusCode).toBe(401);
    expect((await app.inject({ url: '/both', headers: { 'x-api-key': 'key-1' } })).statusCode).toBe(401);
    const response = await app.inject({ url: '/both', headers: { ...bearer('ada-token'), 'x-api-key': 'key-1' } });
    expect(response.json()).toEqual({
      user: { client: 'billing' },
      principals: { apiKey: { client: 'billing' }, bearerAuth: { name: 'Ada' } },
    });
  });

  it('checks OAuth2 scopes: 403 with insufficient_scope when valid credentials lack them', async () => {
    const app = buildApp();
    expect((await app.inject({ url: '/read', headers: bearer('reader-token') })).json().user).toBe('reader');
    const lacking = await app.inject({ url: '/write', headers: bearer('reader-token') });
    expect(lacking.statusCode).toBe(403);
    expect(lacking.headers['www-authenticate']).toBe('Bearer error="insufficient_scope", scope="read write"');
    expect(lacking.json()).toMatchObject({ code: 'TERN_FORBIDDEN', detail: 'Insufficient scope: this route requires oauth2 [read write].' });
    expect((await app.inject({ url: '/write', headers: bearer('writer-token') })).json().user).toBe('writer');
    expect((await app.inject({ url: '/write', headers: bearer('unknown') })).statusCode).toBe(401);
  });

  it('answers 403 when one alternative lacks scopes and the others have no credentials, 200 when another is met', async () => {
    const app = buildApp();
    expect((await app.inject({ url: '/write-or-key', headers: bearer('reader-token') })).statusCode).toBe(403);
    const byKey = await app.inject({ url: '/write-or-key', headers: { ...bearer('reader-token'), 'x-api-key': 'key-1' } });
    expect(byKey.json().user).toEqual({ client: 'billing' });
  });

  it('treats an empty requirement {} as anonymous access, after the others were tried', async () => {
    const app = buildApp();
    expect((await app.inject('/optional')).json()).toEqual({ user: null, principals: {} });
    expect((await app.inject({ url: '/optional', headers: bearer('bob-token') })).json().user).toEqual({ name: 'Bob' });
  });

  it('lets a verifier answer with its own HTTPException', async () => {
    const app = buildApp({
      bearerAuth: async () => {
        throw new HTTPException(429, 'Too many attempts', { 'Retry-After': '60' });
      },
    });
    const response = await app.inject({ url: '/bearer', headers: bearer('ada-token') });
    expect([response.statusCode, response.headers['retry-after']]).toEqual([429, '60']);
  });

  it('lets a 401 exception handler restyle the answer', async () => {
    const app = buildApp();
    app.addExceptionHandler(401, async (req, res, exc: HTTPException) => res.json({ error: 'login required' }, 401).setHeader('WWW-Authenticate', exc.headers?.['www-authenticate'] ?? ''));
    const response = await app.inject('/bearer');
    expect([response.statusCode, response.json(), response.headers['www-authenticate']]).toEqual([401, { error: 'login required' }, 'Bearer']);
  });

  it('enforces what controllers declare and hands the principal to @User()', async () => {
    @Controller('/me')
    @Security('bearerAuth')
    class Me {
      @Get('/') async me(@User() user: { name: string }) { return { name: user.name }; }
      @Get('/ping') @Public() async ping() { return { pong: true }; }
    }
    const app = buildApp();
    app.registerControllers([Me]);
    expect((await app.inject({ url: '/me', headers: bearer('ada-token') })).json()).toEqual({ name: 'Ada' });
    expect((await app.inject('/me')).statusCode).toBe(401);
    expect((await app.inject('/me/ping')).json()).toEqual({ pong: true });
  });

  describe('misconfiguration', () => {
    it('rejects a verifier that is not a function at once', () => {
      const app = new TernApp();
      expect(() => enforceSecurity(app, { bearerAuth: 'secret' as never })).toThrow(
        expect.objectContaining({ code: 'TERN_INVALID_SECURITY_VERIFIER' }),
      );
      expect(() => enforceSecurity(undefined as never, {})).toThrow(TypeError);
    });

    it('fails ready() for a verifier whose scheme is not registered or cannot be enforced', async () => {
      const app = new TernApp();
      app.addMiddleware(enforceSecurity(app, { bearerAuth: async () => ({}) }));
      await expect(app.ready()).rejects.toMatchObject({ code: 'TERN_UNKNOWN_SECURITY_SCHEME', message: expect.stringMatching(/addSecurityScheme\('bearerAuth'/) });

      const basic: SecurityScheme = { type: 'http', toOpenAPI: () => ({ type: 'http', scheme: 'basic' }) };
      const other = new TernApp();
      other.openapiConfig.addSecurityScheme('basicAuth', basic);
      other.addMiddleware(enforceSecurity(other, { basicAuth: async () => ({}) }));
      await expect(other.ready()).rejects.toMatchObject({ code: 'TERN_UNENFORCEABLE_SECURITY' });
    });

    it('fails ready() when any route requires a scheme without a verifier', async () => {
      const app = new TernApp();
      app.openapiConfig.addSecurityScheme('bearerAuth', new HTTPBearer());
      app.openapiConfig.addSecurityScheme('apiKey', new APIKey({ name: 'X-API-Key', in: 'header' }));
      app.addMiddleware(enforceSecurity(app, { bearerAuth: async () => ({}) }));
      app.get('/open', async () => ({}));
      app.get('/keyed', { security: [{ apiKey: [] }] }, async () => ({}));
      const error = await app.ready().catch((err) => err);
      expect(error).toBeInstanceOf(TernError);
      expect(error).toMatchObject({ code: 'TERN_MISSING_SECURITY_VERIFIER', message: expect.stringMatching(/GET \/keyed requires 'apiKey'/) });
      // A failed startup serves nothing.
      expect((await app.inject('/open').catch((err) => err)).code).toBe('TERN_MISSING_SECURITY_VERIFIER');
    });

    it('answers 500 when an OAuth2 verifier does not resolve to { user, scopes }', async () => {
      const errors: unknown[] = [];
      const app = buildApp({ oauth2: async () => ({ name: 'no scopes' }) }, { error: (...args: unknown[]) => errors.push(args[1]) });
      expect((await app.inject({ url: '/read', headers: bearer('x') })).statusCode).toBe(500);
      expect(errors[0]).toMatchObject({ code: 'TERN_INVALID_SECURITY_VERIFIER' });
    });
  });
});

describe('enforceSecurity answers before what a protected route would tell about its input', () => {
  class Note {
    @IsString()
    text: string;
  }

  let app: TernApp;
  let port: number;
  beforeAll(async () => {
    app = new TernApp({ logger: false });
    app.openapiConfig.addSecurityScheme('bearerAuth', new HTTPBearer());
    app.addMiddleware(enforceSecurity(app, { bearerAuth: async (token) => users[token] ?? null }));
    app.get('/items/{id:int}', { security: [{ bearerAuth: [] }] }, async (req) => ({ id: req.pathParams.id }));
    app.post('/notes', { security: [{ bearerAuth: [] }], requestModel: Note }, async (req) => ({ text: (req.body as Note).text }));
    app.get('/public/{id:int}', async (req) => ({ id: req.pathParams.id }));
    port = await listenOnFreePort(app);
  });
  afterAll(() => app.close());

  const ask = (line: string, headers = '', body = '') =>
    rawRequest(port, `${line} HTTP/1.1\r\nHost: x\r\n${headers}${body ? `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n` : ''}Connection: close\r\n\r\n${body}`);
  const bearer = 'Authorization: Bearer ada-token\r\n';

  it('401 for an anonymous request whose path value fails its converter; 422 once authenticated', async () => {
    const anonymous = await ask('GET /items/abc');
    expect(statusOf(anonymous)).toBe(401);
    expect(anonymous).toMatch(/\r\nwww-authenticate: Bearer\r\n/i);
    expect(anonymous).not.toContain('int');
    expect(statusOf(await ask('GET /items/abc', 'Authorization: Bearer forged\r\n'))).toBe(401);
    const authenticated = await ask('GET /items/abc', bearer);
    expect(statusOf(authenticated)).toBe(422);
    expect(JSON.parse(bodyOf(authenticated))).toMatchObject({ code: 'TERN_INVALID_PATH_PARAM' });
    expect(JSON.parse(bodyOf(await ask('GET /items/7', bearer)))).toEqual({ id: 7 });
  });

  it('401 for an anonymous request whose body fails validation; 422 once authenticated', async () => {
    expect(statusOf(await ask('POST /notes', '', '{"text":5}'))).toBe(401);
    expect(statusOf(await ask('POST /notes', '', '{not json'))).toBe(401);
    expect(statusOf(await ask('POST /notes', bearer, '{"text":5}'))).toBe(422);
  });

  it('405 with Allow for a wrong method on a protected path, as on any other', async () => {
    const response = await ask('DELETE /items/7');
    expect(statusOf(response)).toBe(405);
    expect(response).toMatch(/\r\nallow: GET, HEAD\r\n/i);
  });

  it('leaves public routes and unknown paths as they were: 422 and 404', async () => {
    expect(statusOf(await ask('GET /public/abc'))).toBe(422);
    expect(statusOf(await ask('GET /nowhere/abc'))).toBe(404);
  });
});
