/**
 * The shape of `req.session`: the `session()` middleware (middleware/session.ts) makes it, the
 * request only carries it, so a request knows nothing of stores.
 */
import type { FlashMessage } from './flash';

/**
 * A visitor's server-side session: JSON values kept in the app's store under a random id that
 * the signed session cookie carries. Written back only when changed.
 *
 * @example
 * app.post('/login', async (req, res) => {
 *   const user = await users.check(req.body);
 *   await req.session.regenerate();          // a new id on sign-in: a planted id is worthless
 *   req.session.set('userId', user.id);
 *   return res.redirect('/');
 * });
 * app.get('/me', async (req) => ({ userId: req.session.get<number>('userId') ?? null }));
 */
export interface Session {
  /** The session's id (random, 32 bytes base64url); changes with `regenerate()`. */
  readonly id: string;
  /** The value stored under `key`, or `undefined`. */
  get<T = unknown>(key: string): T | undefined;
  /** Stores a JSON value (objects are copied in as JSON when the session is saved). */
  set(key: string, value: unknown): void;
  /** Removes `key`. */
  delete(key: string): void;
  /** A new id with the same data; the old id no longer works. Call it when the visitor signs in. */
  regenerate(): Promise<void>;
  /** Removes the session's data from the store and clears the cookie. */
  destroy(): Promise<void>;
}

/** What `session()` adds for the request's own readers (`req.flashes`, `csrf()`). @internal */
export interface SessionState extends Session {
  /** The flash messages the session holds, taken (they leave the session once the answer is saved). */
  takeFlashes(): { messages: FlashMessage[]; hadCookie: boolean };
  /** The session's CSRF token; with `create`, made and stored when there is none yet. */
  csrfToken(create: true): string;
  csrfToken(create: boolean): string | undefined;
}

/** Where the `session()` middleware puts the request's session. @internal */
export const SESSION = Symbol('session');
