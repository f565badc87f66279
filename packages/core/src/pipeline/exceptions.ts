import type { IncomingMessage } from 'node:http';
import { HTTPException, TernRangeError, TernTypeError } from '../errors';
import { TernRequest } from '../http/request';
import { taggedRequestId } from '../http/request-id';
import { isStructuredLogger, type TernLogger } from '../logging/logger';
import type { TernResponse } from '../http/response';
import type { HandlerResult } from '../routing/types';
import { toResponse } from './chain';
import { sendErrorPage, type ErrorPages } from './error-pages';
import type { MatchedRoute } from '../http/matched-route';
import { sendProblem } from './problem';

/**
 * What a handler without a stated error type receives. `any` because handlers are picked by the
 * error's class or status at run time: a handler states the class it handles (`exc: NotFoundInDb`),
 * and that parameter type is contravariant, so the table of handlers must accept every one.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- handlers state their own error class; the table holds them all
type AnyCaughtError = any;

/**
 * Handles an error for a status code or an error class; returns the response to send, or
 * `undefined` to leave the error to Tern's default answer (its error page or problem), unlogged.
 */
export type ExceptionHandler<E = AnyCaughtError> = (req: TernRequest, res: TernResponse, exc: E) => Promise<HandlerResult | undefined>;

/** Where unexpected errors (and, in debug mode, startup notes via `warn`) go; `false` silences them. */
export type ErrorLogger = (Pick<Console, 'error'> & Partial<Pick<Console, 'warn'>>) | false;

/** The request a failure happened in: Tern's view when it exists, else Node's (a failed startup). */
type FailedRequest = TernRequest | IncomingMessage;

/**
 * The app's exception handlers and the one way an error becomes a response: a class handler
 * (checked first, instances and subclasses), else a status handler, else the problem writer.
 */
export class ExceptionHandlers {
  private readonly byStatus = new Map<number, ExceptionHandler>();
  private readonly byClass: Array<[Function, ExceptionHandler]> = [];

  /** `new TernApp({ errorPages })`, checked. */
  errorPages?: ErrorPages;
  /** Whether a matched route is a page (set at ready, when routes are known). */
  isPage: (route: MatchedRoute) => boolean = () => false;
  /** Set when the logger is pino-shaped: failures become structured lines carrying the request id. */
  private readonly structured?: TernLogger;
  private readonly logger: ErrorLogger;

  constructor(
    logger: ErrorLogger | TernLogger,
    private readonly debug: boolean,
  ) {
    if (isStructuredLogger(logger)) this.structured = logger;
    this.logger = logger as ErrorLogger;
  }

  /** A handler for a status (400-599; `500` catches every unexpected error) or an error class. */
  add(statusOrErrorClass: unknown, handler: unknown): void {
    if (typeof handler !== 'function') throw new TernTypeError('TERN_INVALID_HANDLER', 'addExceptionHandler expects a handler function.');
    if (typeof statusOrErrorClass === 'number') {
      if (!Number.isInteger(statusOrErrorClass) || statusOrErrorClass < 400 || statusOrErrorClass > 599) {
        throw new TernRangeError('TERN_INVALID_STATUS', `addExceptionHandler: ${statusOrErrorClass} is not an error status code.`);
      }
      this.byStatus.set(statusOrErrorClass, handler as ExceptionHandler);
    } else if (typeof statusOrErrorClass === 'function') {
      this.byClass.push([statusOrErrorClass, handler as ExceptionHandler]);
    } else {
      throw new TernTypeError('TERN_INVALID_ARGUMENT', 'addExceptionHandler expects a status code or an error class.');
    }
  }

  /**
   * The response for `err`: a class handler's, else a status handler's, else Tern's default (an
   * error page or a problem). A handler that returns `undefined` hands the error back to the
   * default answer without a report; a failing handler falls back to the problem (and is reported).
   */
  async handle(req: TernRequest, res: TernResponse, err: unknown): Promise<TernResponse> {
    const classHandler = this.byClass.find(([errorClass]) => err instanceof errorClass)?.[1];
    // A class handler means the app expects this error; anything else unexpected is reported.
    if (!classHandler && !(err instanceof HTTPException)) this.report(err, req);
    const handler = classHandler ?? this.byStatus.get(err instanceof HTTPException ? err.status : 500);
    if (handler) {
      try {
        const result = await handler(req, res, err);
        if (result !== undefined) return toResponse(result, res, 'handler');
      } catch (handlerError) {
        this.report(handlerError, req);
        return sendProblem(req, res, handlerError, this.debug);
      }
    }
    return this.defaultAnswer(req, res, err);
  }

  /** Tern's own answer: the HTML error page a page request gets, else the problem body. */
  private defaultAnswer(req: TernRequest, res: TernResponse, err: unknown): TernResponse {
    try {
      if (sendErrorPage(this.errorPages, this.isPage, req, res, err, this.debug)) return res;
    } catch (pageError) {
      this.report(pageError, req.raw);
    }
    return sendProblem(req, res, err, this.debug);
  }

  /** A startup note (debug mode): to the logger's `warn`, or `error` when it has none. */
  note(message: string | undefined): void {
    if (!this.logger || message === undefined) return;
    if (this.structured) return this.structured.warn(message);
    (this.logger.warn ?? this.logger.error).call(this.logger, message);
  }

  /** Reports a failing hook or plugin (`[tern] <what> failed:`); never throws. */
  reportFailure(what: string, err: unknown): void {
    if (!this.logger) return;
    try {
      if (this.structured) this.structured.error({ err }, `${what} failed`);
      else this.logger.error(`[tern] ${what} failed:`, err);
    } catch {
      // Nothing sensible is left to do with an error about an error.
    }
  }

  /** Set by `checkContract` while it shrinks a failure it has already reported (errors/mute-reports.ts). */
  muted = false;

  /** Reports an unexpected error; a throwing logger must not take the request down with it. */
  report(err: unknown, req: FailedRequest): void {
    if (!this.logger || this.muted) return;
    try {
      if (this.structured) this.reportStructured(err, req, this.structured);
      else this.logger.error(`[tern] ${req.method} ${req instanceof TernRequest ? req.raw.url : req.url} failed:`, err);
    } catch {
      // Nothing sensible is left to do with an error about an error.
    }
  }

  /** `{ reqId, method, route, path, err }`: the same `reqId` as the request's completed line. */
  private reportStructured(err: unknown, req: FailedRequest, logger: TernLogger): void {
    if (req instanceof TernRequest) {
      logger.error({ reqId: req.id, method: req.method, route: req.route?.template, path: req.path, err }, 'request failed');
    } else {
      logger.error({ reqId: taggedRequestId(req), method: req.method, err }, 'request failed');
    }
  }
}
