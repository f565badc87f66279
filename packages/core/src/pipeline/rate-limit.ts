/**
 * The `rateLimit` route option at request time: one atomic `increment` in the app's store per
 * request, keyed by the route and the client, then the IETF httpapi rate-limit headers on the
 * answer. Built once per limited route in `ready()`; routes without a limit never reach here.
 */
import { requestError } from '../errors/request-error';
import { nodeCrypto } from '../http/node-crypto';
import type { TernRequest } from '../http/request';
import type { CompiledRoute } from '../routing/compile';
import type { RateLimitOptions } from '../routing/types';
import type { StoreFailures } from '../store/failures';
import { memoryAccess } from '../store/memory-store';
import type { TernStore } from '../store/store';
import type { Step } from './chain';

/** What a limited route needs from the app. */
export interface RateLimitContext {
  store: TernStore;
  /** The app's store-failure reporter (one for all its routes: one log line per outage, not per route). */
  failures: StoreFailures;
}

/** The policy's name in `RateLimit-Policy` and `RateLimit` (one policy per route). */
const POLICY = '"default"';
/** Keys longer than this (a function's) are stored as their SHA-256, so a store key stays small. */
const LONGEST_PLAIN_KEY = 128;

/**
 * Wraps `inner` (the route's terminal step, after every middleware, so `req.user` is set) in the
 * route's limit, or returns it as is when the route has none.
 */
export function withRateLimit(route: CompiledRoute, inner: Step, context: RateLimitContext): Step {
  const options = route.spec.rateLimit;
  if (!options) return inner;
  const { limit, window: windowMs, onStoreError } = options;
  const clientKey = keyReader(options.key ?? 'ip');
  // The same route counts the same in every process: its methods and path, not an object identity.
  const prefix = `rl:${route.info.methods.join(',')} ${route.rawPath}:`;
  const policy = `${POLICY};q=${limit};w=${Math.ceil(windowMs / 1000)}`;
  const { store, failures } = context;
  // The default memoryStore() counts at once: no promise and no extra turn per request.
  const countsNow = memoryAccess(store);

  const counted = (req: TernRequest, res: Parameters<Step>[1], used: number, resetMs: number) => {
    const seconds = Math.max(1, Math.ceil(resetMs / 1000));
    // Straight into the header map, in the lower case it keeps names in: setHeader would
    // lower-case and convert again on every request what is already a lower-case name and a string.
    const headers = res.headers;
    headers['ratelimit-policy'] = policy;
    headers.ratelimit = `${POLICY};r=${Math.max(0, limit - used)};t=${seconds}`;
    if (used > limit) {
      throw requestError('TERN_RATE_LIMITED', `Too many requests: at most ${limit} per ${windowMs / 1000} s; try again in ${seconds} s.`, {
        headers: { 'retry-after': String(seconds) },
      });
    }
    return inner(req, res);
  };

  const count = (req: TernRequest, res: Parameters<Step>[1], key: string) => {
    if (countsNow !== undefined) {
      const { count: used, resetMs } = countsNow.increment(prefix + storedKey(key), windowMs);
      return counted(req, res, used, resetMs);
    }
    return store.increment(prefix + storedKey(key), windowMs).then(
      ({ count: used, resetMs }) => counted(req, res, used, resetMs),
      (err: unknown) => {
        const answer = failures.failed(err);
        if (onStoreError === 'pass') return inner(req, res);
        throw answer;
      },
    );
  };

  return (req, res) => {
    let key: string | Promise<string>;
    try {
      key = clientKey(req);
      // The synchronous count throws its 429 here: a step answers with a rejected promise.
      if (typeof key === 'string') return count(req, res, key);
    } catch (err) {
      return Promise.reject(err);
    }
    return Promise.resolve(key).then((k) => count(req, res, checkedKey(k)));
  };
}

type KeyReader = (req: TernRequest) => string | Promise<string>;

function keyReader(key: NonNullable<RateLimitOptions['key']>): KeyReader {
  if (key === 'ip') return ipKey;
  if (key === 'user') return (req) => principalKey(req.user) ?? ipKey(req);
  return (req) => {
    const value = key(req);
    return typeof value === 'string' ? `f:${value}` : Promise.resolve(value).then((v) => `f:${checkedKey(v)}`);
  };
}

const ipKey = (req: TernRequest): string => `ip:${req.ip ?? 'unknown'}`;

/** The principal's identity: itself when a string or number, else its `id` or `sub`. */
function principalKey(user: unknown): string | undefined {
  if (typeof user === 'string' || typeof user === 'number') return `u:${user}`;
  if (typeof user === 'object' && user !== null) {
    const { id, sub } = user as { id?: unknown; sub?: unknown };
    const identity = id ?? sub;
    if (typeof identity === 'string' || typeof identity === 'number') return `u:${identity}`;
  }
  return undefined;
}

function checkedKey(key: unknown): string {
  if (typeof key !== 'string') throw new TypeError(`A rateLimit key function must return a string, got ${typeof key}.`);
  return key;
}

function storedKey(key: string): string {
  return key.length <= LONGEST_PLAIN_KEY ? key : `h:${nodeCrypto().createHash('sha256').update(key).digest('base64url')}`;
}
