/**
 * `session()`: server-side sessions. The data lives in the app's store (memory, or Redis shared
 * by every worker) under a random id; the cookie carries only that id, signed. A session is
 * saved only when its data changed (or, for rolling expiry, when a tenth of `maxAge` passed since
 * it was last written), so reading one costs one store `get` and writes nothing.
 */
import { TernTypeError } from '../errors';
import type { TernRequest } from '../http/request';
import type { TernResponse } from '../http/response';
import { SESSION } from '../http/session';
import { sign, signingKey, unsign } from '../http/signing';
import type { Middleware } from '../routing/types';
import { storeFailures, type StoreFailures } from '../store/failures';
import { memoryAccess, type MemoryAccess } from '../store/memory-store';
import type { TernStore } from '../store/store';
import { parseRecord, SessionData, storeKey } from './session-data';

/**
 * Options of `session()`.
 *
 * @example
 * const options: SessionOptions = { secret: process.env.SESSION_SECRET as string, maxAge: 7 * 24 * 3_600_000 };
 */
export interface SessionOptions {
  /** Signs the session cookie: at least 32 characters, kept out of the source (an environment variable). */
  secret: string;
  /** Milliseconds a session lives after its last use (rolling); default one day. */
  maxAge?: number;
  /** The cookie's name (default `tern_session`); over HTTPS it gets the `__Host-` prefix. */
  cookieName?: string;
}

/** What the app gives a `session()` middleware when it starts: its store and its logger. */
interface Binding {
  store: TernStore;
  report: (what: string, err: unknown) => void;
}

/** Each `session()` middleware and how to hand it the app's store (`bindSessionStores`). */
const sessionMiddleware = new WeakMap<Middleware, (binding: Binding) => void>();

/**
 * Gives every `session()` middleware among `middleware` the app's store; called once, in
 * `ready()`. Answers whether there was one (the cluster warning wants to know).
 */
export function bindSessionStores(middleware: Iterable<Middleware>, binding: Binding): boolean {
  let found = false;
  for (const fn of middleware) {
    const bind = sessionMiddleware.get(fn);
    if (bind) {
      bind(binding);
      found = true;
    }
  }
  return found;
}

/** A session id a signed cookie carried, and its key in the store. */
interface SessionKey {
  id: string;
  storeKey: string;
}

const DAY_MS = 86_400_000;
/** Signed cookie values whose signature was checked, kept to skip the HMAC next time (cleared when full). */
const VERIFIED_CACHE = 10_000;

/**
 * Middleware giving every request `req.session` (see `Session`): its data in the app's store
 * (`new TernApp({ store })`), the cookie (`HttpOnly`, `SameSite=Lax`, and `Secure` with the
 * `__Host-` prefix over HTTPS) holding only the signed id. A tampered, unknown or expired id
 * starts an empty session; an empty session sets no cookie and writes nothing. With a session,
 * `res.flash()` messages wait in it rather than in a cookie, and `csrf()` ties its token to it.
 * If the store fails, the request is answered 503 `TERN_STORE_UNAVAILABLE`.
 *
 * @example
 * app.addMiddleware(session({ secret: process.env.SESSION_SECRET as string }));
 * app.post('/login', async (req, res) => {
 *   await req.session.regenerate();
 *   req.session.set('userId', 7);
 *   return res.redirect('/');
 * });
 */
