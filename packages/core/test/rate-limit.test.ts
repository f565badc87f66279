/**
 * The `rateLimit` route option as a client sees it: the IETF rate-limit headers on every answer
 * of a limited route, 429 problem+json with `Retry-After` past the limit, keys by address, user
 * or function, inheritance from the app and every container (with `false` to opt out), startup
 * errors naming the route, the document's 429, and what a failing store does to a request.
 */
import 'reflect-metadata';
import {
  Controller,
  enforceSecurity,
  Get,
  Group,
  HTTPBearer,
  memoryStore,
  redisStore,
  Router,
  Routes,
  TernApp,
  type InjectResponse,
  type TernStore,
} from '@tern/core';
import { checkContract } from '@tern/core/testing';

const from = (ip: string) => ({ remoteAddress: ip });

async function getMany(app: TernApp, url: string, count: number, options: { remoteAddress?: string; headers?: Record<string, string> } = {}): Promise<InjectResponse[]> {
  const answers: InjectResponse[] = [];
  for (let i = 0; i < count; i++) answers.push(await app.inject({ method: 'GET', url, ...options }));
  return answers;
}

describe('rateLimit', () => {
  it('answers with the policy and what is left, then 429 problem+json with Retry-After past the limit', async () => {
    const app = new TernApp({ logger: false });
    app.get('/search', { rateLimit: { limit: 3, window: 60_000 } }, async () => ({ results: [] }));
    const answers = await getMany(app, '/search', 4);
    expect(answers.slice(0, 3).map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(answers.map((a) => a.headers['ratelimit-policy'])).toEqual(Array(4).fill('"default";q=3;w=60'));
    expect(answers.map((a) => String(a.headers.ratelimit).replace(/t=\d+/, 't=T'))).toEqual([
      '"default";r=2;t=T',
      '"default";r=1;t=T',
      '"default";r=0;t=T',
      '"default";r=0;t=T',
    ]);
    const refused = answers[3];
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.json()).toMatchObject({ status: 429, code: 'TERN_RATE_LIMITED' });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(String(refused.headers.ratelimit)).toBe(`"default";r=0;t=${retryAfter}`);
  });

  it("counts each client address on its own (req.ip, so trustProxy's forwarded address behind a proxy)", async () => {
    const app = new TernApp({ logger: false, trustProxy: 'loopback' });
    app.get('/x', { rateLimit: { limit: 1, window: 60_000 } }, async () => 'ok');
    expect((await app.inject({ method: 'GET', url: '/x', ...from('10.0.0.1') })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/x', ...from('10.0.0.1') })).statusCode).toBe(429);
    expect((await app.inject({ method: 'GET', url: '/x', ...from('10.0.0.2') })).statusCode).toBe(200);
    const viaProxy = (client: string) => app.inject({ method: 'GET', url: '/x', remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': client } });
    expect((await viaProxy('203.0.113.5')).statusCode).toBe(200);
    expect((await viaProxy('203.0.113.6')).statusCode).toBe(200);
    expect((await viaProxy('203.0.113.5')).statusCode).toBe(429);
  });

  it("with key 'user', counts the principal enforceSecurity set, and anonymous requests by address", async () => {
    const app = new TernApp({ logger: false });
    app.openapiConfig.addSecurityScheme('bearerAuth', new HTTPBearer());
    const users: Record<string, { id: number }> = { ada: { id: 1 }, bob: { id: 2 } };
    app.addMiddleware(enforceSecurity(app, { bearerAuth: async (token) => users[token] ?? null }));
    app.get('/me', { security: [{ bearerAuth: [] }, {}], rateLimit: { limit: 2, window: 60_000, key: 'user' } }, async (req) => ({ user: req.user ?? null }));
    const as = (token: string, ip = '10.0.0.1') => app.inject({ method: 'GET', url: '/me', remoteAddress: ip, headers: { authorization: `Bearer ${token}` } });
    expect([(await as('ada')).statusCode, (await as('ada', '10.0.0.9')).statusCode, (await as('ada', '10.0.0.8')).statusCode]).toEqual([200, 200, 429]);
    expect((await as('bob')).statusCode).toBe(200);
    const anonymous = await getMany(app, '/me', 3, from('10.0.0.3'));
    expect(anonymous.map((a) => a.statusCode)).toEqual([200, 200, 429]);
  });

  it('with a key function (sync or async), counts what it returns', async () => {
    const app = new TernApp({ logger: false });
    app.get('/sync', { rateLimit: { limit: 1, window: 60_000, key: (req) => req.headers.get('x-api-key') ?? 'none' } }, async () => 'ok');
    app.get('/async', { rateLimit: { limit: 1, window: 60_000, key: async (req) => `tenant-${req.queryParams.get('t')}` } }, async () => 'ok');
    const key = (k: string) => app.inject({ method: 'GET', url: '/sync', headers: { 'x-api-key': k } });
    expect([(await key('a')).statusCode, (await key('b')).statusCode, (await key('a')).statusCode]).toEqual([200, 200, 429]);
    const tenant = (t: string) => app.inject({ method: 'GET', url: `/async?t=${t}` });
    expect([(await tenant('1')).statusCode, (await tenant('2')).statusCode, (await tenant('1')).statusCode]).toEqual([200, 200, 429]);
  });

  it('counts each route on its own, and leaves routes without a limit alone (no headers)', async () => {
    const app = new TernApp({ logger: false });
    app.get('/a', { rateLimit: { limit: 1, window: 60_000 } }, async () => 'a');
    app.get('/b', { rateLimit: { limit: 1, window: 60_000 } }, async () => 'b');
    app.get('/free', async () => 'free');
    expect((await app.inject('/a')).statusCode).toBe(200);
    expect((await app.inject('/b')).statusCode).toBe(200);
    expect((await app.inject('/a')).statusCode).toBe(429);
    const free = await getMany(app, '/free', 3);
    expect(free.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(free[0].headers['ratelimit-policy']).toBeUndefined();
    expect(free[0].headers.ratelimit).toBeUndefined();
  });

  it('keeps the headers on an error the handler answers', async () => {
    const app = new TernApp({ logger: false });
    app.get('/missing', { rateLimit: { limit: 5, window: 60_000 } }, async (_req, res) => res.json({ error: 'gone' }, 404));
    app.get('/boom', { rateLimit: { limit: 5, window: 60_000 } }, async () => {
      throw new Error('boom');
    });
    const missing = await app.inject('/missing');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers.ratelimit).toMatch(/^"default";r=4;t=\d+$/);
    const boom = await app.inject('/boom');
    expect(boom.statusCode).toBe(500);
    expect(boom.headers.ratelimit).toMatch(/^"default";r=4;t=\d+$/);
  });

  describe('inheritance', () => {
    @Controller('/ctl', { rateLimit: { limit: 1, window: 60_000 } })
    class LimitedController {
      @Get('/inherits')
      inherits() {
        return { ok: true };
      }

      @Get('/own', { rateLimit: { limit: 3, window: 60_000 } })
      own() {
        return { ok: true };
      }

      @Get('/off', { rateLimit: false })
      off() {
        return { ok: true };
      }
    }

    it('takes the nearest level that sets one: route, controller, router, group, then the app; false turns it off', async () => {
      const app = new TernApp({ logger: false, rateLimit: { limit: 2, window: 60_000 } });
      app.get('/app-level', async () => 'ok');
      app.get('/opted-out', { rateLimit: false }, async () => 'ok');
      const router = new Router({ prefix: '/r', rateLimit: { limit: 4, window: 60_000 } });
      router.get('/x', async () => 'ok');
      const group = new Group({ path: '/g', rateLimit: { limit: 5, window: 60_000 }, routes: [new Routes({ path: '/y', methods: ['GET'], handler: async () => 'ok' })] });
      const inner = new Router({ prefix: '/inner', rateLimit: false });
      inner.get('/z', async () => 'ok');
      router.mountRouter(inner);
      app.mountRouter(router);
      app.addRoute(group);
      app.registerControllers([LimitedController]);
      const quota = async (url: string) => (await app.inject(url)).headers['ratelimit-policy'];
      expect(await quota('/app-level')).toBe('"default";q=2;w=60');
      expect(await quota('/opted-out')).toBeUndefined();
      expect(await quota('/r/x')).toBe('"default";q=4;w=60');
      expect(await quota('/r/inner/z')).toBeUndefined();
      expect(await quota('/g/y')).toBe('"default";q=5;w=60');
      expect(await quota('/ctl/inherits')).toBe('"default";q=1;w=60');
      expect(await quota('/ctl/own')).toBe('"default";q=3;w=60');
      expect(await quota('/ctl/off')).toBeUndefined();
      expect((await app.inject('/ctl/inherits')).statusCode).toBe(429);
      // The app's own routes (the document, the docs page) are not limited.
      expect((await getMany(app, '/openapi.json', 3)).map((a) => a.statusCode)).toEqual([200, 200, 200]);
    });
  });

  describe('mistakes', () => {
    it.each([
      [{ limit: 0, window: 60_000 }, 'rateLimit.limit must be a positive whole number'],
      [{ limit: 5, window: 10 }, 'rateLimit.window must be a whole number of milliseconds, at least 1000'],
      [{ limit: 5, window: 60_000, key: 'email' }, "rateLimit.key must be 'ip', 'user' or a function"],
      [{ limit: 5, window: 60_000, onStoreError: 'ignore' }, "rateLimit.onStoreError must be 'fail'"],
      [{ limit: 5, window: 60_000, windw: 1 }, "rateLimit has an unknown field 'windw'"],
      [true, 'rateLimit must be false or { limit, window, key?, onStoreError? }'],
    ])('fails ready() naming the route for %j', async (rateLimit, message) => {
      const app = new TernApp({ logger: false });
      app.get('/search', { rateLimit } as never, async () => 'ok');
      await expect(app.ready()).rejects.toMatchObject({ code: 'TERN_INVALID_ROUTE_OPTION', message: expect.stringContaining('GET /search') });
      await expect(app.ready()).rejects.toThrow(message);
    });

    it('refuses a bad one on the app, a router, a group and a controller when declared', () => {
      expect(() => new TernApp({ rateLimit: { limit: -1, window: 60_000 } })).toThrow(/new TernApp\(options\): rateLimit.limit/);
      expect(() => new Router({ prefix: '/r', rateLimit: { limit: 1 } as never })).toThrow(/Router '\/r': rateLimit.window/);
      expect(() => new Group({ path: '/g', rateLimit: 'lots' as never })).toThrow(/Group '\/g': rateLimit must be false or/);
      expect(() => Controller('/c', { rateLimit: { limit: 1, window: 5 } })).toThrow(/@Controller\('\/c'\): rateLimit.window/);
    });
  });

  describe('in the OpenAPI document', () => {
    it('lists 429 with Retry-After and the rate-limit headers (and the store 503) on limited operations only', async () => {
      const app = new TernApp({ logger: false });
      app.get('/limited', { rateLimit: { limit: 5, window: 60_000 } }, async () => ({ ok: true }));
      app.get('/lenient', { rateLimit: { limit: 5, window: 60_000, onStoreError: 'pass' } }, async () => ({ ok: true }));
      app.get('/free', async () => ({ ok: true }));
      const document = (await app.inject('/openapi.json')).json<{ paths: Record<string, { get: { responses: Record<string, { headers?: object; content?: object; description: string }> } }> }>();
      const limited = document.paths['/limited'].get.responses;
      expect(limited['429'].description).toBe('More than 5 requests from this client in 60 s.');
      expect(Object.keys(limited['429'].headers ?? {})).toEqual(['Retry-After', 'RateLimit-Policy', 'RateLimit']);
      expect(limited['429'].content).toHaveProperty(['application/problem+json']);
      expect(limited['503']).toBeDefined();
      expect(document.paths['/lenient'].get.responses['503']).toBeUndefined();
      expect(document.paths['/free'].get.responses['429']).toBeUndefined();
    });

    it('passes checkContract, whose requests run into the documented 429', async () => {
      const app = new TernApp({ logger: false });
      app.get('/limited', { rateLimit: { limit: 3, window: 60_000 }, responses: { 200: { ok: Boolean } } }, async () => ({ ok: true }));
      const reports = await checkContract(app, { runs: 20 });
      expect(reports).toEqual([{ operation: 'GET /limited', runs: 20 }]);
      expect((await app.inject('/limited')).statusCode).toBe(429);
    });
  });

  describe('when the store fails', () => {
    /** A real Redis client pointed at a port nothing listens on: every command fails after its timeout. */
    const downStore = (): TernStore => redisStore({ url: 'redis://127.0.0.1:1', commandTimeout: 200, log: () => undefined });

    it("answers 503 problem+json by default, lets requests through with onStoreError: 'pass', and logs what happened once", async () => {
      const logged: unknown[][] = [];
      const app = new TernApp({ store: downStore(), logger: { error: (...args: unknown[]) => logged.push(args) } });
      app.get('/strict', { rateLimit: { limit: 5, window: 60_000 } }, async () => 'ok');
      app.get('/lenient', { rateLimit: { limit: 5, window: 60_000, onStoreError: 'pass' } }, async () => 'passed');
      // ready() does not wait for the store: it may come back.
      await app.ready();
      const strict = await app.inject('/strict');
      expect(strict.statusCode).toBe(503);
      expect(strict.json()).toMatchObject({ status: 503, code: 'TERN_STORE_UNAVAILABLE' });
      expect(strict.headers['retry-after']).toBe('1');
      const lenient = await app.inject('/lenient');
      expect(lenient.statusCode).toBe(200);
      expect(lenient.body).toBe('passed');
      expect(lenient.headers.ratelimit).toBeUndefined();
      expect(logged).toHaveLength(1);
      expect(String(logged[0][0])).toContain('the store, for rateLimit');
      expect(String((logged[0][1] as Error).message)).toContain('redis://127.0.0.1:1');
      await app.close();
    });
  });

  it('closes its store with app.close()', async () => {
    const store = memoryStore();
    let closed = 0;
    const counted: TernStore = { ...store, close: () => ((closed += 1), store.close()) };
    const app = new TernApp({ store: counted, logger: false });
    app.get('/', async () => 'ok');
    await app.listen({ port: 0, host: '127.0.0.1' });
    await app.close();
    expect(closed).toBe(1);
    expect(app.store).toBe(counted);
  });

  it('refuses something that is not a store', () => {
    expect(() => new TernApp({ store: { get: () => undefined } as never })).toThrow(/expects a store such as memoryStore\(\) or redisStore/);
  });
});
