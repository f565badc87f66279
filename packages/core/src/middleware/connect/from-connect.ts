/**
 * `fromConnect`: a Connect/Express middleware as a layer of Tern's chain. The middleware gets
 * Tern's own Node request and response, decorated with the Express additions it reads
 * (express-request.ts, express-response.ts), so what it does to them is what Tern answers with:
 * headers it sets go out with Tern's answer (Node merges them at `writeHead`), patches it makes to
 * `res.end`/`res.writeHead` (compression, express-session, morgan) run when Tern writes, and
 * when it answers by itself Tern's writer sees the response sent and adds nothing.
 */
import { TernTypeError } from '../../errors';
import { adoptParsedBody, bodyTakenByTern, declaredBodyTooLarge, type TernRequest } from '../../http/request';
import { isJsonType, mediaTypeOf } from '../../http/media-type';
import type { TernResponse } from '../../http/response';
import type { Middleware } from '../../routing/types';
import { appendVary } from '../vary';
import { fromConnectError } from './connect-error';
import { expressRequest, KEYS_SEEN, type ExpressRequest } from './express-request';
import { expressResponse, type ExpressResponse } from './express-response';

/**
 * `next` as Connect passes it: no argument (or a falsy one) continues, anything else is an error.
 *
 * @example
 * const requireToken: ConnectMiddleware = (req, res, next: ConnectNext) => (req.headers['x-token'] ? next() : next(Object.assign(new Error('token required'), { status: 401 })));
 */
export type ConnectNext = (err?: unknown) => void;

/**
 * A Connect middleware, `(req, res, next)`. Typed loosely on purpose: packages type their own
 * `req`/`res` (Express's, passport's), and any of those must be accepted.
 *
 * @example
 * const poweredBy: ConnectMiddleware = (req, res, next) => { res.setHeader('x-served-by', 'tern'); next(); };
 * app.addMiddleware(fromConnect(poweredBy));
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each package types req/res its own way
export type ConnectMiddleware = (req: any, res: any, next: ConnectNext) => unknown;

/**
 * A Connect error middleware, `(err, req, res, next)`: it runs when the rest of the chain fails.
 *
 * @example
 * const legacyErrors: ConnectErrorMiddleware = (err, req, res, next) => res.status(err.status ?? 500).json({ error: err.expose ? err.message : 'failed' });
 * app.addMiddleware(fromConnect(legacyErrors)); // first: it sees the failures of everything added after it
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each package types req/res its own way
export type ConnectErrorMiddleware = (err: any, req: any, res: any, next: ConnectNext) => unknown;

/**
 * Turns a Connect/Express middleware into a Tern middleware, for `app.addMiddleware` and every
 * `middleware` list (router, group, controller, route, route files). The middleware sees Node's
 * `req`/`res` with the Express additions listed in docs/express-middleware.md. Calling `next()`
 * runs the rest of Tern's chain; answering by itself (`res.end`, `res.json`, `res.redirect`)
 * ends the request there; `next(err)` and throws go to Tern's exception handling (`err.status` /
 * `err.statusCode` kept, anything else a 500 without its message). A body `express.json()` or
 * `express.urlencoded()` parsed is what `req.json()`/`req.form()` and the route's `requestModel`
 * read, under the same limits. What it puts on `req` (`req.user`, `req.session`, ...) Tern's
 * handlers, guards and security verifiers read on Tern's `req`. A four-argument middleware
 * `(err, req, res, next)` handles the errors of the layers inside it: put it first.
 *
 * @example
 * import helmet from 'helmet';
 * import passport from 'passport';
 * app.addMiddleware(fromConnect(helmet()));
 * app.post('/login', { middleware: [fromConnect(passport.authenticate('local', { session: false }))] }, async (req) => ({ user: req.user }));
 */
