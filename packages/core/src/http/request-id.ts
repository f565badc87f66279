import { nodeCrypto } from './node-crypto';
import type { IncomingMessage } from 'node:http';

/**
 * Where the pipeline also leaves the id on Node's request, for failures reported with that alone
 * (a stream body breaking after the chain ended). Set only by apps that use ids.
 */
const REQUEST_ID = Symbol('tern.requestId');

/** Leaves `id` on Node's request (see REQUEST_ID). */
export function tagRequestId(raw: IncomingMessage, id: string): void {
  (raw as IncomingMessage & { [REQUEST_ID]?: string })[REQUEST_ID] = id;
}

/** The id `tagRequestId` left on Node's request, if any. */
export function taggedRequestId(raw: IncomingMessage): string | undefined {
  return (raw as IncomingMessage & { [REQUEST_ID]?: string })[REQUEST_ID];
}

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
  return typeof sent === 'string' && SANE_ID.test(sent) ? sent : nodeCrypto().randomUUID();
}
