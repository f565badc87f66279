/**
 * Chains: turning what handlers and middleware return into the response, and composing a list of
 * middleware around an inner step once, at startup.
 */
import { TernError } from '../errors';
import { TernResponse } from '../http/response';
import type { TernRequest } from '../http/request';
import { fuseNeighbours } from '../middleware/fuse';
import type { HandlerResult, Middleware } from '../routing/types';

/** A step of a composed chain: it always resolves to the response. */
export type Step = (req: TernRequest, res: TernResponse) => Promise<TernResponse>;

/** Thrown when a handler or middleware resolves to `undefined`. */
export class NoResponseError extends Error {
  constructor(what: string) {
    super(
      what === 'handler'
        ? 'The handler did not return a response: return res.json(...), res.text(...) or a plain value.'
        : 'A middleware did not return a response: write `return next()` to continue the chain.',
    );
    this.name = 'NoResponseError';
  }
}

/** Turns whatever a handler or middleware returned into the response. */
export function toResponse(result: HandlerResult | undefined, res: TernResponse, what: 'handler' | 'middleware', statusCode = 200): TernResponse {
  if (result instanceof TernResponse) return result;
  if (result === undefined) throw new NoResponseError(what);
  if (typeof result === 'string') return res.text(result, res.statusCode === 200 ? statusCode : undefined);
  return res.json(result, res.statusCode === 200 ? statusCode : undefined);
}

/**
 * Calls a handler or middleware with `(req, res, third)` and maps what it returns (a value or a
 * promise of one) onto the response. A plain function rather than an `async` one on purpose: an
 * async wrapper would add a promise and a resumption per layer and per request. A synchronous
 * throw becomes a rejection, as it would from an async function.
 */
export function invoke<T>(
  fn: (req: TernRequest, res: TernResponse, third: T) => HandlerResult | Promise<HandlerResult> | undefined,
  req: TernRequest,
  res: TernResponse,
  third: T,
  what: 'handler' | 'middleware',
  statusCode = 200,
): Promise<TernResponse> {
  let result;
  try {
    result = fn(req, res, third);
  } catch (err) {
    return Promise.reject(err);
  }
  return Promise.resolve(result).then((value) => toResponse(value, res, what, statusCode));
}

/**
 * Wraps `inner` in the middleware list, first entry outermost, neighbours that can run as one
 * layer joined (middleware/fuse.ts). Done once per route in `app.ready()`; a request only walks
 * the finished chain.
 */
export function compose(list: readonly Middleware[], inner: Step): Step {
  const middleware = fuseNeighbours(list);
  let chain = inner;
  for (let i = middleware.length - 1; i >= 0; i--) {
    const layer = middleware[i];
    const next = chain;
    chain = (req, res) => {
      let called = false;
      // Running the rest of the chain twice would run the handler (and its side effects) twice.
      const once = () => {
        if (called) return Promise.reject(nextCalledTwice());
        called = true;
        return next(req, res);
      };
      return invoke(layer, req, res, once, 'middleware');
    };
  }
  return chain;
}

function nextCalledTwice(): TernError {
  return new TernError('TERN_NEXT_CALLED_TWICE', 'A middleware called next() twice; the rest of the chain runs once per request.');
}
