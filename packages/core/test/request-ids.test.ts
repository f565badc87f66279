/**
 * Request ids: taken from the header the app names when sane, generated otherwise (a client never
 * chooses one unless the app asked), `req.id`, echoed on every answer and carried by problem+json
 * bodies.
 */
import fc from 'fast-check';
import pino from 'pino';
import { TernApp, type TernAppOptions } from '@tern/core';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function appWith(options: TernAppOptions): TernApp {
  const app = new TernApp({ logger: false, openapi: { openapiPath: false }, ...options });
  app.get('/id', async (req) => ({ id: req.id }));
  app.get('/fail', async () => {
    throw new Error('nope');
  });
  return app;
}

describe('request ids', () => {
  it('come from X-Request-Id when sane, and are echoed', async () => {
    const app = appWith({ requestIdHeader: 'X-Request-Id' });
    for (const sent of ['abc-123', '3f2c9a1e-8d7b-4c1a-9e2f-0a1b2c3d4e5f', 'nginx:7f.a_b/c+d=e@f', 'x'.repeat(128)]) {
      const response = await app.inject({ url: '/id', headers: { 'x-request-id': sent } });
      expect(response.json()).toEqual({ id: sent });
      expect(response.headers['x-request-id']).toBe(sent);
    }
  });

  it('are generated when the header is absent, forged or too long', async () => {
    const app = appWith({ requestIdHeader: 'x-request-id' });
    const forged = ['', 'a b', 'id"}\n{"level":60', 'x'.repeat(129), 'é', 'id\tx', '<script>'];
    const seen = new Set<string>();
    for (const sent of [undefined, ...forged]) {
      const response = await app.inject({ url: '/id', headers: sent === undefined ? {} : { 'x-request-id': sent } });
      const { id } = response.json() as { id: string };
      expect(id).toMatch(UUID);
      expect(response.headers['x-request-id']).toBe(id);
      seen.add(id);
    }
    expect(seen.size).toBe(forged.length + 1);
  });

  it('never echo what a client sent unless it is in the safe set', async () => {
    const app = appWith({ requestIdHeader: 'x-request-id' });
    await app.ready();
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 200, unit: 'binary-ascii' }), async (sent) => {
        const response = await app.inject({ url: '/id', headers: { 'x-request-id': sent } });
        if (response.statusCode !== 200) return; // Node refuses some header values before Tern sees them
        const echoed = response.headers['x-request-id'] as string;
        expect(echoed).toMatch(/^[A-Za-z0-9\-_.:/+=@]{1,128}$/);
        expect(echoed === sent || UUID.test(echoed)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('use the configured header', async () => {
    const app = appWith({ requestIdHeader: 'X-Correlation-Id' });
    const response = await app.inject({ url: '/id', headers: { 'x-correlation-id': 'corr-1', 'x-request-id': 'ignored' } });
    expect(response.json()).toEqual({ id: 'corr-1' });
    expect(response.headers['x-correlation-id']).toBe('corr-1');
    expect(response.headers['x-request-id']).toBeUndefined();
  });

  it('with requestIdHeader: false are always generated and never echoed', async () => {
    const app = appWith({ requestIdHeader: false });
    const response = await app.inject({ url: '/fail', headers: { 'x-request-id': 'from-client' } });
    const body = response.json() as { requestId: string };
    expect(body.requestId).toMatch(UUID);
    expect(response.headers['x-request-id']).toBeUndefined();
  });

  it('are carried by problem+json answers: errors, 404s', async () => {
    const app = appWith({ requestIdHeader: 'x-request-id' });
    for (const url of ['/fail', '/missing']) {
      const response = await app.inject({ url, headers: { 'x-request-id': `req-${url.slice(1)}` } });
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.json()).toEqual(expect.objectContaining({ requestId: `req-${url.slice(1)}` }));
      expect(response.headers['x-request-id']).toBe(`req-${url.slice(1)}`);
    }
  });

  it('are generated, never adopted, when the app names no header: two clients cannot share an id', async () => {
    const app = new TernApp({ logger: pino({ level: 'silent' }), openapi: { openapiPath: false } });
    app.get('/id', async (req) => ({ id: req.id }));
    const first = await app.inject({ url: '/id', headers: { 'x-request-id': 'shared-id' } });
    const second = await app.inject({ url: '/id', headers: { 'x-request-id': 'shared-id' } });
    const ids = [first, second].map((response) => (response.json() as { id: string }).id);
    for (const [index, response] of [first, second].entries()) {
      expect(ids[index]).toMatch(UUID);
      // Still echoed, so a client can quote the id it got.
      expect(response.headers['x-request-id']).toBe(ids[index]);
    }
    expect(ids[0]).not.toBe(ids[1]);
  });

  it('stay lazy in an app without a logger or requestIdHeader: nothing echoed, req.id is generated', async () => {
    const app = appWith({});
    const read = await app.inject({ url: '/id', headers: { 'x-request-id': 'abc' } });
    expect((read.json() as { id: string }).id).toMatch(UUID);
    expect(read.headers['x-request-id']).toBeUndefined();
    const failed = await app.inject({ url: '/fail' });
    expect(failed.json()).not.toHaveProperty('requestId');
    expect(failed.headers['x-request-id']).toBeUndefined();
  });
});
