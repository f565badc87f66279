/**
 * `new HTTPBearer({ scheme: 'Token' })`: `Authorization: Token <jwt>` (RealWorld, Django REST
 * Framework) read by enforceSecurity without hand-stripping, challenged and documented as Token.
 */
import { APIKey, enforceSecurity, HTTPBearer, TernApp } from '@tern/core';

function buildApp(): TernApp {
  const app = new TernApp({ logger: false });
  app.openapiConfig.addSecurityScheme('token', new HTTPBearer({ scheme: 'Token', description: 'Authorization: Token <jwt>' }));
  app.openapiConfig.addSecurityScheme('bearerAuth', new HTTPBearer());
  app.openapiConfig.addSecurityScheme('apiKey', new APIKey({ name: 'X-API-Key', in: 'header' }));
  const users: Record<string, string> = { 'eyJ.jake.sig': 'jake', 'ada-token': 'ada' };
  app.addMiddleware(
    enforceSecurity(app, {
      token: async (jwt) => (users[jwt] ? { username: users[jwt], jwt } : null),
      bearerAuth: async (token) => (users[token] ? { username: users[token] } : null),
      apiKey: async (key) => (key === 'k' ? { username: 'service' } : null),
    }),
  );
  app.get('/user', { security: [{ token: [] }] }, async (req) => req.user as object);
  app.get('/either', { security: [{ token: [] }, { bearerAuth: [] }, { apiKey: [] }] }, async (req) => req.user as object);
  return app;
}

describe("HTTPBearer({ scheme: 'Token' })", () => {
  it('hands the verifier the credential after "Token ", in any case of the word', async () => {
    const app = buildApp();
    expect((await app.inject({ url: '/user', headers: { authorization: 'Token eyJ.jake.sig' } })).json()).toEqual({ username: 'jake', jwt: 'eyJ.jake.sig' });
    expect((await app.inject({ url: '/user', headers: { authorization: 'token  eyJ.jake.sig' } })).json()).toEqual({ username: 'jake', jwt: 'eyJ.jake.sig' });
  });

  it('does not take a Bearer header for a Token scheme, and challenges with Token', async () => {
    const app = buildApp();
    const bearer = await app.inject({ url: '/user', headers: { authorization: 'Bearer eyJ.jake.sig' } });
    expect([bearer.statusCode, bearer.headers['www-authenticate']]).toEqual([401, 'Token']);
    const missing = await app.inject('/user');
    expect([missing.statusCode, missing.headers['www-authenticate']]).toEqual([401, 'Token']);
    const invalid = await app.inject({ url: '/user', headers: { authorization: 'Token forged' } });
    expect([invalid.statusCode, invalid.headers['www-authenticate']]).toEqual([401, 'Token error="invalid_token"']);
  });

  it('sits beside Bearer and API keys as alternatives, one challenge for each word', async () => {
    const app = buildApp();
    expect((await app.inject({ url: '/either', headers: { authorization: 'Bearer ada-token' } })).json()).toEqual({ username: 'ada' });
    expect((await app.inject({ url: '/either', headers: { authorization: 'Token eyJ.jake.sig' } })).json()).toMatchObject({ username: 'jake' });
    const none = await app.inject('/either');
    expect(none.headers['www-authenticate']).toBe('Token, Bearer, APIKey in="header", name="X-API-Key"');
  });

  it('is documented as an HTTP scheme named Token', async () => {
    const document = (await buildApp().inject('/openapi.json')).json();
    expect(document.components.securitySchemes.token).toEqual({ type: 'http', scheme: 'Token', description: 'Authorization: Token <jwt>' });
    expect(document.components.securitySchemes.bearerAuth).toEqual({ type: 'http', scheme: 'bearer' });
  });

  it('refuses bearerFormat beside another scheme word, which OpenAPI would reject', () => {
    expect(() => new HTTPBearer({ scheme: 'Token', bearerFormat: 'JWT' })).toThrow(expect.objectContaining({ code: 'TERN_INVALID_ARGUMENT', message: expect.stringContaining('bearerFormat') }));
    expect(new HTTPBearer({ scheme: 'Bearer', bearerFormat: 'JWT' }).toOpenAPI()).toEqual({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  });

  it.each([['Two words'], [''], ['Basic'], ['digest'], [7]])('refuses scheme %j', (scheme) => {
    expect(() => new HTTPBearer({ scheme: scheme as string })).toThrow(expect.objectContaining({ code: 'TERN_INVALID_ARGUMENT' }));
  });
});
