/**
 * The one interface Tern's cross-process features share: rate-limit counters, sessions, and
 * realtime rooms. `memoryStore()` keeps it in this process; `redisStore()` shares it between
 * every process that points at the same Redis. Values are strings: callers serialise.
 *
 * Every method may reject (a store that is down, a command past its timeout); the features that
 * use a store decide what such a rejection means for a request (e.g. `rateLimit`'s `onStoreError`).
 *
 * @example
 * const store = memoryStore();
 * const { count, resetMs } = await store.increment('rl:ip:127.0.0.1', 60_000);
 * await store.set('sess:abc', JSON.stringify({ user: 1 }), 3_600_000);
 * const off = await store.subscribe('room:lobby', (message) => console.log(message));
 * await store.publish('room:lobby', 'hello');
 */
export interface TernStore {
  /**
   * Adds one to the counter `key`, which starts at 1 in a fixed window of `windowMs`. Atomic
   * across every process sharing the store. Answers the count after this call and the
   * milliseconds until the window (and the counter) ends.
   */
  increment(key: string, windowMs: number): Promise<{ count: number; resetMs: number }>;
  /** The value stored under `key`, or `undefined` when there is none (or it expired). */
  get(key: string): Promise<string | undefined>;
  /** Stores `value` under `key`; with `ttlMs`, it expires after that many milliseconds. */
  set(key: string, value: string, ttlMs?: number): Promise<void>;
  /** Removes `key` (a value or a counter); no error when there is none. */
  delete(key: string): Promise<void>;
  /** Sends `message` to every subscriber of `channel`, in every process sharing the store. */
  publish(channel: string, message: string): Promise<void>;
  /**
   * Calls `listener` for every message published on `channel` from now on (in any process
   * sharing the store). Resolves once the subscription is live, with a function that ends it.
   */
  subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>>;
  /** Resolves when the store answers (a readiness check); rejects when it does not. */
  ping(): Promise<void>;
  /** Ends the store's connections; `app.close()` calls it. */
  close(): Promise<void>;
}

/** A throwing subscriber must not stop the others, nor become an unhandled exception. */
export function deliver(listener: (message: string) => void, message: string): void {
  try {
    listener(message);
  } catch (err) {
    process.emitWarning(`A store subscriber threw: ${err instanceof Error ? err.message : String(err)}`);
  }
}
