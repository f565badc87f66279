/**
 * What a request-path feature does with a failed store command: one log line per outage rather
 * than one per request (a Redis that is down would otherwise write a line for every request), and
 * the 503 the request gets.
 */
import { requestError } from '../errors/request-error';
import type { HTTPException } from '../errors';

/** Turns a failed store command into the request's 503, logging it unless one was logged lately. */
export interface StoreFailures {
  failed(err: unknown): HTTPException;
}

/** At most one line per this long while the store keeps failing. */
const QUIET_MS = 10_000;

/**
 * A reporter for one feature: `failed(err)` logs the failure unless one was logged in the last
 * ten seconds (saying how many were not), and answers the 503 to throw.
 *
 * @example
 * const failures = storeFailures('rateLimit', (what, err) => exceptions.reportFailure(what, err));
 * store.increment(key, windowMs).catch((err) => { throw failures.failed(err); });
 */
export function storeFailures(feature: string, report: (what: string, err: unknown) => void): StoreFailures {
  let loggedAt = -Infinity;
  let unlogged = 0;
  return {
    failed(err) {
      const now = Date.now();
      if (now - loggedAt >= QUIET_MS) {
        const also = unlogged > 0 ? ` (and ${unlogged} more since the last line)` : '';
        report(`the store, for ${feature}${also},`, err);
        loggedAt = now;
        unlogged = 0;
      } else {
        unlogged++;
      }
      return requestError('TERN_STORE_UNAVAILABLE', `Service unavailable: the ${feature} store did not answer; try again shortly.`, { headers: { 'retry-after': '1' } });
    },
  };
}
