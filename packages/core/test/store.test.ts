/**
 * The store contract, run against both stores: `memoryStore()` always, `redisStore()` on the
 * real Redis `.ci/run` starts (REDIS_TEST_URL). Counters, values with a TTL, delete, and
 * publish/subscribe must behave the same, so a feature built on one works on the other.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { memoryStore, redisStore, TernError, type TernStore } from '../src';

const redisUrl = process.env.REDIS_TEST_URL;
if (!redisUrl) console.warn('redisStore contract skipped: REDIS_TEST_URL is not set (.ci/run installs and starts redis-server and sets it).');

const stores: Array<[string, () => TernStore]> = [
  ['memoryStore', () => memoryStore()],
  ...(redisUrl ? [['redisStore', () => redisStore({ url: redisUrl, keyPrefix: `test:${randomUUID()}:` })] as [string, () => TernStore]] : []),
];

/** Resolves with the next message `subscribe` delivers on `channel`, or rejects after `ms`. */
function nextMessage(store: TernStore, channel: string, ms = 3000): Promise<{ message: Promise<string>; off: () => Promise<void> }> {
  let deliver!: (message: string) => void;
  const message = new Promise<string>((resolve, reject) => {
    deliver = resolve;
    setTimeout(() => reject(new Error(`no message on ${channel} within ${ms} ms`)), ms).unref();
  });
  return store.subscribe(channel, (m) => deliver(m)).then((off) => ({ message, off }));
}

describe.each(stores)('%s', (_name, make) => {
  let store: TernStore;
  beforeEach(() => {
    store = make();
  });
  afterEach(() => store.close());

  it('counts within a window and starts again once it ends', async () => {
    const first = await store.increment('hits', 1000);
    expect(first.count).toBe(1);
    expect(first.resetMs).toBeGreaterThan(0);
    expect(first.resetMs).toBeLessThanOrEqual(1000);
    expect((await store.increment('hits', 1000)).count).toBe(2);
    expect((await store.increment('other', 1000)).count).toBe(1);
    await sleep(1100);
    expect((await store.increment('hits', 1000)).count).toBe(1);
  });

  it('counts every one of many concurrent increments once', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, () => store.increment('burst', 10_000)));
    expect(results.map((r) => r.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });

  it('keeps values, with and without a TTL, until deleted or expired', async () => {
    expect(await store.get('missing')).toBeUndefined();
    await store.set('forever', 'a');
    await store.set('brief', 'b', 300);
    expect(await store.get('forever')).toBe('a');
    expect(await store.get('brief')).toBe('b');
    await store.set('forever', 'a2');
    expect(await store.get('forever')).toBe('a2');
    await sleep(400);
    expect(await store.get('brief')).toBeUndefined();
    await store.delete('forever');
    await store.delete('never-there');
    expect(await store.get('forever')).toBeUndefined();
  });

  it('delivers published messages to every subscriber until it unsubscribes', async () => {
    const a = await nextMessage(store, 'room');
    const received: string[] = [];
    const offB = await store.subscribe('room', (m) => received.push(m));
    await store.publish('room', 'hello');
    expect(await a.message).toBe('hello');
    await a.off();
    await offB();
    await store.publish('room', 'after');
    await sleep(100);
    expect(received).toEqual(['hello']);
  });

  it('answers ping', async () => {
    await expect(store.ping()).resolves.toBeUndefined();
  });
});

(redisUrl ? describe : describe.skip)('redisStore across connections', () => {
  it('shares counters and messages between two stores on one Redis, and keeps key prefixes apart', async () => {
    const prefix = `test:${randomUUID()}:`;
    const one = redisStore({ url: redisUrl as string, keyPrefix: prefix });
    const two = redisStore({ url: redisUrl as string, keyPrefix: prefix });
    const elsewhere = redisStore({ url: redisUrl as string, keyPrefix: `${prefix}other:` });
    try {
      await one.increment('shared', 10_000);
      expect((await two.increment('shared', 10_000)).count).toBe(2);
      expect((await elsewhere.increment('shared', 10_000)).count).toBe(1);
      const heard = await nextMessage(two, 'news');
      await one.publish('news', 'from one');
      expect(await heard.message).toBe('from one');
      await heard.off();
    } finally {
      await Promise.all([one.close(), two.close(), elsewhere.close()]);
    }
  });
});

describe('redisStore when Redis cannot be reached', () => {
  it('rejects each command within its timeout with TERN_STORE_COMMAND_FAILED, and closes without waiting', async () => {
    // A port nothing listens on: connection refused, the client keeps retrying in the background.
    const store = redisStore({ url: 'redis://127.0.0.1:1', commandTimeout: 300, log: () => undefined });
    const started = Date.now();
    const failure = await store.get('x').catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(TernError);
    expect(failure).toMatchObject({ code: 'TERN_STORE_COMMAND_FAILED' });
    expect((failure as Error).message).toContain('redis://127.0.0.1:1');
    // Generous: the point is "bounded", not a speed.
    expect(Date.now() - started).toBeLessThan(5000);
    await expect(store.ping()).rejects.toMatchObject({ code: 'TERN_STORE_COMMAND_FAILED' });
    await store.close();
    await expect(store.get('x')).rejects.toMatchObject({ code: 'TERN_STORE_COMMAND_FAILED' });
  });

  it('logs a lost connection once, not once per retry', async () => {
    const lines: string[] = [];
    const store = redisStore({ url: 'redis://user:secret@127.0.0.1:1', commandTimeout: 300, log: (line) => lines.push(line) });
    await Promise.all([store.get('a'), store.get('b'), store.get('c')].map((p) => p.catch(() => undefined)));
    await sleep(400);
    await store.close();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/redisStore: command connection to redis:\/\/user:\*\*\*@127\.0\.0\.1:1 failed/);
    expect(lines[0]).not.toContain('secret');
  });

  it('refuses a URL that is not redis:// at the call', () => {
    expect(() => redisStore({ url: 'http://localhost:6379' })).toThrow(/redis:\/\/ or rediss:\/\//);
  });
});

describe.each(stores)('%s subscriptions', (_name, make) => {
  it('makes two subscribers that arrive together both live before either resolves', async () => {
    const store = make();
    try {
      const heard: string[] = [];
      const [offA, offB] = await Promise.all([store.subscribe('both', (m) => heard.push(`a:${m}`)), store.subscribe('both', (m) => heard.push(`b:${m}`))]);
      await store.publish('both', 'x');
      const deadline = Date.now() + 3000;
      while (heard.length < 2 && Date.now() < deadline) await sleep(10);
      expect(heard.sort()).toEqual(['a:x', 'b:x']);
      await offA();
      await offB();
    } finally {
      await store.close();
    }
  });
});
