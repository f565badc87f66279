/**
 * `jwtVerifier` against real tokens: keys made with node:crypto, a JSON Web Key Set served on
 * loopback, and every token an attacker would try (forged, expired, for another audience,
 * unsigned, signed with the public key as an HMAC secret, naming unknown key ids) refused.
 *
 * jose is ESM-only and loaded with import(): jest needs NODE_OPTIONS=--experimental-vm-modules
 * (set by `npm test`), as for PGlite.
 */
import { createSecretKey } from 'node:crypto';
import fc from 'fast-check';
import { APIKey, enforceSecurity, HTTPBearer, jwtVerifier, OAuth2, TernApp, type JwtVerifierOptions, type SecurityVerifier } from '@tern/core';
import { deadUrl, now, signHs256, signingKey, signJwt, startKeyServer, unsignedJwt, type LocalKeyServer, type SigningKey } from '../../../test-support/jwt';

const ISSUER = 'https://issuer.test/';
const AUDIENCE = 'notes-api';
const SECRET = 'a-shared-secret-of-at-least-32-bytes!';

let current: SigningKey;
let server: LocalKeyServer;
beforeAll(async () => {
  current = signingKey('key-1');
  server = await startKeyServer([current]);
});
afterAll(() => server.close());

/** Key servers a test starts for itself, closed after it whatever happened. */
const ownKeyServers: LocalKeyServer[] = [];
async function keyServer(keys: SigningKey[]): Promise<LocalKeyServer> {
  const started = await startKeyServer(keys);
  ownKeyServers.push(started);
  return started;
}
afterEach(() => Promise.all(ownKeyServers.splice(0).map((keys) => keys.close())));

function appWith(verifier: SecurityVerifier): TernApp {
  const app = new TernApp({ logger: false });
  app.openapiConfig.addSecurityScheme('bearerAuth', new HTTPBearer({ bearerFormat: 'JWT' }));
  app.addMiddleware(enforceSecurity(app, { bearerAuth: verifier }));
  app.get('/me', { security: [{ bearerAuth: [] }] }, async (req) => req.user as object);
  app.get('/maybe', { security: [{ bearerAuth: [] }, {}] }, async (req) => ({ user: req.user ?? null }));
  return app;
}

const jwksApp = (options: Partial<JwtVerifierOptions> = {}, url = server.url) =>
  appWith(jwtVerifier({ jwksUri: url, algorithms: ['RS256'], issuer: ISSUER, audience: AUDIENCE, ...options }));

const good = (claims: Record<string, unknown> = {}, key = current) => signJwt(key, { iss: ISSUER, aud: AUDIENCE, sub: 'ada', ...claims });
const call = (app: TernApp, token: string, url = '/me') => app.inject({ url, headers: { authorization: `Bearer ${token}` } });

