/**
 * `redisStore()`: the store shared by every process pointing at one Redis, through ioredis (an
 * optional peer, loaded by `redisStore()` only). Every command is bounded by `commandTimeout`; the client
 * reconnects by itself (ioredis' backoff), and a lost or regained connection is logged once.
 */
import type { Redis as RedisClient, RedisOptions } from 'ioredis';
import { TernError, TernTypeError } from '../errors';
import { deliver, type TernStore } from './store';

/**
 * Options of `redisStore()`.
 *
 * @example
 * const options: RedisStoreOptions = { url: 'redis://127.0.0.1:6379', keyPrefix: 'shop:', commandTimeout: 500 };
 */
export interface RedisStoreOptions {
  /** `redis://[user:password@]host[:port][/db]`, or `rediss://` for TLS. */
  url: string;
  /** Put before every key and channel, so several apps can share one Redis (default `'tern:'`). */
  keyPrefix?: string;
  /** Milliseconds a command may take, connecting included, before it rejects (default 1000). */
  commandTimeout?: number;
  /** Where connection trouble is reported (default `console.warn`): once when lost, once when back. */
  log?: (line: string) => void;
}

/** `INCR` with the window set on the first hit: one round trip, atomic across processes. */
const INCREMENT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}`;

type IncrementingClient = RedisClient & { ternIncrement(key: string, windowMs: number): Promise<[number, number]> };

/**
 * A store in Redis: rate-limit counters, sessions and realtime rooms then hold across every
 * worker and machine that uses the same `url` (and `keyPrefix`). Needs the `ioredis` package
 * (`npm i ioredis`). Nothing connects until the first command, and a Redis that is down does
 * not fail `app.ready()`: requests that need the store get a 503 (or pass, per `rateLimit`'s
 * `onStoreError`) until it is back. `app.close()` closes it.
 *
 * @example
 * const app = new TernApp({ store: redisStore({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' }) });
 * app.onStartup(() => app.store.ping()); // optional: refuse to start while Redis is unreachable
 */
export function redisStore(options: RedisStoreOptions): TernStore {
  if (typeof options !== 'object' || options === null || typeof options.url !== 'string' || !/^rediss?:\/\//.test(options.url)) {
    throw new TernTypeError('TERN_INVALID_ARGUMENT', "redisStore({ url }): url must be a redis:// or rediss:// URL, e.g. 'redis://127.0.0.1:6379'.");
  }
  const prefix = options.keyPrefix ?? 'tern:';
  const timeoutMs = options.commandTimeout ?? 1000;
  if (typeof prefix !== 'string') throw new TernTypeError('TERN_INVALID_ARGUMENT', 'redisStore({ keyPrefix }): keyPrefix must be a string.');
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs <= 0) {
    throw new TernTypeError('TERN_INVALID_ARGUMENT', 'redisStore({ commandTimeout }): commandTimeout must be a positive whole number of milliseconds.');
  }
  const Redis = loadIoredis();
  const log = options.log ?? ((line: string) => console.warn(line));
  const where = redactedUrl(options.url);
  const clientOptions: RedisOptions = {
    lazyConnect: true,
    commandTimeout: timeoutMs,
    connectTimeout: Math.max(timeoutMs, 1000),
    // The timeout, not a retry count, bounds what a request waits for.
    maxRetriesPerRequest: null,
  };
  let client: IncrementingClient | undefined;
  let subscriber: RedisClient | undefined;
  let closed = false;
  const listeners = new Map<string, Set<(message: string) => void>>();
  /** Channels with a SUBSCRIBE sent: resolves once Redis confirmed it. */
  const subscribed = new Map<string, Promise<void>>();

  const watch = (redis: RedisClient, role: string) => {
    let down = false;
    redis.on('error', (err: Error) => {
      if (down || closed) return;
      down = true;
      log(`[tern] redisStore: ${role} connection to ${where} failed (${err.message}); retrying`);
    });
    redis.on('ready', () => {
      if (!down) return;
      down = false;
      log(`[tern] redisStore: ${role} connection to ${where} is back`);
    });
    return redis;
  };

  const commands = (): IncrementingClient => {
    if (closed) throw new TernError('TERN_STORE_COMMAND_FAILED', 'redisStore: the store is closed.');
    if (client) return client;
    const redis = watch(new Redis(options.url, clientOptions), 'command');
    redis.defineCommand('ternIncrement', { numberOfKeys: 1, lua: INCREMENT_SCRIPT });
    return (client = redis as IncrementingClient);
  };

  const subscriptions = (): RedisClient => {
    if (subscriber) return subscriber;
    const redis = watch(commands().duplicate(), 'subscriber');
    redis.on('message', (channel: string, message: string) => {
      for (const listener of listeners.get(channel) ?? []) deliver(listener, message);
    });
    return (subscriber = redis);
  };

  /** Runs one command; any failure becomes `TERN_STORE_UNAVAILABLE` naming the command. */
  const run = async <T>(name: string, command: () => Promise<T>): Promise<T> => {
    try {
      return await command();
    } catch (cause) {
      if (cause instanceof TernError) throw cause;
      throw new TernError('TERN_STORE_COMMAND_FAILED', `redisStore: ${name} on ${where} failed: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    }
  };

  return {
    increment: (key, windowMs) =>
      run('increment', async () => {
        const [count, resetMs] = await commands().ternIncrement(prefix + key, Math.max(1, Math.ceil(windowMs)));
        return { count: Number(count), resetMs: Number(resetMs) };
      }),
    get: (key) => run('GET', async () => (await commands().get(prefix + key)) ?? undefined),
    set: (key, value, ttlMs) =>
      run('SET', async () => {
        if (ttlMs === undefined) await commands().set(prefix + key, value);
        else await commands().set(prefix + key, value, 'PX', Math.max(1, Math.ceil(ttlMs)));
      }),
    delete: (key) => run('DEL', async () => void (await commands().del(prefix + key))),
    publish: (channel, message) => run('PUBLISH', async () => void (await commands().publish(prefix + channel, message))),
    subscribe: (channel, listener) =>
      run('SUBSCRIBE', async () => {
        const name = prefix + channel;
        const own = (message: string) => listener(message);
        let set = listeners.get(name);
        if (!set) listeners.set(name, (set = new Set()));
        set.add(own);
        // One SUBSCRIBE per channel; a second subscriber arriving meanwhile waits for the same one.
        let live = subscribed.get(name);
        if (!live) subscribed.set(name, (live = subscriptions().subscribe(name).then(() => undefined)));
        try {
          await live;
        } catch (err) {
          if (subscribed.get(name) === live) subscribed.delete(name);
          set.delete(own);
          if (set.size === 0 && listeners.get(name) === set) listeners.delete(name);
          throw err;
        }
        return async () => {
          set.delete(own);
          if (set.size > 0 || listeners.get(name) !== set) return;
          listeners.delete(name);
          subscribed.delete(name);
          if (subscriber && !closed) await run('UNSUBSCRIBE', () => (subscriber as RedisClient).unsubscribe(name));
        };
      }),
    ping: () => run('PING', async () => void (await commands().ping())),
    async close() {
      if (closed) return;
      closed = true;
      listeners.clear();
      subscribed.clear();
      await Promise.all([client, subscriber].map((redis) => redis && quit(redis, timeoutMs)));
    },
  };
}

/** The ioredis class, loaded by `redisStore()` only, so apps on `memoryStore()` never need the package. */
function loadIoredis(): new (url: string, options: RedisOptions) => RedisClient {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (require('ioredis') as typeof import('ioredis')).Redis;
  } catch (cause) {
    throw new TernError('TERN_STORE_DEPENDENCY', "redisStore() needs the 'ioredis' package: install it (npm i ioredis).", { cause });
  }
}

/** `QUIT` when Redis answers; a client that cannot reach it is cut instead of waiting for it. */
async function quit(redis: RedisClient, timeoutMs: number): Promise<void> {
  // Not connected (never used, or Redis unreachable): nothing to say goodbye to.
  if (redis.status !== 'ready') return redis.disconnect();
  let timer: NodeJS.Timeout | undefined;
  const cut = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
  });
  await Promise.race([redis.quit().then(() => undefined, () => undefined), cut]);
  clearTimeout(timer);
  redis.disconnect();
}

/** The URL without its password, for log lines. */
function redactedUrl(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
}
