import type { IncomingMessage, ServerResponse } from 'node:http';
import { APIKey, enforceSecurity, Group, Router, TernApp } from '@tern/core';
import { bodyOf, listenOnFreePort, rawGet, statusOf } from '../../../test-support/raw-http';

/** A mounted Node listener (an Express app, another TernApp's handler) under a prefix. */
describe('a Group with a mounted app', () => {
  let app: TernApp;
  let port: number;
  const reported: unknown[] = [];
  const seenUrls: string[] = [];

  beforeAll(async () => {
    app = new TernApp({ logger: { error: (_message: string, err: unknown) => reported.push(err) } });
    app.addRoute(
      new Group({
        path: '/legacy',
        app: (req: IncomingMessage, res: ServerResponse) => {
          seenUrls.push(req.url as string);
          res.end('legacy');
        },
      }),
    );
    app.addRoute(
      new Group({
        path: '/rejects',
        app: async (req: IncomingMessage, res: ServerResponse) => {
          res.end('ok');
          throw new Error('after answering');
        },
      }),
    );
    app.addRoute(
      new Group({
        path: '/twice',
        app: (req: IncomingMessage, res: ServerResponse) => {
          res.end('first');
          res.end('second');
        },
      }),
    );
    app.addRoute(
      new Group({
        path: '/fails-first',
        app: async () => {
          throw new Error('before answering');
        },
      }),
    );
    port = await listenOnFreePort(app);
  });

  afterAll(() => app.close());
  beforeEach(() => {
    reported.length = 0;
    seenUrls.length = 0;
  });

  it('reports a listener whose promise rejects after it answered; the answer stands', async () => {
    const response = await rawGet(port, '/rejects/x');
    expect(statusOf(response)).toBe(200);
    expect(bodyOf(response)).toBe('ok');
    await new Promise((resolve) => setImmediate(resolve));
    expect(reported).toEqual([expect.objectContaining({ message: 'after answering' })]);
    expect(statusOf(await rawGet(port, '/legacy/alive'))).toBe(200);
  });

  it('reports a listener that ends its response twice; the first answer stands', async () => {
    const response = await rawGet(port, '/twice/x');
    expect(bodyOf(response)).toBe('first');
    await new Promise((resolve) => setImmediate(resolve));
    expect(reported).toEqual([expect.objectContaining({ code: 'ERR_STREAM_WRITE_AFTER_END' })]);
    expect(statusOf(await rawGet(port, '/legacy/alive'))).toBe(200);
  });

  it('answers 500 when the listener fails before answering', async () => {
    expect(statusOf(await rawGet(port, '/fails-first/x'))).toBe(500);
    expect(reported).toEqual([expect.objectContaining({ message: 'before answering' })]);
  });

  it.each([
    ['/%6cegacy/admin/stats', '/admin/stats'],
    ['/%6Cegacy/admin/stats?q=1', '/admin/stats?q=1'],
    ['/legacy', '/'],
    ['/legacy/', '/'],
    ['/legacy/a%2Fb', '/a%2Fb'],
  ])('strips the matched prefix from %s, however it was encoded', async (target, expected) => {
    expect(statusOf(await rawGet(port, target))).toBe(200);
    expect(seenUrls).toEqual([expected]);
  });
});

describe('a mounted app inherits its containers\' route options', () => {
  /** A Router requiring an API key, holding a Group that mounts a plain Node listener. */
  function securedMount(): TernApp {
    const app = new TernApp({ logger: false });
    app.openapiConfig.addSecurityScheme('apiKey', new APIKey({ name: 'X-API-Key', in: 'header' }));
    const admin = new Router({ prefix: '/admin', security: [{ apiKey: [] }], rateLimit: { limit: 1, window: 60_000 } });
    admin.addRoute(new Group({ path: '/legacy', app: (_req: IncomingMessage, res: ServerResponse) => res.end('legacy') }));
    app.mountRouter(admin);
    app.addMiddleware(enforceSecurity(app, { apiKey: async (key) => (key === 'key-1' ? { client: 'billing' } : undefined) }));
    return app;
  }

  it('the Router\'s security: enforceSecurity answers 401 before the mounted app sees the request', async () => {
    const app = securedMount();
    const refused = await app.inject('/admin/legacy/stats');
    expect([refused.statusCode, refused.body]).not.toEqual([200, 'legacy']);
    expect(refused.statusCode).toBe(401);
    const allowed = await app.inject({ url: '/admin/legacy/stats', headers: { 'x-api-key': 'key-1' } });
    expect([allowed.statusCode, allowed.body]).toEqual([200, 'legacy']);
  });

  it('the Router\'s rate limit counts the mounted app\'s requests', async () => {
    const app = securedMount();
    const headers = { 'x-api-key': 'key-1' };
    expect((await app.inject({ url: '/admin/legacy/a', headers })).statusCode).toBe(200);
    expect((await app.inject({ url: '/admin/legacy/b', headers })).statusCode).toBe(429);
  });
});