describe('jwtVerifier with a key server (jwksUri)', () => {
  it('accepts a token signed by a published key: the payload becomes req.user', async () => {
    const res = await call(jwksApp(), good());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ sub: 'ada', iss: ISSUER, aud: AUDIENCE });
  });

  it.each([
    ['forged (another key, same kid)', () => good({}, { ...signingKey('key-1'), kid: 'key-1' })],
    ['tampered payload', () => good().replace(/\.[^.]+\./, `.${Buffer.from(JSON.stringify({ sub: 'root', iss: ISSUER, aud: AUDIENCE, exp: now() + 60 })).toString('base64url')}.`)],
    ['expired', () => good({ exp: now() - 120 })],
    ['not yet valid (nbf)', () => good({ nbf: now() + 600 })],
    ['without exp', () => good({ exp: undefined })],
    ['for another audience', () => good({ aud: 'billing-api' })],
    ['from another issuer', () => good({ iss: 'https://evil.test/' })],
    ['unsigned (alg none)', () => unsignedJwt({ iss: ISSUER, aud: AUDIENCE, sub: 'root' }, { kid: 'key-1' })],
    ['HS256 with the public key as secret (key confusion)', () => signHs256(current.publicKey.export({ format: 'pem', type: 'spki' }), { iss: ISSUER, aud: AUDIENCE }, { kid: 'key-1' })],
    ['signed with an algorithm not allowed (ES256)', () => good({}, { ...signingKey('key-1', 'ES256') })],
    ['naming an unknown kid', () => good({}, { ...current, kid: 'nobody' })],
    ['not a JWT at all', () => 'abc.def.ghi'],
  ])('refuses a token %s with 401 invalid_token', async (_, token) => {
    const res = await call(jwksApp(), token());
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it('honours clockTolerance and maxAge', async () => {
    const lenient = jwksApp({ clockTolerance: 300 });
    expect((await call(lenient, good({ exp: now() - 60 }))).statusCode).toBe(200);
    expect((await call(lenient, good({ exp: now() - 600 }))).statusCode).toBe(401);
    const fresh = jwksApp({ maxAge: 60 });
    expect((await call(fresh, good({ iat: now() - 10 }))).statusCode).toBe(200);
    expect((await call(fresh, good({ iat: now() - 3600 }))).statusCode).toBe(401);
    expect((await call(fresh, good({ iat: undefined }))).statusCode).toBe(401);
  });

  it('refuses alg none and HMAC tokens without asking the key server', async () => {
    const keys = await keyServer([current]);
    const app = jwksApp({}, keys.url);
    expect((await call(app, unsignedJwt({ iss: ISSUER, aud: AUDIENCE }))).statusCode).toBe(401);
    expect((await call(app, signHs256(SECRET, { iss: ISSUER, aud: AUDIENCE }))).statusCode).toBe(401);
    expect(keys.fetches).toBe(0);
  });

  it('keeps the key set: one fetch for many tokens, and a stream of unknown kids costs one more at most per cooldown', async () => {
    const keys = await keyServer([current]);
    const app = jwksApp({}, keys.url);
    for (let i = 0; i < 5; i++) expect((await call(app, good())).statusCode).toBe(200);
    expect(keys.fetches).toBe(1);
    // The first unknown kid right after a fetch is within the cooldown (30 s): no fetch at all.
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => call(app, good({}, { ...current, kid: `random-${i}` }))));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(50).fill(401));
    expect(keys.fetches).toBe(1);
  });

  it('picks up a rotated key on an unknown kid, once the cooldown allows a fetch', async () => {
    const keys = await keyServer([current]);
    const app = jwksApp({ keyServer: { cooldown: 0 } }, keys.url);
    expect((await call(app, good())).statusCode).toBe(200);
    const next = signingKey('key-2');
    keys.keys = [current, next];
    expect((await call(app, good({}, next))).statusCode).toBe(200);
    expect(keys.fetches).toBe(2);
    // Many requests for unknown kids at once share one fetch.
    await Promise.all(Array.from({ length: 20 }, (_, i) => call(app, good({}, { ...next, kid: `x${i}` }))));
    expect(keys.fetches).toBeLessThanOrEqual(3);
  });

  it('answers 503 with Retry-After, at once, when the key server is down and no keys were ever fetched', async () => {
    const app = jwksApp({}, await deadUrl());
    const res = await call(app, good());
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    expect(res.json()).toMatchObject({ status: 503, code: 'TERN_KEY_SERVER_UNAVAILABLE' });
    // A token the verifier refuses before looking for a key is still a 401.
    expect((await call(app, unsignedJwt())).statusCode).toBe(401);
  });

  it('documents the 503 on every operation that takes a scheme verified with a jwksUri, and only there', async () => {
    const app = new TernApp({ logger: false });
    app.openapiConfig
      .addSecurityScheme('bearerAuth', new HTTPBearer({ bearerFormat: 'JWT' }))
      .addSecurityScheme('serviceKey', new APIKey({ name: 'X-Service-Token', in: 'header' }));
    app.addMiddleware(
      enforceSecurity(app, {
        bearerAuth: jwtVerifier({ jwksUri: await deadUrl(), algorithms: ['RS256'], issuer: ISSUER, audience: AUDIENCE }),
        serviceKey: jwtVerifier({ secret: SECRET, algorithms: ['HS256'] }),
      }),
    );
    app.get('/me', { security: [{ bearerAuth: [] }] }, async (req) => req.user as object);
    app.get('/maybe', { security: [{ bearerAuth: [] }, {}] }, async (req) => ({ user: req.user ?? null }));
    app.get('/service', { security: [{ serviceKey: [] }] }, async () => ({ ok: true }));
    app.get('/either', { security: [{ serviceKey: [] }, { bearerAuth: [] }] }, async () => ({ ok: true }));
    app.get('/public', { security: [] }, async () => ({ ok: true }));
    // A sent token is verified on an optional route too, so a key server that is down shows there.
    expect((await call(app, good(), '/maybe')).statusCode).toBe(503);

    const { paths } = (await app.inject('/openapi.json')).json();
    const documented = Object.fromEntries(Object.entries<{ get: { responses: Record<string, object> } }>(paths).map(([path, item]) => [path, item.get.responses['503']]));
    const unavailable = {
      description: 'The keys that sign tokens cannot be fetched from their key server; try again shortly.',
      content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
      headers: { 'Retry-After': expect.objectContaining({ schema: { type: 'integer', minimum: 1 } }) },
    };
    expect(documented).toEqual({ '/me': unavailable, '/maybe': unavailable, '/either': unavailable, '/service': undefined, '/public': undefined });
  });

  it('answers 503 within its timeout when the key server hangs, and then does not wait again for a while', async () => {
    const keys = await keyServer([current]);
    keys.mode = 'hang';
    const app = jwksApp({ keyServer: { timeout: 200 } }, keys.url);
    const started = Date.now();
    const res = await call(app, good());
    expect(res.statusCode).toBe(503);
    expect(Date.now() - started).toBeLessThan(10_000); // bounded by the timeout, never a hang
    const again = await Promise.all(Array.from({ length: 10 }, () => call(app, good())));
    expect(again.map((r) => r.statusCode)).toEqual(Array(10).fill(503));
    expect(keys.fetches).toBe(1);
  });

  it('keeps verifying with the keys it has when the key server goes down later', async () => {
    const keys = await keyServer([current]);
    const app = jwksApp({ keyServer: { cacheMaxAge: 0, cooldown: 0 } }, keys.url);
    expect((await call(app, good())).statusCode).toBe(200);
    keys.mode = 'fail';
    expect((await call(app, good())).statusCode).toBe(200);
    expect((await call(app, good({}, signingKey('key-9')))).statusCode).toBe(401);
    expect(keys.fetches).toBeGreaterThanOrEqual(2);
  });

  it('treats a refused token on an optional route as no sign-in, and reads a good one', async () => {
    const app = jwksApp();
    expect((await app.inject('/maybe')).json()).toEqual({ user: null });
    expect((await call(app, good({ exp: now() - 999 }), '/maybe')).json()).toEqual({ user: null });
    expect((await call(app, good(), '/maybe')).json()).toEqual({ user: expect.objectContaining({ sub: 'ada' }) });
  });
});

