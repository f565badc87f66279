/**
 * Scenarios 11–13 (issue 37): what the rate-limit and session servers share with the runner's
 * checks. The session scenario's cookie is made here the way `session()` signs its ids (an HMAC
 * key per purpose from the secret, then `id.HMAC(id)`), so autocannon can send a fixed cookie
 * that the server, having stored that session at startup, reads on every request.
 */
import { createHmac } from 'node:crypto';

/** So high that no bench run reaches it: every request is counted, none refused. */
export const BENCH_LIMIT = 2 ** 31;
export const BENCH_WINDOW_MS = 60_000;

export const SESSION_SECRET = 'the-bench-session-secret-of-32-chars!';
/** A fixed id (43 base64url characters, as `session()` draws them). */
export const SESSION_ID = 'benchbenchbenchbenchbenchbenchbenchbenchben';
/** What the stored session holds: the handler answers `{ hello: <greeting> }` from it. */
export const SESSION_RECORD = JSON.stringify({ d: { greeting: 'world' }, t: Date.now() + 365 * 86_400_000 });

function sign(value: string): string {
  const key = createHmac('sha256', SESSION_SECRET).update('tern:session').digest();
  return `${value}.${createHmac('sha256', key).update(value).digest('base64url')}`;
}

/** The `Cookie` header of scenario 12's requests. */
export const SESSION_COOKIE = `tern_session=${sign(SESSION_ID)}`;

/** The Redis of scenario 13: `REDIS_URL`, else the tests' `REDIS_TEST_URL` (.ci/redis.sh). */
export function benchRedisUrl(): string {
  const url = process.env.REDIS_URL || process.env.REDIS_TEST_URL;
  if (!url) throw new Error('scenario 13 needs a Redis: set REDIS_URL (or REDIS_TEST_URL; .ci/redis.sh starts one)');
  return url;
}
