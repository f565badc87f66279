import { randomUUID } from 'node:crypto';

/**
 * What an incoming request id may look like: 1 to 128 characters of letters, digits and
 * `- _ . : / + = @`. That covers UUIDs, nginx's `$request_id`, cloud balancers' trace ids and
 * base64; it keeps out spaces, quotes, control characters and newlines, which could forge or
 * break log lines, and ids long enough to flood a log.
 */
const SANE_ID = /^[A-Za-z0-9\-_.:/+=@]{1,128}$/;

/**
 * The request's id: the header's value when it is sane, a fresh UUID otherwise (absent, repeated,
 * too long, or with characters outside the set above).
 */
export function requestIdFrom(sent: string | string[] | undefined): string {
  return typeof sent === 'string' && SANE_ID.test(sent) ? sent : randomUUID();
}
