import type { TernRequest } from '../http/request';
import type { TernResponse } from '../http/response';
import type { RouteInfo } from '../routing/route-info';
import type { ServerResponse } from 'node:http';

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
  /**
   * Body bytes handed to the connection (after compression, without chunk framing or headers);
   * `0` for HEAD and bodiless answers. An aborted response may have delivered fewer.
   */
  bytes: number;
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
    const counted = countBodyBytes(raw);
    let finished = false;
    raw.once('finish', () => (finished = true));
    raw.once('close', () => {
      const info: ResponseInfo = {
        statusCode: raw.headersSent ? raw.statusCode : 0,
        durationMs: performance.now() - start,
        route: req.route as RouteInfo | undefined,
        aborted: !finished,
        bytes: counted.bytes,
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

type Chunk = string | Uint8Array;

/**
 * Counts what every writer of the response (Tern, a stream piped into it, a handler on
 * `res.raw`, a compressor) hands to `write`/`end`. Node keeps no such count: the
 * Content-Length header is absent when headers went through writeHead(), and the socket's
 * `bytesWritten` mixes in headers, chunk framing and earlier responses on the connection.
 */
function countBodyBytes(raw: ServerResponse): { bytes: number } {
  const counted = { bytes: 0 };
  // HEAD: Node drops whatever body is written, and so does the count.
  if (raw.req?.method === 'HEAD') return counted;
  const add = (chunk: unknown, encoding: unknown) => {
    if (typeof chunk === 'string') counted.bytes += Buffer.byteLength(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
    else if (chunk instanceof Uint8Array) counted.bytes += chunk.byteLength;
  };
  const write = raw.write;
  const end = raw.end;
  // An end() that writes its chunk through this.write() (inject's response does) counts it once.
  let ending = false;
  raw.write = function countedWrite(this: ServerResponse, chunk: Chunk, ...rest: unknown[]) {
    if (!ending) add(chunk, rest[0]);
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as ServerResponse['write'];
  raw.end = function countedEnd(this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    if (!this.writableEnded) add(chunk, rest[0]);
    ending = true;
    try {
      return (end as (...args: unknown[]) => ServerResponse).call(this, chunk, ...rest);
    } finally {
      ending = false;
    }
  } as ServerResponse['end'];
  return counted;
}