describe('jwtVerifier against hostile tokens', () => {
  const part = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value) ?? 'null').toString('base64url');
  const token68 = fc.stringMatching(/^[A-Za-z0-9\-._~+/]{1,300}=*$/);
  const header = fc.record({ alg: fc.oneof(fc.constantFrom('none', 'HS256', 'RS256', 'ES256', 'EdDSA', 'NONE', ''), fc.jsonValue()), kid: fc.option(fc.oneof(fc.string(), fc.jsonValue())), crit: fc.option(fc.jsonValue()) }, { requiredKeys: [] });
  const claims = fc.dictionary(fc.constantFrom('exp', 'nbf', 'iat', 'iss', 'aud', 'sub', '__proto__', 'constructor'), fc.jsonValue());
  const shaped = fc.tuple(fc.oneof(header, fc.jsonValue()), fc.oneof(claims, fc.jsonValue()), fc.string()).map(([h, c, sig]) => `${part(h)}.${part(c)}.${part(sig)}`);

  it('answers 401 to every malformed, unsigned or mis-signed token: never a 500', async () => {
    const jwks = jwksApp();
    const hmac = appWith(jwtVerifier({ secret: SECRET, algorithms: ['HS256'] }));
    await fc.assert(
      fc.asyncProperty(fc.oneof(token68, shaped), async (token) => {
        for (const app of [jwks, hmac]) {
          const res = await call(app, token);
          expect(res.statusCode).toBe(401);
        }
      }),
      { numRuns: 150, seed: 41 },
    );
  });
});

