/**
 * Running Connect middleware: one run per request and Tern layer, calling its middleware in turn
 * as Connect runs a stack, and settling the layer once: on the last `next()` (the rest of Tern's
 * chain), on `next(err)`, a throw or a rejected promise (Tern's exception handling), or when a
 * middleware ended the response itself (`finish`, or `close` when the client left first). A
 * class rather than closures: a request through a run allocates one object and one `next` per
 * middleware.
 */
import type { TernRequest } from '../../http/request';
import type { TernResponse } from '../../http/response';
import { carryOver, mergeVary, parsedBodyFailure } from './carry-over';
import { fromConnectError } from './connect-error';
import { expressRequest, type ExpressRequest } from './express-request';
import { expressResponse, type ExpressResponse } from './express-response';

/**
 * `next` as Connect passes it: no argument (or a falsy one) continues, anything else is an error.
 *
 * @example
 * const requireToken: ConnectMiddleware = (req, res, next: ConnectNext) => (req.headers['x-token'] ? next() : next(Object.assign(new Error('token required'), { status: 401 })));
 */
export type ConnectNext = (err?: unknown) => void;

/** One middleware of a run, called with Node's decorated request and response. */
export type ConnectCall = (req: ExpressRequest, res: ExpressResponse, next: ConnectNext) => unknown;

/** The run waiting on a middleware of a response, told when the response ends; null once none waits. */
const WAITING = Symbol('waitingRun');

type Watched = ExpressResponse & { [WAITING]?: ConnectRun | null };

export class ConnectRun {
  /** The middleware whose `next()` (or answer) the run waits for; -1 once settled. */
  private waiting = -1;
  private readonly raw: ExpressRequest;
  private readonly rawRes: Watched;
  /** How the run settled while `start()` was still running (every middleware called `next()` at once, the common case). */
  private settledAtOnce: Promise<TernResponse> | undefined;
  private resolveLater: ((res: TernResponse | Promise<TernResponse>) => void) | undefined;
  private rejectLater: ((err: unknown) => void) | undefined;

  constructor(
    private readonly calls: readonly ConnectCall[],
    private readonly req: TernRequest,
    private readonly res: TernResponse,
    /** The rest of Tern's chain, run on the last middleware's `next()`. */
    private readonly rest: () => Promise<TernResponse>,
  ) {
    this.raw = expressRequest(req, res.raw);
    this.rawRes = expressResponse(res);
  }

  /**
   * Runs the middleware. A run whose middleware all called `next()` at once returns the rest of
   * the chain's own promise: no promise of its own, no extra turn of the microtask queue.
   */
  start(): Promise<TernResponse> {
    this.call(0);
    return this.settledAtOnce ?? new Promise<TernResponse>((resolve, reject) => {
      this.resolveLater = resolve;
      this.rejectLater = reject;
    });
  }

  private resolve(response: TernResponse | Promise<TernResponse>): void {
    if (this.resolveLater !== undefined) this.resolveLater(response);
    else this.settledAtOnce = response instanceof Promise ? response : Promise.resolve(response);
  }

  private reject(err: unknown): void {
    if (this.rejectLater !== undefined) this.rejectLater(err);
    else this.settledAtOnce = Promise.reject(err);
  }

  private call(index: number): void {
    this.waiting = index;
    let result: unknown;
    try {
      result = this.calls[index](this.raw, this.rawRes, (err) => this.next(index, err));
    } catch (err) {
      return this.failed(index, err);
    }
    if (this.waiting !== index) return;
    // Still waiting: it answered at once (`res.end()`), or it goes on later, when the response
    // may end without a `next()` (listened for only now: most middleware never get here).
    if (this.rawRes.writableEnded) return this.answered();
    watchEnd(this.rawRes, this);
    if (result !== null && typeof result === 'object' && typeof (result as Promise<unknown>).then === 'function') {
      (result as Promise<unknown>).then(undefined, (err: unknown) => this.failed(index, err));
    }
  }

  private next(index: number, err: unknown): void {
    if (this.waiting !== index) return;
    if (err !== undefined && err !== null && err !== false && err !== 0 && err !== '') return this.failed(index, err);
    this.waiting = -1;
    this.stopWatching();
    // It answered and then called next() as well: the answer stands, nothing after it runs.
    if (this.rawRes.headersSent || this.rawRes.writableEnded) return this.resolve(this.res);
    try {
      const last = index + 1 === this.calls.length;
      // A body parsed over the route's limits is refused before any other middleware sees it.
      const failure = last ? carryOver(this.req, this.res, this.raw, this.rawRes) : parsedBodyFailure(this.req, this.raw);
      if (failure !== undefined) return this.reject(failure);
      if (!last) return this.call(index + 1);
      const rest = this.rest();
      // Connect's `cors` and Tern's layers may both vary the answer: the union goes out.
      const rawRes = this.rawRes;
      this.resolve(rawRes.hasHeader('vary') ? rest.then((response) => mergeVary(rawRes, response)) : rest);
    } catch (thrown) {
      this.reject(thrown);
    }
  }

  private failed(index: number, err: unknown): void {
    if (this.waiting !== index) return;
    this.waiting = -1;
    this.stopWatching();
    this.reject(fromConnectError(err));
  }

  private stopWatching(): void {
    if (this.rawRes[WAITING] === this) this.rawRes[WAITING] = null;
  }

  /** The response ended while a middleware had the request: it answered. */
  answered(): void {
    if (this.waiting === -1) return;
    this.waiting = -1;
    this.resolve(this.res);
  }
}

/**
 * Tells the waiting run when the response ends or the client leaves. One pair of listeners per
 * request, shared by its runs (runs wait one at a time), and one function for every response.
 */
function watchEnd(rawRes: Watched, run: ConnectRun): void {
  const watched = rawRes[WAITING] !== undefined;
  rawRes[WAITING] = run;
  if (watched) return;
  rawRes.on('finish', ended);
  rawRes.on('close', ended);
}

function ended(this: Watched): void {
  this[WAITING]?.answered();
}
