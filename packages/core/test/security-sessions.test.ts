/**
 * Sessions as a scheme: a server-side session (`session()`) is the credential of a declared
 * API-key scheme (`in: cookie`, named after the session cookie), so session-signed-in users get
 * enforceSecurity's 401 and 403, and the document says so, exactly as token users do.
 */
import { APIKey, enforceSecurity, session, TernApp } from '@tern/core';

const accounts: Record<string, { name: string; roles: string[] }> = {
  ada: { name: 'ada', roles: ['admin'] },
  eve: { name: 'eve', roles: [] },
};

function buildApp(): TernApp {
  const app = new TernApp({ logger: false, trustProxy: true });
  app.openapiConfig.addSecurityScheme('session', new APIKey({ name: 'tern_session', in: 'cookie', description: 'Sign in with POST /login' }));
  app.addMiddleware(session({ secret: 'a-session-secret-of-at-least-32-characters' }));
  // The cookie only says which session: the verifier asks the session who signed in.
  app.addMiddleware(enforceSecurity(app, { session: async (_cookie, req) => accounts[req.session.get<string>('user') ?? ''] ?? null }));
  app.post('/login/{name}', { security: [] }, async (req, _res, { name }) => {
    await req.session.regenerate();
    req.session.set('user', name);
    return { signedIn: name };
  });
  app.post('/logout', { security: [{ session: [] }] }, async (req) => {
    await req.session.destroy();
    return { signedOut: true };
  });
  app.get('/me', { security: [{ session: [] }] }, async (req) => req.user as object);
  app.get('/admin', { security: [{ session: ['admin'] }] }, async () => ({ admin: true }));
  return app;
}

/** Signs in and answers the session cookie as a browser would send it back. */
async function signIn(app: TernApp, name: string, headers: Record<string, string> = {}): Promise<Record<string, string>> {
  const res = await app.inject({ method: 'POST', url: `/login/${name}`, headers });
  const cookie = res.cookies.find((c) => c.name.endsWith('tern_session'));
  if (!cookie) throw new Error(`no session cookie: ${JSON.stringify(res.headers['set-cookie'])}`);
  return { [cookie.name]: cookie.value };
}

describe('a session as the credential of a declared scheme', () => {
  it('answers 401 with the cookie challenge to a visitor who has not signed in, or sends a forged cookie', async () => {
    const app = buildApp();
    const anonymous = await app.inject('/me');
    expect([anonymous.statusCode, anonymous.headers['www-authenticate']]).toEqual([401, 'APIKey in="cookie", name="tern_session"']);
    expect(anonymous.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect((await app.inject({ url: '/me', cookies: { tern_session: 'forged.value' } })).statusCode).toBe(401);
  });

  it('lets a signed-in user in, with the account as req.user, and checks roles: 403 without', async () => {
    const app = buildApp();
    const ada = await signIn(app, 'ada');
    expect((await app.inject({ url: '/me', cookies: ada })).json()).toEqual(accounts.ada);
    expect((await app.inject({ url: '/admin', cookies: ada })).json()).toEqual({ admin: true });
    const eve = await signIn(app, 'eve');
    const forbidden = await app.inject({ url: '/admin', cookies: eve });
    expect([forbidden.statusCode, forbidden.json().code]).toEqual([403, 'TERN_FORBIDDEN']);
    // A session whose user is unknown is no sign-in.
    expect((await app.inject({ url: '/me', cookies: await signIn(app, 'mallory') })).statusCode).toBe(401);
  });

  it('ends with sign-out: the old cookie is no credential any more', async () => {
    const app = buildApp();
    const ada = await signIn(app, 'ada');
    expect((await app.inject({ method: 'POST', url: '/logout', cookies: ada })).statusCode).toBe(200);
    expect((await app.inject({ url: '/me', cookies: ada })).statusCode).toBe(401);
  });

  it('reads the cookie under its HTTPS name (__Host-tern_session)', async () => {
    const app = buildApp();
    const https = { 'x-forwarded-proto': 'https' };
    const cookies = await signIn(app, 'ada', https);
    expect(Object.keys(cookies)).toEqual(['__Host-tern_session']);
    expect((await app.inject({ url: '/admin', cookies, headers: https })).statusCode).toBe(200);
  });

  it('is documented like any scheme: the cookie, and 401/403 where they can happen', async () => {
    const document = (await buildApp().inject('/openapi.json')).json();
    expect(document.components.securitySchemes.session).toEqual({ type: 'apiKey', name: 'tern_session', in: 'cookie', description: 'Sign in with POST /login' });
    expect(Object.keys(document.paths['/me'].get.responses)).toEqual(expect.arrayContaining(['401']));
    expect(document.paths['/me'].get.responses['403']).toBeUndefined();
    expect(Object.keys(document.paths['/admin'].get.responses)).toEqual(expect.arrayContaining(['401', '403']));
  });
});
