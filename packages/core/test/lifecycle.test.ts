/**
 * Lifecycle for process managers and observability: a bounded `close()`, `onClose` hooks,
 * `req.signal` and `onResponse` hooks. Real sockets where disconnects and shutdown matter.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Group, HTTPException, TernApp } from '@tern/core';
import type { ResponseInfo } from '../src/pipeline/observe';
import { listenOnFreePort } from '../../../test-support/raw-http';

/** Resolves to what `promise` gives, or to 'pending' if it has not settled within `ms`. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | 'pending'> {
  let timer!: NodeJS.Timeout;
  const pending = new Promise<'pending'>((resolve) => (timer = setTimeout(resolve, ms, 'pending')));
  return Promise.race([promise, pending]).finally(() => clearTimeout(timer));
}

/** Waits (bounded) until `check` holds. */
async function until(check: () => boolean, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await sleep(5);
}

/** A raw client: sends `request`, collects what comes back, and tells when the server closed it. */
function client(port: number, request: string): { socket: Socket; received: () => string; closed: Promise<void> } {
  const socket = connect(port, '127.0.0.1');
  let data = '';
  socket.on('data', (chunk: Buffer) => (data += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(request);
  return { socket, received: () => data, closed };
}

/** Settles when the signal aborts, with its reason. */
function aborted(signal: AbortSignal): Promise<unknown> {
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(signal.reason), { once: true }));
}

describe('close() with a closeTimeout', () => {
  // An outside review saw close() never resolve while a client read a server-sent-events stream
  // written on res.raw: Node's server.close() waits for every connection to end.
  it('resolves after the timeout while a handler streams on res.raw for ever, and closes the client connection', async () => {
    const app = new TernApp({ logger: false, server: { closeTimeout: 300 } });
    let ticker: NodeJS.Timeout | undefined;
    app.get('/events', async (req, res) => {
      res.raw.writeHead(200, { 'content-type': 'text/event-stream' });
      ticker = setInterval(() => res.raw.write('data: tick\n\n'), 10);
      res.raw.once('close', () => clearInterval(ticker));
      return res;
    });
    const port = await listenOnFreePort(app);
    const reader = client(port, 'GET /events HTTP/1.1\r\nHost: t\r\n\r\n');
    try {
      await until(() => reader.received().includes('data: tick'));
      expect(reader.received()).toContain('data: tick');

      await expect(within(app.close(), 5_000)).resolves.toBeUndefined();
      await expect(within(reader.closed, 2_000)).resolves.toBeUndefined();
      expect(app.server).toBeUndefined();
    } finally {
      clearInterval(ticker);
      reader.socket.destroy();
    }
  });

  // Infinity and values past setTimeout's range (which it would run after 1 ms) never cut.
  it.each([5_000, Infinity, 2 ** 32])('still lets a slow response finish when it ends within the timeout (%s)', async (closeTimeout) => {
    const app = new TernApp({ logger: false, server: { closeTimeout } });
    app.get('/slow', async () => {
      await sleep(150);
      return { slow: true };
    });
    const port = await listenOnFreePort(app);
    const reader = client(port, 'GET /slow HTTP/1.1\r\nHost: t\r\n\r\n');
    await sleep(50);
    await app.close();
    await within(reader.closed, 2_000);
    expect(reader.received()).toMatch(/^HTTP\/1.1 200 OK/);
    expect(reader.received()).toContain('{"slow":true}');
  });

  it('refuses a negative or fractional closeTimeout', () => {
    expect(() => new TernApp({ server: { closeTimeout: -1 } })).toThrow(expect.objectContaining({ code: 'TERN_INVALID_LIMIT' }));
    expect(() => new TernApp({ server: { closeTimeout: 1.5 } })).toThrow(RangeError);
    expect(() => new TernApp({ server: { closeTimeout: Infinity } })).not.toThrow();
  });
});

