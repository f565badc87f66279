/**
 * `fromConnect`: a Connect/Express middleware as a layer of Tern's chain. The middleware gets
 * Tern's own Node request and response, decorated with the Express additions it reads
 * (express-request.ts, express-response.ts), so what it does to them is what Tern answers with:
 * headers it sets go out with Tern's answer (Node merges them at `writeHead`), patches it makes to
 * `res.end`/`res.writeHead` (compression, express-session, morgan) run when Tern writes, and
 * when it answers by itself Tern's writer sees the response sent and adds nothing.
 */
import { TernTypeError } from '../../errors';
import type { Middleware } from '../../routing/types';
import { FUSE, type FusableMiddleware } from '../fuse';
import { ConnectRun, type ConnectCall, type ConnectNext } from './connect-run';
import { installExpressAdditions } from './express-request';
import { installExpressResponseAdditions } from './express-response';

export type { ConnectNext };

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
  installExpressAdditions();
  installExpressResponseAdditions();
  if (middleware.length === 4) return errorLayer(middleware as ConnectErrorMiddleware);
  const layer = connectStack([middleware as ConnectMiddleware]) as FusableMiddleware & { [CONNECT]: ConnectMiddleware };
  layer[CONNECT] = middleware as ConnectMiddleware;
  layer[FUSE] = joinConnectLayers;
  return layer;
}

/** The Connect middleware a fromConnect layer runs. */
const CONNECT = Symbol('connectMiddleware');

/** Neighbouring fromConnect layers in a chain, joined into one stack (see middleware/fuse.ts). */
function joinConnectLayers(run: readonly Middleware[]): Middleware {
  return connectStack(run.map((layer) => (layer as Middleware & { [CONNECT]: ConnectMiddleware })[CONNECT]));
}

/**
 * One Tern layer running Connect middleware in turn, as Connect runs its stack (connect-run.ts):
 * each `next()` calls the one after it, and the last one's continues Tern's chain.
 */
function connectStack(stack: readonly ConnectMiddleware[]): Middleware {
  return (req, res, next) => new ConnectRun(stack, req, res, next).start();
}

/** A four-argument middleware: it sees the failure of the rest of the chain, as Express's error middleware sees the failures before it. */
function errorLayer(middleware: ConnectErrorMiddleware): Middleware {
  return (req, res, next) =>
    next().catch((failure: unknown) => {
      if (res.raw.headersSent) throw failure;
      const call: ConnectCall = (raw, rawRes, connectNext) => middleware(failure, raw, rawRes, connectNext);
      // next() without an error hands the failure on, untouched: nothing after it could answer.
      return new ConnectRun([call], req, res, () => Promise.reject(failure)).start();
    });
}
