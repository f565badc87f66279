import { statusOf, type RequestErrorCode } from './codes';
import { HTTPException, type FieldError } from './http-exception';

/**
 * What a framework-made answer may carry besides its code and detail.
 *
 * @example
 * const extra: RequestErrorExtra = { headers: { allow: 'GET, HEAD' } };
 */
export interface RequestErrorExtra {
  /** Validation failures listed in the problem body. */
  errors?: FieldError[];
  /** How many further failures were found but not listed. */
  errorsOmitted?: number;
  /** Headers sent with the answer (`Allow`, `WWW-Authenticate`…). */
  headers?: Record<string, string>;
  /** Why each candidate route did not match; only shown when `debug` is on. */
  debugReasons?: string[];
}

/**
 * One of Tern's own answers: an `HTTPException` whose status is the one docs/errors.md gives
 * its code, so a code and its status cannot drift apart at a call site.
 *
 * @example
 * throw requestError('TERN_NOT_FOUND', `No route matches ${path}.`, { debugReasons });
 * // HTTPException { status: 404, code: 'TERN_NOT_FOUND', detail: 'No route matches /x.' }
 */
export function requestError(code: RequestErrorCode, detail: string, extra: RequestErrorExtra = {}): HTTPException {
  return new HTTPException(statusOf(code), detail, extra.headers, {
    code,
    errors: extra.errors,
    errorsOmitted: extra.errorsOmitted,
    debugReasons: extra.debugReasons,
  });
}