describe('req.signal', () => {
  it('aborts when the client disconnects before the response is complete', async () => {
    const app = new TernApp({ logger: false });
    let seen: Promise<unknown> | undefined;
    app.get('/long', async (req) => {
      seen = aborted(req.signal);
      await within(seen, 5_000);
      return { done: true };
    });
    const port = await listenOnFreePort(app);
    try {
      const reader = client(port, 'GET /long HTTP/1.1\r\nHost: t\r\n\r\n');
      await until(() => seen !== undefined);
      reader.socket.destroy();
      const reason = await within(seen!, 3_000);
      expect(reason).toMatchObject({ name: 'AbortError', message: expect.stringContaining('client closed the connection') });
    } finally {
      await app.close();
    }
  });

  it('aborts when close() reaches its timeout', async () => {
    const app = new TernApp({ logger: false, server: { closeTimeout: 200 } });
    let seen: Promise<unknown> | undefined;
    app.get('/long', async (req) => {
      seen = aborted(req.signal);
      await within(seen, 5_000);
      return { done: true };
    });
    const port = await listenOnFreePort(app);
    const reader = client(port, 'GET /long HTTP/1.1\r\nHost: t\r\n\r\n');
    try {
      await until(() => seen !== undefined);
      await expect(within(app.close(), 5_000)).resolves.toBeUndefined();
      const reason = await within(seen!, 1_000);
      expect(reason).toMatchObject({ name: 'AbortError', message: expect.stringContaining('close timeout') });
      await within(reader.closed, 1_000);
      expect(reader.received()).toBe(''); // cut, never a half answer
    } finally {
      reader.socket.destroy();
    }
  });

  it('does not report a handler that gave up through it as a failure', async () => {
    const logger = { error: jest.fn() };
    const app = new TernApp({ logger });
    let state = 'idle';
    app.get('/long', async (req) => {
      state = 'waiting';
      try {
        await sleep(5_000, undefined, { signal: req.signal });
        return { done: true };
      } finally {
        state = 'settled';
      }
    });
    const port = await listenOnFreePort(app);
    try {
      const reader = client(port, 'GET /long HTTP/1.1\r\nHost: t\r\n\r\n');
      await until(() => state === 'waiting');
      reader.socket.destroy();
      await until(() => state === 'settled');
      await new Promise((resolve) => setImmediate(resolve));
      expect(state).toBe('settled');
      expect(logger.error).not.toHaveBeenCalled();
    } finally {
      await app.close();
    }
  });

  it('stays unaborted for a request answered in full', async () => {
    const app = new TernApp({ logger: false });
    const signals: AbortSignal[] = [];
    app.get('/quick', async (req) => {
      signals.push(req.signal);
      return { ok: req.signal.aborted === false && req.signal === req.signal };
    });
    const port = await listenOnFreePort(app);
    try {
      const reader = client(port, 'GET /quick HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n');
      await within(reader.closed, 2_000);
      expect(reader.received()).toContain('{"ok":true}');
      expect(signals[0].aborted).toBe(false);
      expect((await app.inject('/quick')).json()).toEqual({ ok: true });
      expect(signals[1].aborted).toBe(false);
    } finally {
      await app.close();
    }
  });
});

describe('app.onClose', () => {
  it('runs hooks last registered first, after in-flight requests finished, and resolves after them', async () => {
    const events: string[] = [];
    const logger = { error: jest.fn() };
    const app = new TernApp({ logger });
    app.get('/slow', async () => {
      await sleep(100);
      events.push('response');
      return { slow: true };
    });
    app.onClose(async () => {
      await sleep(20);
      events.push('first registered');
    });
    app.onClose(() => {
      throw new Error('hook failed');
    });
    app.onClose(() => {
      events.push('last registered');
    });
    const port = await listenOnFreePort(app);
    const reader = client(port, 'GET /slow HTTP/1.1\r\nHost: t\r\n\r\n');
    await sleep(30);
    await app.close();
    expect(events).toEqual(['response', 'last registered', 'first registered']);
    expect(logger.error).toHaveBeenCalledWith('[tern] an onClose hook failed:', expect.objectContaining({ message: 'hook failed' }));
    await within(reader.closed, 1_000);
    expect(reader.received()).toContain('{"slow":true}');
  });

  it('runs the hooks of an app that never listened, once', async () => {
    const app = new TernApp({ logger: false });
    const hook = jest.fn();
    app.onClose(hook);
    await app.close();
    await app.close();
    expect(hook).toHaveBeenCalledTimes(1);
  });

  it('runs after the close timeout cut a connection', async () => {
    const app = new TernApp({ logger: false, server: { closeTimeout: 100 } });
    let signal: AbortSignal | undefined;
    app.get('/never', async (req) => {
      signal = req.signal;
      await within(aborted(req.signal), 5_000);
      return { ok: true };
    });
    const seenAtHook: Array<boolean | undefined> = [];
    app.onClose(() => void seenAtHook.push(signal?.aborted));
    const port = await listenOnFreePort(app);
    const reader = client(port, 'GET /never HTTP/1.1\r\nHost: t\r\n\r\n');
    try {
      await until(() => signal !== undefined);
      await expect(within(app.close(), 5_000)).resolves.toBeUndefined();
      expect(seenAtHook).toEqual([true]);
    } finally {
      reader.socket.destroy();
    }
  });

  it('rejects a hook that is not a function', () => {
    expect(() => new TernApp().onClose('nope' as never)).toThrow(TypeError);
  });
});

