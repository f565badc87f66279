import { STATUS_CODES } from 'node:http';

/** One `{ path, message }` entry of a 422 problem's `errors` list. */
export interface FieldError {
  path: string;
  message: string;
}

/**
 * Throw from a handler or middleware to answer with `status`. The framework's own answers
 * (404, 405, 413, 415, 422…) are HTTPExceptions too, so one exception handler can restyle them.
 *
 * @example
 * app.get('/items/{id:int}', async (req, res, { id }) => {
 *   const item = items.get(id);
 *   if (!item) throw new HTTPException(404, `No item ${id}`);
 *   return item;
 * });
 */
export class HTTPException extends Error {
  /** Validation failures (`{ path, message }`) carried into the problem body. */
  errors?: FieldError[];
  /** Why each candidate route did not match; only shown when `debug` is on. */
  debugReasons?: string[];
  /** A stable code for framework-made answers, e.g. `TERN_NOT_FOUND`. */
  code?: string;

  constructor(
    readonly status: number,
    readonly detail?: string,
    readonly headers?: Record<string, string>,
  ) {
    super(detail ?? STATUS_CODES[status] ?? `HTTP ${status}`);
    this.name = 'HTTPException';
  }
}

/** Builds the framework's own HTTPExceptions with their stable codes. */
export function frameworkError(
  status: number,
  code: string,
  detail: string,
  extra: { errors?: FieldError[]; headers?: Record<string, string>; debugReasons?: string[] } = {},
): HTTPException {
  const error = new HTTPException(status, detail, extra.headers);
  error.code = code;
  error.errors = extra.errors;
  error.debugReasons = extra.debugReasons;
  return error;
}