export function fromConnect(middleware: ConnectMiddleware | ConnectErrorMiddleware): Middleware {
  if (typeof middleware !== 'function') {
    throw new TernTypeError('TERN_INVALID_ARGUMENT', 'fromConnect(middleware): expected a (req, res, next) or (err, req, res, next) function.');
  }
  if (middleware.length === 4) return errorLayer(middleware as ConnectErrorMiddleware);
  const run = middleware as ConnectMiddleware;
  return (req, res, next) =>
    new Promise<TernResponse>((resolve, reject) => {
      const raw = expressRequest(req, res.raw);
      const rawRes = expressResponse(res);
      callConnect(rawRes, resolve, reject, res, (connectNext) => run(raw, rawRes, connectNext), () => {
        const failure = carryOver(req, res, raw, rawRes);
        if (failure !== undefined) return reject(failure);
        const rest = next();
        // Connect's `cors` and Tern's layers may both vary the answer: the union goes out.
        resolve(rawRes.hasHeader('vary') ? rest.then((response) => mergeVary(rawRes, response)) : rest);
      });
    });
}

/** A four-argument middleware: it sees the failure of the rest of the chain, as Express's error middleware sees the failures before it. */
function errorLayer(middleware: ConnectErrorMiddleware): Middleware {
  return (req, res, next) =>
    next().catch(
      (failure: unknown) =>
        new Promise<TernResponse>((resolve, reject) => {
          if (res.raw.headersSent) return reject(failure);
          const raw = expressRequest(req, res.raw);
          const rawRes = expressResponse(res);
          // next() without an error hands the failure on, untouched: nothing after it could answer.
          callConnect(rawRes, resolve, reject, res, (connectNext) => middleware(failure, raw, rawRes, connectNext), () => reject(failure));
        }),
    );
}

/**
 * Runs one Connect call and settles the layer once: on `next()` (`onContinue`), on `next(err)`,
 * a throw or a rejected promise (Tern's exception handling), or when the middleware ended the
 * response itself (`finish`, or `close` when the client left first).
 */
function callConnect(
  rawRes: Watched,
  resolve: (res: TernResponse) => void,
  reject: (err: unknown) => void,
  res: TernResponse,
  call: (next: ConnectNext) => unknown,
  onContinue: () => void,
): void {
  let settled = false;
  const answered = () => {
    if (settled) return;
    settled = true;
    resolve(res);
  };
  const stopWatching = () => {
    if (rawRes[WAITING] === answered) rawRes[WAITING] = undefined;
  };
  const fail = (err: unknown) => {
    if (settled) return;
    settled = true;
    stopWatching();
    reject(fromConnectError(err));
  };
  watchEnd(rawRes, answered);
  const connectNext: ConnectNext = (err) => {
    if (settled) return;
    if (err !== undefined && err !== null && err !== false && err !== 0 && err !== '') return fail(err);
    stopWatching();
    settled = true;
    // It answered and then called next() as well: the answer stands, the handler does not run.
    if (rawRes.headersSent || rawRes.writableEnded) return resolve(res);
    try {
      onContinue();
    } catch (thrown) {
      reject(thrown);
    }
  };
  let result: unknown;
  try {
    result = call(connectNext);
  } catch (err) {
    return fail(err);
  }
  if (result !== null && typeof result === 'object' && typeof (result as Promise<unknown>).then === 'function') (result as Promise<unknown>).then(undefined, fail);
}

/** The layer waiting on its middleware: told when the response ends without `next()`. */
const WAITING = Symbol('waitingLayer');
const WATCHED = Symbol('endWatched');

type Watched = ExpressResponse & { [WAITING]?: () => void; [WATCHED]?: true };

/**
 * Tells the waiting layer when the response ends (`finish`) or the client leaves (`close`). One
 * pair of listeners per request, not per layer: layers wait one at a time, each calling the next
 * only once it has settled.
 */
function watchEnd(rawRes: Watched, answered: () => void): void {
  rawRes[WAITING] = answered;
  if (rawRes[WATCHED]) return;
  rawRes[WATCHED] = true;
  const ended = () => rawRes[WAITING]?.();
  rawRes.once('finish', ended);
  rawRes.once('close', ended);
}

/**
 * What a middleware left on Node's request and response that Tern must take over when it calls
 * `next()`: the status it set, the properties it added (`req.user`, `req.session`, ...) made
 * readable on Tern's request, and a body a Connect parser read. Returns the failure to answer
 * with instead (a parsed body over the route's limits).
 */
