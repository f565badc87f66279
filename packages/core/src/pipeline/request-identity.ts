/**
 * The per-request step of request ids and `req.log`, built in `ready()` only for apps that use
 * them (a structured logger, or `requestIdHeader`): others keep `req.id` lazy and pay nothing.
 */
import { nodeCrypto } from '../http/node-crypto';
import type { TernRequest } from '../http/request';
import { requestIdFrom, tagRequestId } from '../http/request-id';
import type { TernResponse } from '../http/response';
import type { TernLogger } from '../logging/logger';
import type { RequestIds } from '../logging/setup';

/**
 * Gives each request its id (the sane value of the `read` header when the app named one, else a
 * UUID), echoes it on the response under `echo`, and hands `req.log` its parent.
 */
export function requestIdentity({ read, echo }: RequestIds, logger: TernLogger | undefined) {
  return (req: TernRequest, res: TernResponse): void => {
    const id = read === undefined ? nodeCrypto().randomUUID() : requestIdFrom(req.raw.headers[read]);
    req.requestId = id;
    // Set first, so every answer carries it: errors, 404s, exception handlers' answers.
    if (echo !== false) res.headers[echo] = id;
    if (logger === undefined) return;
    req.logParent = logger;
    // A stream failing after the chain is reported with Node's request only: it carries the id too.
    tagRequestId(req.raw, id);
  };
}