describe('jwtVerifier with a secret or a public key', () => {
  it('verifies HS256 with a secret, refusing another secret and alg none', async () => {
    const app = appWith(jwtVerifier({ secret: SECRET, algorithms: ['HS256'] }));
    expect((await call(app, signHs256(SECRET, { sub: 'ada' }))).json()).toMatchObject({ sub: 'ada' });
    expect((await call(app, signHs256('another-secret-of-at-least-32-bytes!', { sub: 'ada' }))).statusCode).toBe(401);
    expect((await call(app, unsignedJwt({ sub: 'ada' }))).statusCode).toBe(401);
    expect((await call(app, good())).statusCode).toBe(401);
  });

  it.each([
    ['PEM text', (key: SigningKey) => key.publicKey.export({ format: 'pem', type: 'spki' }) as string],
    ['a KeyObject', (key: SigningKey) => key.publicKey],
    ['a JWK', (key: SigningKey) => key.publicKey.export({ format: 'jwk' })],
  ])('verifies with a public key given as %s, and refuses key confusion', async (_, form) => {
    const app = appWith(jwtVerifier({ publicKey: form(current), algorithms: ['RS256'] }));
    expect((await call(app, good())).statusCode).toBe(200);
    const pem = current.publicKey.export({ format: 'pem', type: 'spki' });
    expect((await call(app, signHs256(pem, { sub: 'root' }))).statusCode).toBe(401);
    expect((await call(app, good({}, signingKey('key-1')))).statusCode).toBe(401);
  });

  it('verifies ES256 and EdDSA keys', async () => {
    const ec = signingKey('ec', 'ES256');
    expect((await call(appWith(jwtVerifier({ publicKey: ec.publicKey, algorithms: ['ES256'] })), signJwt(ec))).statusCode).toBe(200);
    const ed = signingKey('ed', 'EdDSA');
    expect((await call(appWith(jwtVerifier({ publicKey: ed.publicKey, algorithms: ['EdDSA'] })), signJwt(ed))).statusCode).toBe(200);
  });

  it('makes the principal with toPrincipal; null refuses the token', async () => {
    const app = appWith(jwtVerifier({ secret: SECRET, algorithms: ['HS256'], toPrincipal: (payload) => (payload.sub === 'banned' ? null : { id: payload.sub, roles: payload.roles }) }));
    expect((await call(app, signHs256(SECRET, { sub: 'ada', roles: ['admin'] }))).json()).toEqual({ id: 'ada', roles: ['admin'] });
    expect((await call(app, signHs256(SECRET, { sub: 'banned' }))).statusCode).toBe(401);
  });
});

