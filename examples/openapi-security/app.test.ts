import type { InjectOptions } from '@tern/core';
import { buildApp } from './app';

const alice = { authorization: 'Bearer alice-token' };
const bob = { authorization: 'Bearer bob-token' };

describe('notes example (OpenAPI security)', () => {
  it('serves public routes and the docs without credentials', async () => {
    const app = buildApp();
    expect((await app.inject('/health')).json()).toEqual({ status: 'ok' });
    expect((await app.inject('/openapi.json')).statusCode).toBe(200);
    expect((await app.inject('/docs')).statusCode).toBe(200);
    // Public means nothing is checked, not even a token that happens to be sent.
    expect((await app.inject({ url: '/health', headers: { authorization: 'Bearer nope' } })).statusCode).toBe(200);
  });

  it('answers 401 without credentials and with a bad bearer token', async () => {
    const app = buildApp();
    const none = await app.inject('/notes');
    expect(none.statusCode).toBe(401);
    expect(none.json().code).toBe('TERN_UNAUTHORIZED');
    // One challenge per way the route takes credentials.
    expect(none.headers['www-authenticate']).toBe(
      'Bearer, APIKey in="header", name="X-API-Key", APIKey in="query", name="api_key", APIKey in="cookie", name="session"',
    );
    const bad = await app.inject({ url: '/me', headers: { authorization: 'Bearer nope' } });
    expect(bad.statusCode).toBe(401);
    expect(bad.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
  });

  it('sets req.user from the bearer token', async () => {
    const app = buildApp();
    expect((await app.inject({ url: '/me', headers: alice })).json()).toEqual({ name: 'alice', kind: 'user', scopes: ['notes:read', 'notes:write'], roles: ['admin'] });
  });

  it('accepts any one alternative: bearer, or the API key in a header, the query or a cookie', async () => {
    const app = buildApp();
    const requests: InjectOptions[] = [
      { url: '/notes', headers: bob },
      { url: '/notes', headers: { 'x-api-key': 'demo-key' } },
      { url: '/notes?api_key=demo-key' },
      { url: '/notes', headers: { cookie: 'session=demo-key' } },
    ];
    for (const request of requests) {
      const response = await app.inject(request);
      expect(response.statusCode).toBe(200);
      expect(response.json()[0].title).toBe('Welcome');
    }
    expect((await app.inject('/notes?api_key=wrong')).statusCode).toBe(401);
    // A key that works, sent where a route does not take it, is not a credential there.
    const elsewhere = await app.inject({ url: '/notes/1', headers: { 'x-api-key': 'demo-key' } });
    expect([elsewhere.statusCode, elsewhere.headers['www-authenticate']]).toEqual([401, 'Bearer']);
    expect((await app.inject({ url: '/notes/export', headers: { cookie: 'session=demo-key' } })).body).toBe('1\tWelcome');
    expect((await app.inject({ url: '/notes/export', headers: { 'x-api-key': 'demo-key' } })).statusCode).toBe(401);
  });

  it('checks OAuth2 scopes: 403 when the token lacks one', async () => {
    const app = buildApp();
    const payload = { title: 'Scopes', tags: ['auth'] };
    const lacking = await app.inject({ method: 'POST', url: '/notes', headers: bob, payload });
    expect(lacking.statusCode).toBe(403);
    expect(lacking.headers['www-authenticate']).toBe('Bearer error="insufficient_scope", scope="notes:write"');
    // An API key is no OAuth2 token: this route does not read it.
    expect((await app.inject({ method: 'POST', url: '/notes', headers: { 'x-api-key': 'demo-key' }, payload })).statusCode).toBe(401);
    const created = await app.inject({ method: 'POST', url: '/notes', headers: alice, payload });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ id: 2, title: 'Scopes', body: '', tags: ['auth'], owner: 'alice' });
    const invalid = await app.inject({ method: 'POST', url: '/notes', headers: alice, payload: { title: '' } });
    expect(invalid.statusCode).toBe(422);
  });

  it('checks roles: only a user with the admin role counts notes per owner, the rest get 403', async () => {
    const app = buildApp();
    expect((await app.inject({ url: '/notes/stats', headers: alice })).json()).toEqual([{ owner: 'alice', notes: 1 }]);
    const lacking = await app.inject({ url: '/notes/stats', headers: bob });
    expect(lacking.statusCode).toBe(403);
    expect(lacking.json()).toMatchObject({ code: 'TERN_FORBIDDEN', detail: 'Insufficient role: this route requires bearerAuth [admin].' });
    // A role is not an OAuth2 scope: no insufficient_scope challenge.
    expect(lacking.headers['www-authenticate']).toBeUndefined();
    // No credential, a bad one, or one this route does not take: 401, not 403.
    for (const headers of [{}, { authorization: 'Bearer nope' }, { 'x-api-key': 'demo-key' }] as Array<Record<string, string>>) {
      expect((await app.inject({ url: '/notes/stats', headers })).statusCode).toBe(401);
    }
    // The document keeps the role in the requirement, and says "role" only where one can be missing.
    const { paths } = (await app.inject('/openapi.json')).json();
    expect(paths['/notes/stats'].get.security).toEqual([{ bearerAuth: ['admin'] }]);
    const roleRefusals = Object.entries<Record<string, { responses: Record<string, { description: string }> }>>(paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, operation]) => /role/.test(operation.responses['403']?.description ?? ''))
        .map(([method]) => `${method} ${path}`),
    );
    expect(roleRefusals).toEqual(['get /notes/stats']);
  });

  it('needs every scheme of one entry: bearer and the API key header to delete', async () => {
    const app = buildApp();
    // Half of the entry, or a wrong key with a good token: 401, challenging for both.
    for (const headers of [alice, { 'x-api-key': 'demo-key' }, { ...alice, 'x-api-key': 'wrong' }]) {
      const response = await app.inject({ method: 'DELETE', url: '/notes/1', headers });
      expect([response.statusCode, response.headers['www-authenticate']]).toEqual([401, 'Bearer, APIKey in="header", name="X-API-Key"']);
    }
    const both = await app.inject({ method: 'DELETE', url: '/notes/1', headers: { ...alice, 'x-api-key': 'demo-key' } });
    expect(both.statusCode).toBe(204);
  });

  it('keeps /internal/metrics out of the document', async () => {
    const app = buildApp();
    expect((await app.inject('/internal/metrics')).json()).toEqual({ notes: 1 });
    expect(Object.keys((await app.inject('/openapi.json')).json().paths)).not.toContain('/internal/metrics');
  });
});