function carryOver(req: TernRequest, res: TernResponse, raw: ExpressRequest, rawRes: ExpressResponse): unknown {
  if (rawRes.statusCode !== 200 && res.statusCode === 200 && rawRes.statusCode >= 200 && rawRes.statusCode <= 599) res.status(rawRes.statusCode);
  // New keys come last in Object.keys (insertion order); a request without Connect layers never pays this.
  const keys = Object.keys(raw);
  for (let i = raw[KEYS_SEEN]; i < keys.length; i++) exposeOnTern(req, raw, keys[i]);
  raw[KEYS_SEEN] = keys.length;
  if (raw.readableEnded && req.hasBody && !bodyTakenByTern(req) && raw.body !== undefined) return adoptBody(req, raw);
  return undefined;
}

/** Names Tern's request already has for its own purpose (`req.body` is the validated model). */
const KEPT_BY_TERN = new Set(['body', 'route', 'pathParams', 'originalUrl', 'res']);

/**
 * Names both sides use for the same thing: Connect's wins when Tern's has no value for this
 * request (`req.user` before authentication; `req.session` when Tern's own `session()` is not in
 * use), else Tern's stays.
 */
const SHARED_NAMES = new Set(['user', 'session']);

function ternValueOf(req: TernRequest, key: string): unknown {
  try {
    return (req as unknown as Record<string, unknown>)[key];
  } catch {
    // A getter of Tern's that refuses to answer (a feature not set up for this app) is no value.
    return undefined;
  }
}

/** Makes `raw[key]` readable (and writable) as `req[key]`; methods stay bound to Node's request, which they were written for. */
function exposeOnTern(req: TernRequest, raw: ExpressRequest, key: string): void {
  // `_parsedUrl`, `_passport`, `_body`: a package's own bookkeeping, not for handlers.
  if (KEPT_BY_TERN.has(key) || key.startsWith('_')) return;
  if (SHARED_NAMES.has(key) ? ternValueOf(req, key) !== undefined : key in req) return;
  // `user` is a plain field of Tern's request: it takes the value (turning it into an accessor
  // would cost every later read of the request its fast path).
  if (key === 'user') {
    req.user = raw.user;
    return;
  }
  const accessor = accessorOf(key);
  if (accessor !== undefined) Object.defineProperty(req, key, accessor);
}

const accessors = new Map<string, PropertyDescriptor>();
const MAX_EXPOSED_NAMES = 256;

/**
 * One accessor pair per name, shared by every request: V8 gives requests that gain the same
 * names in the same order one hidden class, where a fresh closure per request would give each
 * request a class of its own and make every property read on the request slow.
 */
function accessorOf(key: string): PropertyDescriptor | undefined {
  let descriptor = accessors.get(key);
  if (descriptor === undefined) {
    // Names made per request (an id as a key) would grow this table without end: they stay on req.raw.
    if (accessors.size >= MAX_EXPOSED_NAMES) return undefined;
    descriptor = {
      get(this: TernRequest) {
        const value = (this.raw as unknown as Record<string, unknown>)[key];
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(this.raw) : value;
      },
      set(this: TernRequest, value: unknown) {
        (this.raw as unknown as Record<string, unknown>)[key] = value;
      },
      configurable: true,
      enumerable: true,
    };
    accessors.set(key, descriptor);
  }
  return descriptor;
}

/** The body a Connect parser left in `req.body`, adopted by kind: JSON, a form, or bytes/text. */
function adoptBody(req: TernRequest, raw: ExpressRequest): unknown {
  const body = raw.body;
  const tooLarge = declaredBodyTooLarge(req);
  if (tooLarge !== undefined) return tooLarge;
  if (Buffer.isBuffer(body) || typeof body === 'string') return adoptParsedBody(req, body, 'bytes');
  let type: string | undefined;
  try {
    type = mediaTypeOf(raw);
  } catch (err) {
    return err;
  }
  return adoptParsedBody(req, body, type !== undefined && isJsonType(type) ? 'json' : 'form');
}

function mergeVary(rawRes: ExpressResponse, response: TernResponse): TernResponse {
  const fromConnect = rawRes.getHeader('vary');
  if (response.getHeader('vary') === undefined || fromConnect === undefined) return response;
  for (const field of String(fromConnect).split(',')) if (field.trim() !== '') appendVary(response, field.trim());
  return response;
}
