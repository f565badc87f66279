/**
 * The line a structured logger gets for each completed request, written from the response
 * observer (`observe.ts`) once the response is out or cut off.
 */
import type { LogLevel, TernLogger } from '../logging/logger';
import type { ResponseHook } from './observe';

/**
 * `{ reqId, method, route, path, statusCode, durationMs, bytes, aborted }` at `level`, message
 * `request completed`. `route` is the template (`/users/{id}`), absent when no route matched;
 * `path` never has the query string (it may carry tokens); `bytes` is the body bytes handed to
 * the connection (streams and compressed bodies included; `0` for HEAD). An aborted response
 * may have delivered fewer.
 */
export function requestLogHook(logger: TernLogger, level: LogLevel): ResponseHook {
  return (req, res, info) => {
    logger[level](
      {
        reqId: req.id,
        method: req.method,
        route: info.route?.template,
        path: req.path,
        statusCode: info.statusCode,
        durationMs: Math.round(info.durationMs * 1000) / 1000,
        bytes: info.bytes,
        aborted: info.aborted,
      },
      'request completed',
    );
  };
}
