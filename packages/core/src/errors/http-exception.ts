import { STATUS_CODES } from 'node:http';
import { ERROR_CODES, type RequestErrorCode } from './codes';
import { TernRangeError } from './tern-error';

/** One `{ path, message }` entry of a 422 problem's `errors` list. */
export interface FieldError {
  path: string;
  message: string;
}

/**
 * What an HTTPException carries besides its status, detail and headers.
 *
 * @example
 * const options: HTTPExceptionOptions = { errors: [{ path: 'qty', message: 'qty must be positive' }] };
 * throw new HTTPException(422, 'Bad order', undefined, options);
 */
export interface HTTPExceptionOptions {
  /**
   * One of Tern's request codes (docs/errors.md); the status must be the code's. Tern's own
   * answers set it through `requestError`, which takes the status from the table.
   */
  code?: RequestErrorCode;
  /** Validation failures (`{ path, message }`) carried into the problem body. */
  errors?: FieldError[];
  /** How many further failures were found but not listed (the list is capped). */
  errorsOmitted?: number;
  /** Why each candidate route did not match; only shown when `debug` is on. */
  debugReasons?: string[];
}

/**
 * Throw from a handler or middleware to answer with `status`. The framework's own answers
 * (404, 405, 413, 415, 422…) are HTTPExceptions too, so one exception handler can restyle them.
 * Every field is fixed at construction.
 *
 * @example
 * app.get('/items/{id:int}', async (req, res, { id }) => {
 *   const item = items.get(id);
 *   if (!item) throw new HTTPException(404, `No item ${id}`);
 *   return item;
 * });
 * // a 422 of your own, listing the fields like Tern's:
 * throw new HTTPException(422, 'Bad order', undefined, { errors: [{ path: 'qty', message: 'qty must be > 0' }] });
 */
export class HTTPException extends Error {
  /** Validation failures (`{ path, message }`) carried into the problem body. */
  readonly errors?: FieldError[];
  /** How many further failures were found but not listed (the list is capped). */
  readonly errorsOmitted?: number;
  /** Why each candidate route did not match; only shown when `debug` is on. */
  readonly debugReasons?: string[];
  /** A stable code for framework-made answers, e.g. `TERN_NOT_FOUND`. */
  readonly code?: RequestErrorCode;

  constructor(
    readonly status: number,
    readonly detail?: string,
    readonly headers?: Record<string, string>,
    options: HTTPExceptionOptions = {},
  ) {
    super(detail ?? STATUS_CODES[status] ?? `HTTP ${status}`);
    this.name = 'HTTPException';
    if (options.code !== undefined && ERROR_CODES[options.code].status !== status) {
      // A code answered with another status would contradict docs/errors.md.
      throw new TernRangeError(
        'TERN_INVALID_STATUS',
        `HTTPException: ${options.code} is answered ${ERROR_CODES[options.code].status}, not ${status}.`,
      );
    }
    this.code = options.code;
    this.errors = options.errors;
    this.errorsOmitted = options.errorsOmitted;
    this.debugReasons = options.debugReasons;
  }
}