export function session(options: SessionOptions): Middleware {
  if (typeof options !== 'object' || options === null || typeof options.secret !== 'string' || options.secret.length < 32) {
    throw new TernTypeError('TERN_INVALID_ARGUMENT', 'session({ secret }): secret must be a string of at least 32 characters (keep it in an environment variable).');
  }
  const maxAge = options.maxAge ?? DAY_MS;
  if (!Number.isSafeInteger(maxAge) || maxAge < 1000) {
    throw new TernTypeError('TERN_INVALID_ARGUMENT', 'session({ maxAge }): maxAge must be a whole number of milliseconds, at least 1000.');
  }
  const baseName = options.cookieName ?? 'tern_session';
  if (typeof baseName !== 'string' || !/^[\w!#$%&'*+.^`|~-]+$/.test(baseName)) {
    throw new TernTypeError('TERN_INVALID_ARGUMENT', 'session({ cookieName }): cookieName must be a non-empty cookie name (letters, digits, _ or -).');
  }
  const key = signingKey(options.secret, 'session');
  let binding: Binding | undefined;
  let failures: StoreFailures | undefined;
  /** The store's synchronous reads when it is a `memoryStore()`: no promise to wait for. */
  let readsNow: MemoryAccess | undefined;

  const hostCookieName = `__Host-${baseName}`;
  // Checking a signature is an HMAC; a returning visitor sends the same cookie many times. The
  // store key is kept too: the same string each time is one the store's map has hashed before.
  const verified = new Map<string, SessionKey>();
  const verify = (signed: string): SessionKey | undefined => {
    const known = verified.get(signed);
    if (known !== undefined) return known;
    const id = unsign(key, signed);
    if (id === undefined) return undefined;
    if (verified.size >= VERIFIED_CACHE) verified.clear();
    const found = { id, storeKey: storeKey(id) };
    verified.set(signed, found);
    return found;
  };

  // Promise chains rather than an async function: a request that reads its session and changes
  // nothing pays one store read and no extra awaits.
  const middleware: Middleware = (req, res, next) => {
    const bound = binding;
    if (bound === undefined) {
      return Promise.reject(
        new TypeError("session() runs only as middleware of a TernApp (app.addMiddleware, or a route, router, group or controller middleware list): that is how it finds the app's store."),
      );
    }
    const https = req.protocol === 'https';
    const cookieName = https ? hostCookieName : baseName;
    const sent = req.cookies.get(cookieName);
    const sentKey = sent === undefined ? undefined : verify(sent);
    if (sentKey === undefined) return run(req, res, next, new SessionData(bound.store, undefined, undefined), cookieName, https, sent !== undefined);
    const loaded = (text: string | undefined) => {
      const stored = parseRecord(text);
      // An unknown or expired id is never adopted: the new session gets an id of its own.
      return run(req, res, next, new SessionData(bound.store, stored ? sentKey.id : undefined, stored), cookieName, https, true);
    };
    if (readsNow !== undefined) return loaded(readsNow.get(sentKey.storeKey));
    return bound.store.get(sentKey.storeKey).then(loaded, (err: unknown) => {
      throw (failures as StoreFailures).failed(err);
    });
  };

  /** Runs the rest of the chain with the session, then saves what changed (after a failure too). */
  const run = (req: TernRequest, res: TernResponse, next: () => Promise<TernResponse>, state: SessionData, cookieName: string, https: boolean, hadCookie: boolean) => {
    req[SESSION] = state;
    const fail = failures as StoreFailures;
    return next().then(
      (response) => {
        const saving = save(state, req, response, cookieName, https, hadCookie);
        return saving === undefined
          ? response
          : saving.then(
              () => response,
              (err: unknown) => {
                throw fail.failed(err);
              },
            );
      },
      (err: unknown) => {
        const saving = save(state, req, res, cookieName, https, hadCookie);
        if (saving === undefined) throw err;
        return saving.then(
          () => {
            throw err;
          },
          (saveError: unknown) => {
            fail.failed(saveError);
            throw err;
          },
        );
      },
    );
  };

  /**
   * Writes what changed back to the store and sets (or clears) the cookie: `undefined` when there
   * is nothing to write (the common case: a session read, not changed, written recently).
   */
  const save = (state: SessionData, req: TernRequest, res: TernResponse, cookieName: string, https: boolean, hadCookie: boolean): Promise<void> | undefined => {
    state.settleFlashes(req, res);
    if (state.isEmpty()) {
      if (hadCookie) res.setCookie(cookieName, '', { path: '/', httpOnly: true, sameSite: 'lax', secure: https, maxAge: 0 });
      return state.stored ? state.store.delete(storeKey(state.id)) : undefined;
    }
    const now = Date.now();
    if (!state.changed && state.stored !== undefined && now - state.stored.t <= maxAge / 10) return undefined;
    const id = state.id;
    return state.store.set(storeKey(id), state.serialise(now), maxAge).then(() => {
      res.setCookie(cookieName, sign(key, id), { path: '/', httpOnly: true, sameSite: 'lax', secure: https, maxAge: Math.floor(maxAge / 1000) });
    });
  };

  sessionMiddleware.set(middleware, (given) => {
    binding = given;
    failures = storeFailures('session', given.report);
    readsNow = memoryAccess(given.store);
  });
  return middleware;
}
