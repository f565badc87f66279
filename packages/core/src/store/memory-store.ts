/**
 * `memoryStore()`: the default store, in this process only. Counters and values expire lazily on
 * read and by a sweep every minute (a timer that never keeps the process alive), so keys that
 * are never read again (one per client address) do not pile up.
 */
import { deliver, type TernStore } from './store';

/**
 * A memory store's reads and counts, answered at once: what its promise-returning methods
 * resolve with. Session reads and rate limits on the default store take them and skip a promise
 * and a turn of the microtask queue per request.
 */
export interface MemoryAccess {
  get(key: string): string | undefined;
  increment(key: string, windowMs: number): { count: number; resetMs: number };
}

/** Stores made by `memoryStore()`, with their synchronous access. */
const memoryStores = new WeakMap<TernStore, MemoryAccess>();

/** Whether `store` keeps its data in this process only (so several workers would not share it). */
export function isMemoryStore(store: TernStore): boolean {
  return memoryStores.has(store);
}

/** The synchronous access of a store `memoryStore()` made; undefined for any other store. */
export function memoryAccess(store: TernStore): MemoryAccess | undefined {
  return memoryStores.get(store);
}

const SWEEP_EVERY_MS = 60_000;

interface Entry {
  value: string;
  /** `Infinity` when the value has no TTL. */
  expiresAt: number;
}

interface Counter {
  count: number;
  resetAt: number;
}

/**
 * A store in this process's memory: nothing to install or run. The default of every app. Several
 * processes (cluster workers, replicas) each have their own: use `redisStore()` there.
 *
 * @example
 * const app = new TernApp({ store: memoryStore() }); // the same as new TernApp()
 */
export function memoryStore(): TernStore {
  const values = new Map<string, Entry>();
  const counters = new Map<string, Counter>();
  const channels = new Map<string, Set<(message: string) => void>>();
  let sweeper: NodeJS.Timeout | undefined;

  const sweep = () => {
    const now = Date.now();
    for (const [key, entry] of values) if (entry.expiresAt <= now) values.delete(key);
    for (const [key, counter] of counters) if (counter.resetAt <= now) counters.delete(key);
    if (values.size === 0 && counters.size === 0) stopSweeping();
  };
  const startSweeping = () => {
    if (sweeper !== undefined) return;
    sweeper = setInterval(sweep, SWEEP_EVERY_MS);
    sweeper.unref();
  };
  const stopSweeping = () => {
    clearInterval(sweeper);
    sweeper = undefined;
  };

  const access: MemoryAccess = {
    increment(key, windowMs) {
      const now = Date.now();
      let counter = counters.get(key);
      if (counter === undefined || counter.resetAt <= now) {
        counter = { count: 0, resetAt: now + windowMs };
        counters.set(key, counter);
        startSweeping();
      }
      counter.count++;
      return { count: counter.count, resetMs: counter.resetAt - now };
    },
    get(key) {
      const entry = values.get(key) ?? counterEntry(counters.get(key));
      if (entry === undefined) return undefined;
      if (entry.expiresAt <= Date.now()) {
        values.delete(key);
        return undefined;
      }
      return entry.value;
    },
  };

  const store: TernStore = {
    increment: (key, windowMs) => Promise.resolve(access.increment(key, windowMs)),
    get: (key) => Promise.resolve(access.get(key)),
    set(key, value, ttlMs) {
      counters.delete(key);
      values.set(key, { value, expiresAt: ttlMs === undefined ? Infinity : Date.now() + ttlMs });
      if (ttlMs !== undefined) startSweeping();
      return Promise.resolve();
    },
    delete(key) {
      values.delete(key);
      counters.delete(key);
      return Promise.resolve();
    },
    publish(channel, message) {
      const listeners = channels.get(channel);
      // Delivered after the publisher's own code continues, as a Redis message would be.
      if (listeners) for (const listener of [...listeners]) queueMicrotask(() => deliver(listener, message));
      return Promise.resolve();
    },
    subscribe(channel, listener) {
      // A wrapper per subscription: the same function subscribed twice is two subscriptions.
      const own = (message: string) => listener(message);
      let listeners = channels.get(channel);
      if (!listeners) channels.set(channel, (listeners = new Set()));
      listeners.add(own);
      return Promise.resolve(() => {
        listeners.delete(own);
        if (listeners.size === 0 && channels.get(channel) === listeners) channels.delete(channel);
        return Promise.resolve();
      });
    },
    ping: () => Promise.resolve(),
    close() {
      stopSweeping();
      channels.clear();
      return Promise.resolve();
    },
  };
  memoryStores.set(store, access);
  return store;
}

/** A counter read with `get`: its count, as Redis would answer `GET` on an `INCR`ed key. */
function counterEntry(counter: Counter | undefined): Entry | undefined {
  return counter && { value: String(counter.count), expiresAt: counter.resetAt };
}
