import { enforceSecurity, Group, HTTPBearer, HTTPException, OAuth2, Router, TernApp, type Middleware } from '@tern/core';
import { bodyOf, rawRequest, statusOf } from '../../../test-support/raw-http';
import { connect, refusedUpgrade } from '../../../test-support/ws-client';

const apps: TernApp[] = [];

/** Waits for something the server does after the client already has its answer. */
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
}

async function serve(app: TernApp): Promise<string> {
  apps.push(app);
  return (await app.listen({ port: 0 })).replace(/^http/, 'ws');
}

afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

describe('app.ws: a socket route over a real connection', () => {
  it('echoes text, binary and JSON frames', async () => {
    const app = new TernApp({ logger: false });
    app.ws('/echo', {}, {
      message(socket, data) {
        if (typeof data === 'string' && data.startsWith('{')) socket.send(JSON.parse(data) as object);
        else socket.send(data);
      },
    });
    const base = await serve(app);
    const client = await connect(`${base}/echo`);
    client.ws.send('hello');
    expect(await client.next()).toBe('hello');
    client.ws.send(Buffer.from([1, 2, 3]));
    expect(await client.next()).toEqual(Buffer.from([1, 2, 3]));
    client.ws.send('{"a":1}');
    expect(await client.nextJson()).toEqual({ a: 1 });
    client.ws.close(1000, 'bye');
    expect(await client.closed).toEqual({ code: 1000, reason: 'bye' });
  });

  it('sends frames of every length encoding whole: 7-bit, 16-bit and 64-bit lengths, multibyte text, binary', async () => {
    const app = new TernApp({ logger: false, websocket: { maxPayload: 1024 * 1024 } });
    const texts = ['', 'a'.repeat(125), 'b'.repeat(126), 'é'.repeat(63), 'ü'.repeat(64), 'c'.repeat(65_535), 'd'.repeat(65_536), '🦅'.repeat(20_000)];
    const bytes = [0, 125, 126, 65_535, 65_536, 200_000].map((length) => Buffer.alloc(length, length % 251));
    app.ws('/frames', {}, {
      open(socket) {
        for (const text of texts) socket.send(text);
        for (const buffer of bytes) socket.send(buffer);
        socket.send({ nested: texts[3] });
      },
    });
    const client = await connect(`${await serve(app)}/frames`, { maxPayload: 1024 * 1024 });
    for (const text of texts) expect(await client.next()).toBe(text);
    for (const buffer of bytes) expect(await client.next()).toEqual(buffer);
    expect(await client.nextJson()).toEqual({ nested: texts[3] });
    // The socket still reads and answers after all that: the client's ping gets its pong.
    const pong = new Promise((resolve) => client.ws.once('pong', resolve));
    client.ws.ping('still-there');
    expect(String(await pong)).toBe('still-there');
  });

  it('gives open the upgrade request: converted path params, id, headers', async () => {
    const app = new TernApp({ logger: false, requestIdHeader: 'x-request-id' });
    app.ws('/rooms/{id:int}', {}, {
      open(socket, req) {
        socket.send({ id: req.pathParams.id, type: typeof req.pathParams.id, requestId: req.id, agent: req.headers.get('x-client') });
      },
    });
    const base = await serve(app);
    const client = await connect(`${base}/rooms/42`, { headers: { 'x-client': 'test-agent', 'x-request-id': 'abc-123' } });
    expect(await client.nextJson()).toEqual({ id: 42, type: 'number', requestId: 'abc-123', agent: 'test-agent' });
    expect(client.handshake.headers['x-request-id']).toBe('abc-123');
  });

  // An unknown path's 404 and a converter's 422 before any 101: websocket-own-server.test.ts, on
  // this server and on one of your own.

  it('answers a plain GET to a socket route 426 with Upgrade: websocket, and keeps HTTP routes serving', async () => {
    const app = new TernApp({ logger: false });
    app.ws('/live', {}, {});
    app.get('/health', async () => ({ ok: true }));
    const plain = await app.inject({ method: 'GET', url: '/live' });
    expect(plain.statusCode).toBe(426);
    expect(plain.headers.upgrade).toBe('websocket');
    expect(plain.json()).toMatchObject({ code: 'TERN_UPGRADE_REQUIRED' });
    expect((await app.inject('/health')).json()).toEqual({ ok: true });
  });

  it('runs app, router, group and route middleware on the upgrade; one that answers refuses it with its status', async () => {
    const seen: string[] = [];
    const mark = (name: string): Middleware => async (req, res, next) => {
      seen.push(name);
      if (req.headers.get('x-refuse') === name) return res.json({ refusedBy: name }, 418);
      return next();
    };
    const app = new TernApp({ logger: false });
    app.addMiddleware(mark('app'));
    const router = new Router({ prefix: '/r', middleware: [mark('router')] });
    router.addRoute(new Group({ path: '/g', middleware: [mark('group')], routes: [] }));
    const group = router.declarations[0] as Group;
    const socketRoute = new Router({ prefix: '' });
    socketRoute.ws('/s', { middleware: [mark('route')] }, { open: (socket) => socket.send('opened') });
    group.routes.push(...(socketRoute.declarations as never[]));
    app.mountRouter(router);
    const base = await serve(app);

    const client = await connect(`${base}/r/g/s`);
    expect(await client.next()).toBe('opened');
    expect(seen).toEqual(['app', 'router', 'group', 'route']);
    for (const name of ['app', 'router', 'group', 'route']) {
      const refusal = await refusedUpgrade(`${base}/r/g/s`, { headers: { 'x-refuse': name } });
      expect(refusal.status).toBe(418);
      expect(JSON.parse(refusal.body)).toEqual({ refusedBy: name });
    }
  });

  it('lets middleware after next() replace the 101 with a refusal', async () => {
    const app = new TernApp({ logger: false });
    app.addMiddleware(async (req, res, next) => {
      const response = await next();
      return req.queryParams.get('late') === '1' ? res.json({ late: true }, 409) : response;
    });
    app.ws('/s', {}, { open: (socket) => socket.send('in') });
    const base = await serve(app);
    expect((await refusedUpgrade(`${base}/s?late=1`)).status).toBe(409);
    expect(await (await connect(`${base}/s`)).next()).toBe('in');
  });

  it('enforces security before any 101: 401 without credentials, 403 without the role, req.user in open', async () => {
    const app = new TernApp({ logger: false });
    app.openapiConfig.addSecurityScheme('bearerAuth', new HTTPBearer());
    app.openapiConfig.addSecurityScheme(
      'oauth2',
      new OAuth2({ flows: { clientCredentials: { tokenUrl: 'https://auth.example.com/token', scopes: { chat: 'Chat' } } } }),
    );
    const users: Record<string, { name: string; scopes: string[] }> = { ada: { name: 'Ada', scopes: ['chat'] }, bob: { name: 'Bob', scopes: [] } };
    app.addMiddleware(
      enforceSecurity(app, {
        bearerAuth: async (token) => users[token],
        oauth2: async (token) => users[token],
      }),
    );
    app.ws('/private', { security: [{ bearerAuth: [] }] }, { open: (socket, req) => socket.send({ user: (req.user as { name: string }).name }) });
    app.ws('/chat', { security: [{ oauth2: ['chat'] }] }, { open: (socket) => socket.send('chatting') });
    const base = await serve(app);

    const anonymous = await refusedUpgrade(`${base}/private`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['www-authenticate']).toMatch(/^Bearer/);
    expect((await refusedUpgrade(`${base}/private`, { headers: { authorization: 'Bearer nobody' } })).status).toBe(401);
    const ada = await connect(`${base}/private`, { headers: { authorization: 'Bearer ada' } });
    expect(await ada.nextJson()).toEqual({ user: 'Ada' });

    expect((await refusedUpgrade(`${base}/chat`, { headers: { authorization: 'Bearer bob' } })).status).toBe(403);
    expect(await (await connect(`${base}/chat`, { headers: { authorization: 'Bearer ada' } })).next()).toBe('chatting');
  });

  it('inherits security, middleware and tags from its router and the app through the route options table', async () => {
    const app = new TernApp({ logger: false, security: [{ bearerAuth: [] }] });
    app.openapiConfig.addSecurityScheme('bearerAuth', new HTTPBearer());
    app.addMiddleware(enforceSecurity(app, { bearerAuth: async (token) => (token === 'ada' ? { name: 'Ada' } : null) }));
    const hits: string[] = [];
    const router = new Router({ prefix: '/live', tags: ['live'], middleware: [async (req, res, next) => (hits.push('router'), next())] });
    router.ws('/feed', { tags: ['feed'] }, { open: (socket) => socket.send('fed') });
    router.ws('/public', { security: [] }, { open: (socket) => socket.send('open to all') });
    app.mountRouter(router);
    const base = await serve(app);
    expect((await refusedUpgrade(`${base}/live/feed`)).status).toBe(401);
    expect(await (await connect(`${base}/live/feed`, { headers: { authorization: 'Bearer ada' } })).next()).toBe('fed');
    expect(await (await connect(`${base}/live/public`)).next()).toBe('open to all');
    expect(hits).toEqual(['router', 'router']);
    expect(app.getAllRoutes().map((route) => [route.rawPath, route.tags, route.security])).toEqual([
      ['/live/feed', ['live', 'feed'], [{ bearerAuth: [] }]],
      ['/live/public', ['live'], []],
    ]);
  });

  it('turns a middleware HTTPException into its status, through the exception handlers', async () => {
    const app = new TernApp({ logger: false });
    app.addExceptionHandler(451, async (req, res) => res.json({ handled: true }, 451));
    app.ws('/s', { middleware: [async () => Promise.reject(new HTTPException(451, 'no'))] }, {});
    const base = await serve(app);
    const refusal = await refusedUpgrade(`${base}/s`);
    expect(refusal.status).toBe(451);
    expect(JSON.parse(refusal.body)).toEqual({ handled: true });
  });

  it('reports the upgrade to onResponse hooks as a 101 on its route, and refusals with their status', async () => {
    const app = new TernApp({ logger: false });
    const seen: Array<[number, string | undefined]> = [];
    app.onResponse((req, res, info) => void seen.push([info.statusCode, info.route?.rawPath]));
    app.ws('/s', {}, {});
    const base = await serve(app);
    const client = await connect(`${base}/s`);
    await refusedUpgrade(`${base}/missing`);
    client.ws.close();
    await until(() => seen.length === 2);
    expect(seen).toEqual([
      [101, '/s'],
      [404, undefined],
    ]);
  });

  it('refuses a malformed handshake with 400 and an HTTP request with Upgrade to an HTTP route is served as plain HTTP', async () => {
    const app = new TernApp({ logger: false });
    app.ws('/s', {}, {});
    app.get('/plain', async () => ({ plain: true }));
    const base = await serve(app);
    const port = Number(new URL(base.replace(/^ws/, 'http')).port);
    const badKey = await rawRequest(port, 'GET /s HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: short\r\n\r\n');
    expect(statusOf(badKey)).toBe(400);
    expect(bodyOf(badKey)).toContain('TERN_BAD_HANDSHAKE');
    const plain = await rawRequest(port, 'GET /plain HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n');
    expect(statusOf(plain)).toBe(200);
    expect(bodyOf(plain)).toBe('{"plain":true}');
  });
});

describe('socket route declarations', () => {
  it('refuses socket-only options on HTTP routes at ready()', async () => {
    const app = new TernApp({ logger: false });
    app.get('/x', { maxPayload: 10 } as never, async () => ({}));
    await expect(app.ready()).rejects.toMatchObject({ code: 'TERN_INVALID_ROUTE_OPTION', message: expect.stringContaining('maxPayload is an option of socket routes') });
  });

  it('refuses handlers that are not functions when declared', () => {
    const app = new TernApp({ logger: false });
    expect(() => app.ws('/x', {}, { open: 'nope' } as never)).toThrow(expect.objectContaining({ code: 'TERN_INVALID_HANDLER' }));
  });

  it('lists socket routes with websocket: true and keeps them out of the OpenAPI document', async () => {
    const app = new TernApp({ logger: false });
    app.ws('/live', { summary: 'Live feed' }, {});
    app.get('/items', async () => []);
    expect(app.getAllRoutes().map((r) => [r.rawPath, r.websocket])).toEqual([
      ['/live', true],
      ['/items', false],
    ]);
    const document = (await app.inject('/openapi.json')).json() as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths)).toEqual(['/items']);
  });
});
