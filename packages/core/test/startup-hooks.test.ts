/**
 * `app.onStartup(hook)`: async work `ready()` waits for before the first request (a database
 * opened, migrations run), in order; a failure fails `ready()`/`listen()` naming the hook, and
 * `onClose` releases what the hooks opened.
 */
import { TernApp, TernError } from '@tern/core';
import { setTimeout as sleep } from 'node:timers/promises';

describe('app.onStartup', () => {
  it('runs the hooks in order, one after the other, before the first request is answered', async () => {
    const events: string[] = [];
    const app = new TernApp();
    let connected = false;
    app.get('/ping', async () => ({ connected }));
    app.onStartup(async () => {
      await sleep(20);
      events.push('connect');
      connected = true;
    });
    app.onStartup(() => {
      events.push(`migrate (connected: ${connected})`);
    });
    const response = await app.inject('/ping');
    expect(events).toEqual(['connect', 'migrate (connected: true)']);
    expect(response.json()).toEqual({ connected: true });
  });

  it('runs them once, however often ready() is called', async () => {
    const app = new TernApp();
    const hook = jest.fn();
    app.onStartup(hook);
    await Promise.all([app.ready(), app.ready(), app.inject('/')]);
    await app.ready();
    expect(hook).toHaveBeenCalledTimes(1);
  });

  it('fails ready() with TERN_STARTUP_FAILED naming the hook, and runs none after it', async () => {
    const app = new TernApp();
    const later = jest.fn();
    app.onStartup(async function openDatabase() {});
    app.onStartup(async function migrate() {
      throw new Error('relation "users" already exists');
    });
    app.onStartup(later);
    const failure = await app.ready().catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(TernError);
    expect(failure).toMatchObject({
      code: 'TERN_STARTUP_FAILED',
      message: `onStartup hook 'migrate' (#2) failed: relation "users" already exists`,
      cause: expect.objectContaining({ message: 'relation "users" already exists' }),
    });
    expect(later).not.toHaveBeenCalled();
  });

  it('names an anonymous hook by its position, and a non-Error rejection by its value', async () => {
    const app = new TernApp();
    app.onStartup(() => Promise.reject('no connection'));
    await expect(app.ready()).rejects.toThrow('onStartup hook #1 failed: no connection');
  });

  it('fails listen() too, and serves nothing: no server is left listening', async () => {
    const app = new TernApp();
    app.onStartup(async function connect() {
      throw new Error('ECONNREFUSED 127.0.0.1:5432');
    });
    await expect(app.listen({ port: 0 })).rejects.toThrow("onStartup hook 'connect' (#1) failed: ECONNREFUSED 127.0.0.1:5432");
    expect(app.server).toBeUndefined();
  });

  it('a failed start still lets close() run the onClose hooks that release what earlier hooks opened', async () => {
    const app = new TernApp();
    const pool = { open: false };
    app.onStartup(() => {
      pool.open = true;
    });
    app.onClose(() => {
      pool.open = false;
    });
    app.onStartup(() => {
      throw new Error('migration failed');
    });
    await expect(app.ready()).rejects.toMatchObject({ code: 'TERN_STARTUP_FAILED' });
    expect(pool.open).toBe(true);
    await app.close();
    expect(pool.open).toBe(false);
  });

  it('refuses a hook that is not a function, and a hook added after ready()', async () => {
    const app = new TernApp();
    expect(() => app.onStartup('connect' as never)).toThrow(expect.objectContaining({ code: 'TERN_INVALID_HANDLER' }));
    await app.ready();
    expect(() => app.onStartup(() => undefined)).toThrow(expect.objectContaining({ code: 'TERN_APP_ALREADY_READY' }));
  });
});

describe('app.onClose names a failing hook', () => {
  it('reports it by its function name', async () => {
    const logger = { error: jest.fn(), warn: jest.fn() };
    const app = new TernApp({ logger });
    app.onClose(function closePool() {
      throw new Error('already closed');
    });
    await app.close();
    expect(logger.error).toHaveBeenCalledWith("[tern] the onClose hook 'closePool' failed:", expect.objectContaining({ message: 'already closed' }));
  });
});