describe('app.onResponse', () => {
  function observedApp(logger: { error: jest.Mock } | false = false) {
    const infos: ResponseInfo[] = [];
    const app = new TernApp({ logger });
    app.get('/users/{id:int}', { name: 'user' }, async (req, res, { id }) => ({ id }));
    app.get('/boom', async () => {
      throw new Error('boom');
    });
    app.get('/teapot', async () => {
      throw new HTTPException(418);
    });
    app.addRoute(new Group({ path: '/legacy', app: (_req: IncomingMessage, res: ServerResponse) => res.writeHead(202).end('legacy') }));
    app.onResponse((req, res, info) => void infos.push({ ...info, route: info.route }));
    return { app, infos };
  }

  it('reports every response: routes, errors, 404s and mounted apps', async () => {
    const { app, infos } = observedApp();
    await app.inject('/users/7');
    await app.inject('/missing');
    await app.inject('/boom');
    await app.inject('/teapot');
    await app.inject('/legacy/x');
    await until(() => infos.length === 5);
    expect(infos.map(({ statusCode, aborted: cut, route }) => ({ statusCode, aborted: cut, route: route?.rawPath }))).toEqual([
      { statusCode: 200, aborted: false, route: '/users/{id:int}' },
      { statusCode: 404, aborted: false, route: undefined },
      { statusCode: 500, aborted: false, route: '/boom' },
      { statusCode: 418, aborted: false, route: '/teapot' },
      { statusCode: 202, aborted: false, route: '/legacy/{path:path}' },
    ]);
    expect(infos[0].route?.name).toBe('user');
    for (const info of infos) expect(info.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('marks a response the client walked away from as aborted', async () => {
    const infos: ResponseInfo[] = [];
    const app = new TernApp({ logger: false });
    let started = false;
    app.get('/long', async (req) => {
      started = true;
      await within(aborted(req.signal), 5_000);
      return { late: true };
    });
    app.onResponse((_req, _res, info) => void infos.push(info));
    const port = await listenOnFreePort(app);
    try {
      const reader = client(port, 'GET /long HTTP/1.1\r\nHost: t\r\n\r\n');
      await until(() => started);
      reader.socket.destroy();
      await until(() => infos.length === 1);
      expect(infos).toEqual([expect.objectContaining({ aborted: true, statusCode: 0, route: expect.objectContaining({ rawPath: '/long' }) })]);
    } finally {
      await app.close();
    }
  });

  it('reports a throwing or rejecting hook and still runs the others', async () => {
    const logger = { error: jest.fn() };
    const { app, infos } = observedApp(logger);
    const second: number[] = [];
    app.onResponse(() => {
      throw new Error('sync hook');
    });
    app.onResponse(async () => {
      throw new Error('async hook');
    });
    app.onResponse((_req, _res, info) => void second.push(info.statusCode));
    const response = await app.inject('/users/1');
    expect(response.statusCode).toBe(200);
    await until(() => second.length === 1 && logger.error.mock.calls.length === 2);
    expect(infos).toHaveLength(1);
    expect(second).toEqual([200]);
    expect(logger.error.mock.calls.map(([, err]) => (err as Error).message).sort()).toEqual(['async hook', 'sync hook']);
  });

  it('must be declared before ready()', async () => {
    const app = new TernApp();
    await app.ready();
    expect(() => app.onResponse(() => undefined)).toThrow(expect.objectContaining({ code: 'TERN_APP_ALREADY_READY' }));
  });
});
