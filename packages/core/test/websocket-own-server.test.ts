/**
 * `app.upgradeHandler` on a server the user makes (`http.createServer(app.handler)`): the app's
 * sockets served exactly as on the server `app.listen()` starts, and closed by `app.close()`.
 */
import { createServer, get, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { enforceSecurity, HTTPBearer, TernApp } from '@tern/core';
import { bodyOf, rawExchange, statusOf } from '../../../test-support/raw-http';
import { within } from '../../../test-support/within';
import { connect, refusedUpgrade } from '../../../test-support/ws-client';

/** Generous: only what never happens meets it. */
const MINUTE = 60_000;

const apps: TernApp[] = [];
const servers: Server[] = [];

/** Serves `app` on a server of its own, as a user would, and answers its `ws://` address. */
async function ownServer(app: TernApp): Promise<string> {
  apps.push(app);
  const server = createServer(app.handler);
  server.on('upgrade', app.upgradeHandler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function portOf(base: string): number {
  return Number(new URL(base).port);
}

afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

const UPGRADE_HEADERS = 'Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n';

describe('app.upgradeHandler: sockets on a server of your own', () => {
  it('echoes frames, with request ids, onResponse hooks and the HTTP routes on the same server', async () => {
    const seen: Array<[number, string | undefined]> = [];
    const app = new TernApp({ logger: false, requestIdHeader: 'x-request-id' });
    app.onResponse((req, res, info) => void seen.push([info.statusCode, info.route?.rawPath]));
    app.ws('/echo/{room:int}', {}, {
      open: (socket, req) => socket.send({ room: req.pathParams.room, id: req.id }),
      message: (socket, data) => socket.send(data),
    });
    app.get('/health', async () => ({ ok: true }));
    const base = await ownServer(app);

    const client = await connect(`${base}/echo/7`, { headers: { 'x-request-id': 'own-1' } });
    expect(client.handshake.headers['x-request-id']).toBe('own-1');
    expect(await client.nextJson()).toEqual({ room: 7, id: 'own-1' });
    client.ws.send('hello');
    expect(await client.next()).toBe('hello');
    client.ws.send(Buffer.from([1, 2, 3]));
    expect(await client.next()).toEqual(Buffer.from([1, 2, 3]));
    client.ws.close(1000, 'bye');
    expect(await client.closed).toEqual({ code: 1000, reason: 'bye' });

    const health = await rawExchange(portOf(base), 'GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(bodyOf(health.data)).toBe('{"ok":true}');
    expect(seen).toEqual([
      [101, '/echo/{room:int}'],
      [200, '/health'],
    ]);
  });

  it('runs enforceSecurity before any 101: 401 without credentials, req.user in open with them', async () => {
    const app = new TernApp({ logger: false });
    app.openapiConfig.addSecurityScheme('bearerAuth', new HTTPBearer());
    app.addMiddleware(enforceSecurity(app, { bearerAuth: async (token) => (token === 'ada' ? { name: 'Ada' } : null) }));
    let opened = 0;
    app.ws('/private', { security: [{ bearerAuth: [] }] }, {
      open(socket, req) {
        opened++;
        socket.send({ user: (req.user as { name: string }).name });
      },
    });
    const base = await ownServer(app);

    const anonymous = await refusedUpgrade(`${base}/private`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(opened).toBe(0);
    const ada = await connect(`${base}/private`, { headers: { authorization: 'Bearer ada' } });
    expect(await ada.nextJson()).toEqual({ user: 'Ada' });
  });

  /** The server `app.listen()` starts, for the behaviours that must be the same on both. */
  async function listened(app: TernApp): Promise<string> {
    apps.push(app);
    return (await app.listen({ port: 0 })).replace(/^http/, 'ws');
  }

  it.each([
    ['app.listen()', listened],
    ['a server of your own', ownServer],
  ])("on %s, answers an unknown path 404 and a converter's refusal 422 as problems before any 101, then closes the connection", async (_server, serve) => {
    const app = new TernApp({ logger: false });
    app.ws('/rooms/{id:int}', {}, {});
    const base = await serve(app);
    const missing = await refusedUpgrade(`${base}/nowhere`);
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body)).toMatchObject({ status: 404, code: 'TERN_NOT_FOUND' });
    const invalid = await refusedUpgrade(`${base}/rooms/abc`);
    expect(invalid.status).toBe(422);
    expect(JSON.parse(invalid.body)).toMatchObject({ code: 'TERN_INVALID_PATH_PARAM' });
    const raw = await rawExchange(portOf(base), `GET /nowhere HTTP/1.1\r\nHost: x\r\n${UPGRADE_HEADERS}\r\n`);
    expect(statusOf(raw.data)).toBe(404);
    expect(raw.closedByServer).toBe(true);
  });

  it('reaches sockets through rooms and keeps the limits (maxPayload)', async () => {
    const app = new TernApp({ logger: false, websocket: { maxPayload: 1024 } });
    app.ws('/rooms/{id:int}', {}, {
      async open(socket, req) {
        await socket.join(`room:${req.pathParams.id}`);
        socket.send('joined');
      },
    });
    app.post('/rooms/{id:int}/notices', async (req) => {
      await app.publish(`room:${req.pathParams.id}`, { notice: 'hello' });
      return { sent: true };
    });
    const base = await ownServer(app);
    const [seven, eight] = await Promise.all([connect(`${base}/rooms/7`), connect(`${base}/rooms/8`)]);
    expect([await seven.next(), await eight.next()]).toEqual(['joined', 'joined']);
    const posted = await rawExchange(portOf(base), 'POST /rooms/7/notices HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    expect(statusOf(posted.data)).toBe(200);
    expect(await seven.nextJson()).toEqual({ notice: 'hello' });
    eight.ws.send('x'.repeat(1025));
    expect((await eight.closed).code).toBe(1009);
  });

  it('readies the app on its first upgrade when ready() was never awaited', async () => {
    const app = new TernApp({ logger: false });
    let started = 0;
    app.onStartup(async () => void started++);
    app.ws('/s', {}, { open: (socket) => socket.send('ready') });
    const base = await ownServer(app);
    expect(started).toBe(0);
    const client = await connect(`${base}/s`);
    expect(await client.next()).toBe('ready');
    expect(started).toBe(1);
  });

  it('answers 500 on the connection and ends it when startup fails; the error is reported, the process lives', async () => {
    const reported: unknown[] = [];
    const app = new TernApp({ logger: { error: (...args: unknown[]) => void reported.push(args) } });
    app.onStartup(async function migrate() {
      throw new Error('database down');
    });
    app.ws('/s', {}, {});
    const base = await ownServer(app);
    const first = await rawExchange(portOf(base), `GET /s HTTP/1.1\r\nHost: x\r\n${UPGRADE_HEADERS}\r\n`);
    expect(statusOf(first.data)).toBe(500);
    expect(first.closedByServer).toBe(true);
    expect((await refusedUpgrade(`${base}/s`)).status).toBe(500);
    expect(JSON.stringify(reported.map(String))).toContain('database down');
  });

  it('app.close() closes its sockets with 1001, runs their close handlers, and the server can then close', async () => {
    const closes: number[] = [];
    const app = new TernApp({ logger: false, server: { closeTimeout: 5_000 } });
    app.ws('/s', {}, { close: (socket, code) => void closes.push(code) });
    const base = await ownServer(app);
    const clients = await Promise.all([1, 2, 3].map(() => connect(`${base}/s`)));
    await within('app.close()', app.close(), MINUTE);
    expect(closes).toEqual([1001, 1001, 1001]);
    for (const client of clients) expect((await within('the close frame', client.closed, MINUTE)).code).toBe(1001);
    // Tern started no server and stopped none; with the sockets gone, the user's closes at once.
    expect(app.server).toBeUndefined();
    const server = servers[0];
    expect(server.listening).toBe(true);
    await within("the user's server.close()", new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))), MINUTE);
  });

  it('app.close() cuts a socket that never answers the close frame once the close timeout ran out', async () => {
    const closes: number[] = [];
    const app = new TernApp({ logger: false, server: { closeTimeout: 300 } });
    app.ws('/s', {}, { close: (socket, code) => void closes.push(code) });
    const base = await ownServer(app);
    const client = await connect(`${base}/s`);
    // The client stops reading: it never sees the close frame, never answers it. Without the cut,
    // ws's own closing timer (30 s) would be what ends it; 20 s is a generous bound for 300 ms.
    (client.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    try {
      await within('app.close()', app.close(), 20_000);
      expect(closes).toEqual([1006]);
    } finally {
      client.ws.terminate();
    }
  });

  it('app.close() ends an event stream served through app.handler on the same server', async () => {
    const app = new TernApp({ logger: false });
    app.ws('/s', {}, {});
    app.get('/events', async (req, res) =>
      res.sse(
        (async function* () {
          yield 'first';
          await new Promise(() => undefined);
        })(),
      ),
    );
    const base = await ownServer(app);
    const response = await new Promise<IncomingMessage>((resolve) => get(`http://127.0.0.1:${portOf(base)}/events`, resolve));
    let body = '';
    response.setEncoding('utf8');
    const ended = new Promise<void>((resolve) => response.on('end', resolve));
    await new Promise<void>((resolve) => response.on('data', (chunk: string) => ((body += chunk), resolve())));
    expect(body).toBe('data: first\n\n');
    await app.close();
    await within('the end of the event stream', ended, MINUTE);
  });
});

describe('app.upgradeHandler on an app without socket routes', () => {
  it('serves an upgrade request through the pipeline as plain HTTP, then closes the connection', async () => {
    const app = new TernApp({ logger: false, requestIdHeader: 'x-request-id' });
    app.get('/plain', async () => ({ plain: true }));
    const base = await ownServer(app);
    const plain = await rawExchange(portOf(base), `GET /plain HTTP/1.1\r\nHost: x\r\nX-Request-Id: up-1\r\n${UPGRADE_HEADERS}\r\n`);
    expect(statusOf(plain.data)).toBe(200);
    expect(plain.data).toMatch(/\r\nx-request-id: up-1\r\n/i);
    expect(plain.data).toMatch(/\r\nconnection: close\r\n/i);
    expect(bodyOf(plain.data)).toBe('{"plain":true}');
    expect(plain.closedByServer).toBe(true);
    const missing = await refusedUpgrade(`${base}/nowhere`);
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body)).toMatchObject({ code: 'TERN_NOT_FOUND' });
  });
});
