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
  });

  it('answers 401 without credentials and with a bad bearer token', async () => {
    const app = buildApp();
    const none = await app.inject('/notes');
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer');
    const bad = await app.inject({ url: '/health', headers: { authorization: 'Bearer nope' } });
    expect(bad.statusCode).toBe(401);
    expect(bad.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
  });

  it('sets req.user from the bearer token', async () => {
    const app = buildApp();
    expect((await app.inject({ url: '/me', headers: alice })).json()).toEqual({ name: 'alice', kind: 'user', scopes: ['notes:read', 'notes:write'] });
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
    // A key that works, sent where this route does not take it (only cookie or query here).
    expect((await app.inject({ url: '/notes/1', headers: { 'x-api-key': 'demo-key' } })).statusCode).toBe(403);
  });

  it('checks OAuth2 scopes: 403 when the token lacks one', async () => {
    const app = buildApp();
    const payload = { title: 'Scopes', tags: ['auth'] };
    expect((await app.inject({ method: 'POST', url: '/notes', headers: bob, payload })).statusCode).toBe(403);
    const created = await app.inject({ method: 'POST', url: '/notes', headers: alice, payload });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ id: 2, title: 'Scopes', body: '', tags: ['auth'], owner: 'alice' });
    const invalid = await app.inject({ method: 'POST', url: '/notes', headers: alice, payload: { title: '' } });
    expect(invalid.statusCode).toBe(422);
  });

  it('needs every scheme of one entry: bearer and the API key header to delete', async () => {
    const app = buildApp();
    expect((await app.inject({ method: 'DELETE', url: '/notes/1', headers: alice })).statusCode).toBe(403);
    expect((await app.inject({ method: 'DELETE', url: '/notes/1', headers: { 'x-api-key': 'demo-key' } })).statusCode).toBe(403);
    const both = await app.inject({ method: 'DELETE', url: '/notes/1', headers: { ...alice, 'x-api-key': 'demo-key' } });
    expect(both.statusCode).toBe(204);
  });

  it('keeps /internal/metrics out of the document', async () => {
    const app = buildApp();
    expect((await app.inject('/internal/metrics')).json()).toEqual({ notes: 1 });
    expect(Object.keys((await app.inject('/openapi.json')).json().paths)).not.toContain('/internal/metrics');
  });
});
