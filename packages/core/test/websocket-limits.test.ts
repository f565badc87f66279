import { TernApp, type TernSocket } from '@tern/core';
import { connect, refusedUpgrade, servedSockets } from '../../../test-support/ws-client';

const serve = servedSockets();

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
}

const silent = { error: () => undefined };

describe('socket limits, on by default', () => {
  it('closes a socket sending a frame over maxPayload with 1009 (app default and a route of its own)', async () => {
    const app = new TernApp({ logger: false, websocket: { maxPayload: 1024 } });
    app.ws('/small', {}, { message: (socket, data) => socket.send(data) });
    app.ws('/large', { maxPayload: 8192 }, { message: (socket, data) => socket.send(String(data).length) });
    const base = await serve(app);
    const small = await connect(`${base}/small`);
    small.ws.send('x'.repeat(1024));
    expect(await small.next()).toBe('x'.repeat(1024));
    small.ws.send('x'.repeat(1025));
    expect((await small.closed).code).toBe(1009);
    const large = await connect(`${base}/large`);
    large.ws.send('x'.repeat(4000));
    expect(await large.next()).toBe('4000');
  });

  it('has a 64 KiB maxPayload when the app sets none', async () => {
    const app = new TernApp({ logger: false });
    app.ws('/s', {}, { message: (socket) => socket.send('ok') });
    const base = await serve(app);
    const client = await connect(`${base}/s`);
    client.ws.send(Buffer.alloc(64 * 1024));
    expect(await client.next()).toBe('ok');
    client.ws.send(Buffer.alloc(64 * 1024 + 1));
    expect((await client.closed).code).toBe(1009);
  });

  it('closes a socket whose handler throws with 1011 and no error text; the error is reported; others live on', async () => {
    const reported: unknown[] = [];
    const app = new TernApp({ logger: { error: (...args: unknown[]) => void reported.push(args) } });
    app.ws('/s', {}, {
      message(socket, data) {
        if (data === 'boom') throw new Error('secret internals');
        if (data === 'reject') return Promise.reject(new Error('async secret'));
        socket.send(`echo ${String(data)}`);
        return undefined;
      },
    });
    app.ws('/bad-open', {}, { open: () => Promise.reject(new Error('open failed')) });
    const base = await serve(app);
    const [a, b, c] = await Promise.all([connect(`${base}/s`), connect(`${base}/s`), connect(`${base}/s`)]);
    a.ws.send('boom');
    expect(await a.closed).toEqual({ code: 1011, reason: '' });
    b.ws.send('reject');
    expect(await b.closed).toEqual({ code: 1011, reason: '' });
    c.ws.send('still here');
    expect(await c.next()).toBe('echo still here');
    const d = await connect(`${base}/bad-open`);
    expect(await d.closed).toEqual({ code: 1011, reason: '' });
    expect(JSON.stringify(reported.map((r) => String((r as unknown[])[(r as unknown[]).length - 1])))).toContain('secret internals');
  });

  it('app.close() closes every socket with 1001, runs their close handlers and resolves within the close timeout', async () => {
    const closes: number[] = [];
    const app = new TernApp({ logger: false, server: { closeTimeout: 5_000 } });
    app.ws('/s', {}, { close: (socket, code) => void closes.push(code) });
    const base = await serve(app);
    const clients = await Promise.all([1, 2, 3].map(() => connect(`${base}/s`)));
    await app.close();
    for (const client of clients) expect((await client.closed).code).toBe(1001);
    expect(closes).toEqual([1001, 1001, 1001]);
  });

  it('app.close() resolves within the close timeout even when a client never answers the close frame', async () => {
    const app = new TernApp({ logger: false, server: { closeTimeout: 300 } });
    app.ws('/s', {}, {});
    const base = await serve(app);
    const client = await connect(`${base}/s`);
    // The client stops reading: it never sees the close frame, never answers it.
    (client.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    await app.close();
    expect(app.server).toBeUndefined();
  });

  it('refuses upgrades past maxConnections with 503 (before any 101) and takes them again once a socket closed', async () => {
    const app = new TernApp({ logger: false, websocket: { maxConnections: 2 } });
    app.ws('/s', {}, {});
    const base = await serve(app);
    const first = await connect(`${base}/s`);
    await connect(`${base}/s`);
    const refusal = await refusedUpgrade(`${base}/s`);
    expect(refusal.status).toBe(503);
    expect(refusal.headers['retry-after']).toBe('5');
    expect(JSON.parse(refusal.body)).toMatchObject({ code: 'TERN_SOCKETS_UNAVAILABLE' });
    first.ws.close();
    await first.closed;
    let again: Awaited<ReturnType<typeof connect>> | undefined;
    for (let i = 0; i < 50 && !again; i++) again = await connect(`${base}/s`).catch(() => undefined);
    expect(again).toBeDefined();
  });

  it('pings sockets and cuts one that stays silent past the idle timeout; one that answers pings stays', async () => {
    const app = new TernApp({ logger: false, websocket: { idleTimeout: 200 } });
    let closedOnServer = 0;
    app.ws('/s', {}, { close: () => void closedOnServer++ });
    const base = await serve(app);
    const dead = await connect(`${base}/s`, { autoPong: false });
    const alive = await connect(`${base}/s`);
    let pings = 0;
    alive.ws.on('ping', () => pings++);
    expect((await dead.closed).code).toBe(1006);
    await until(() => pings >= 3);
    expect(alive.ws.readyState).toBe(alive.ws.OPEN);
    expect(closedOnServer).toBe(1);
  });

  it('cuts a slow reader once its send buffer passes sendBufferLimit instead of buffering without limit', async () => {
    const app = new TernApp({ logger: false, websocket: { sendBufferLimit: 256 * 1024 } });
    let server: TernSocket | undefined;
    const closed: number[] = [];
    app.ws('/s', {}, { open: (socket) => void (server = socket), close: (socket, code) => void closed.push(code) });
    const base = await serve(app);
    const client = await connect(`${base}/s`);
    // The client stops reading; the server keeps sending.
    (client.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    await until(() => server !== undefined);
    const chunk = Buffer.alloc(64 * 1024);
    for (let i = 0; i < 2000 && closed.length === 0; i++) {
      server?.send(chunk);
      await new Promise((resolve) => setImmediate(resolve));
    }
    await until(() => closed.length > 0);
    expect(closed).toEqual([1006]);
  });
});

describe('messages of a socket', () => {
  it('are handled one at a time, in order, even when the handler is async', async () => {
    const app = new TernApp({ logger: false });
    let running = 0;
    let most = 0;
    app.ws('/s', {}, {
      async message(socket, data) {
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, Number(data) % 3));
        running--;
        socket.send(data);
      },
    });
    const base = await serve(app);
    const client = await connect(`${base}/s`);
    for (let i = 0; i < 50; i++) client.ws.send(String(i));
    const got: string[] = [];
    for (let i = 0; i < 50; i++) got.push(String(await client.next()));
    expect(got).toEqual(Array.from({ length: 50 }, (_, i) => String(i)));
    expect(most).toBe(1);
  });

  it('wait for open to finish before the first message is handled', async () => {
    const app = new TernApp({ logger: false });
    app.ws('/s', {}, {
      async open(socket) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        socket.send('opened');
      },
      message: (socket, data) => socket.send(data),
    });
    const base = await serve(app);
    const client = await connect(`${base}/s`);
    client.ws.send('first');
    expect(await client.next()).toBe('opened');
    expect(await client.next()).toBe('first');
  });

  it('close a socket flooding small frames faster than its busy handler takes them (1008), leaving others alone', async () => {
    const app = new TernApp({ logger: silent as never, websocket: { maxQueuedMessages: 64 } });
    app.ws('/s', {}, { message: () => new Promise((resolve) => setTimeout(resolve, 20)) });
    app.ws('/echo', {}, { message: (socket, data) => socket.send(data) });
    const base = await serve(app);
    const flooder = await connect(`${base}/s`);
    const bystander = await connect(`${base}/echo`);
    // Many tiny frames in one write: they reach the server together, past what may wait.
    const frames = Buffer.concat(Array.from({ length: 5000 }, () => Buffer.from([0x81, 0x81, 1, 2, 3, 4, 0x61 ^ 1])));
    (flooder.ws as unknown as { _socket: { write(b: Buffer): void } })._socket.write(frames);
    expect((await flooder.closed).code).toBe(1008);
    bystander.ws.send('fine');
    expect(await bystander.next()).toBe('fine');
  });
});
