import type { TernRequest } from '../http/request';
import type { TernResponse } from '../http/response';
import type { RouteInfo } from '../routing/route-info';

/** What `app.onResponse` hooks learn about each response once it is written. */
export interface ResponseInfo {
  /** The status sent; `0` when the connection closed before a status line went out. */
  statusCode: number;
  /** Milliseconds from the request reaching Tern to the response being written (or cut). */
  durationMs: number;
  /** The route that matched (`rawPath`, `name`…); undefined for 404s and other unmatched requests. */
  route?: RouteInfo;
  /** True when the connection closed before the whole response was written. */
  aborted: boolean;
}

/**
 * Runs after every response is written or cut off: errors, 404s and mounted apps included. May
 * return a promise; a throw or rejection is reported and the other hooks still run.
 *
 * @example
 * app.onResponse((req, res, { statusCode, durationMs, route }) => {
 *   logger.info({ method: req.method, path: req.url.path, route: route?.rawPath, statusCode, durationMs });
 * });
 */
export type ResponseHook = (req: TernRequest, res: TernResponse, info: ResponseInfo) => void | Promise<void>;

/**
 * The per-request step of `onResponse`, built once in `ready()` and only when a hook exists: a
 * `finish` and a `close` listener per request (Node emits `close` after `finish`, or alone when
 * the connection ended first).
 */
export function responseObserver(hooks: readonly ResponseHook[], report: (err: unknown, req: TernRequest) => void) {
  const list = [...hooks];
  return (req: TernRequest, res: TernResponse): void => {
    const start = performance.now();
    const raw = res.raw;
    let finished = false;
    raw.once('finish', () => (finished = true));
    raw.once('close', () => {
      const info: ResponseInfo = {
        statusCode: raw.headersSent ? raw.statusCode : 0,
        durationMs: performance.now() - start,
        route: req.route as RouteInfo | undefined,
        aborted: !finished,
      };
      for (const hook of list) {
        try {
          const result = hook(req, res, info);
          if (result instanceof Promise) result.catch((err: unknown) => report(err, req));
        } catch (err) {
          report(err, req);
        }
      }
    });
  };
}