describe('jwtVerifier on other schemes', () => {
  it("reads a JWT after another word (HTTPBearer({ scheme: 'Token' })) and from an API key", async () => {
    const app = new TernApp({ logger: false });
    app.openapiConfig.addSecurityScheme('token', new HTTPBearer({ scheme: 'Token' }));
    app.openapiConfig.addSecurityScheme('apiKey', new APIKey({ name: 'X-API-Key', in: 'header' }));
    const verifier = jwtVerifier({ jwksUri: server.url, algorithms: ['RS256'], audience: AUDIENCE });
    app.addMiddleware(enforceSecurity(app, { token: verifier, apiKey: verifier }));
    app.get('/token', { security: [{ token: [] }] }, async (req) => req.user as object);
    app.get('/key', { security: [{ apiKey: [] }] }, async (req) => req.user as object);
    expect((await app.inject({ url: '/token', headers: { authorization: `Token ${good()}` } })).json()).toMatchObject({ sub: 'ada' });
    const refused = await app.inject({ url: '/token', headers: { authorization: `Token ${good({ aud: 'x' })}` } });
    expect([refused.statusCode, refused.headers['www-authenticate']]).toEqual([401, 'Token error="invalid_token"']);
    expect((await app.inject({ url: '/key', headers: { 'x-api-key': good() } })).json()).toMatchObject({ sub: 'ada' });
    expect((await app.inject({ url: '/key', headers: { 'x-api-key': unsignedJwt() } })).statusCode).toBe(401);
  });

  it("grants an OAuth2 token's scope claim", async () => {
    const app = new TernApp({ logger: false });
    app.openapiConfig.addSecurityScheme('oauth2', new OAuth2({ flows: { clientCredentials: { tokenUrl: 'https://issuer.test/token', scopes: { read: 'Read', write: 'Write' } } } }));
    app.addMiddleware(enforceSecurity(app, { oauth2: jwtVerifier({ jwksUri: server.url, algorithms: ['RS256'] }) }));
    app.get('/write', { security: [{ oauth2: ['write'] }] }, async (req) => req.user as object);
    expect((await call(app, good({ scope: 'read write' }), '/write')).json()).toMatchObject({ sub: 'ada' });
    expect((await call(app, good({ scp: ['read', 'write'] }), '/write')).statusCode).toBe(200);
    const lacking = await call(app, good({ scope: 'read' }), '/write');
    expect([lacking.statusCode, lacking.headers['www-authenticate']]).toEqual([403, 'Bearer error="insufficient_scope", scope="write"']);
  });
});

describe('jwtVerifier options', () => {
  const pem = () => current.publicKey.export({ format: 'pem', type: 'spki' }) as string;
  it.each([
    ['no algorithms', () => jwtVerifier({ secret: SECRET } as JwtVerifierOptions), /'algorithms' is required/],
    ['an empty list', () => jwtVerifier({ secret: SECRET, algorithms: [] }), /'algorithms' is required/],
    ['none', () => jwtVerifier({ secret: SECRET, algorithms: ['none' as 'HS256'] }), /'none' is not accepted/],
    ['HS256 beside a public key', () => jwtVerifier({ publicKey: pem(), algorithms: ['RS256', 'HS256'] }), /key confusion/],
    ['HS256 beside a key server', () => jwtVerifier({ jwksUri: server.url, algorithms: ['HS256'] }), /key confusion/],
    ['RS256 with a secret', () => jwtVerifier({ secret: SECRET, algorithms: ['RS256'] }), /not 'secret'/],
    ['a short secret', () => jwtVerifier({ secret: 'secret', algorithms: ['HS256'] }), /at least 32/],
    ['two key sources', () => jwtVerifier({ secret: SECRET, jwksUri: server.url, algorithms: ['HS256'] }), /exactly one/],
    ['no key source', () => jwtVerifier({ algorithms: ['RS256'] }), /exactly one/],
    ['a key of another type', () => jwtVerifier({ publicKey: pem(), algorithms: ['ES256'] }), /cannot verify ES256/],
    ['a secret KeyObject as public key', () => jwtVerifier({ publicKey: createSecretKey(Buffer.alloc(32)), algorithms: ['RS256'] }), /pass it as `secret`/],
    ['a key server over plain http', () => jwtVerifier({ jwksUri: 'http://issuer.example/jwks.json', algorithms: ['RS256'] }), /must be https/],
    ['a negative clockTolerance', () => jwtVerifier({ secret: SECRET, algorithms: ['HS256'], clockTolerance: -1 }), /clockTolerance/],
  ])('refuses %s when made', (_, make, message) => {
    expect(make).toThrow(expect.objectContaining({ code: 'TERN_INVALID_JWT_OPTIONS', name: 'TypeError', message: expect.stringMatching(message) }));
  });
});
