import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import type { StreamBody } from './stream-body';

/**
 * What the stream writer needs from the app: where failures go once no answer can change any
 * more, and a signal that aborts when the app starts closing (open event streams end on it).
 */
export interface StreamContext {
  report(err: unknown, req: IncomingMessage): void;
  readonly closing: AbortSignal;
}

const NO_BODY = new Set([204, 304]);
const IGNORED = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE', 'ERR_STREAM_DESTROYED']);

/**
 * Writes the headers middleware recorded, then pipes the body with backpressure. The chain has
 * finished by now, so what fails later is this writer's: a source failing half-way destroys the
 * response (the connection is cut: a chunked body never gets its last chunk, a sized one comes up
 * short), and is reported; a client going away destroys the source.
 */
export function writeStreamBody(
  raw: ServerResponse,
  statusCode: number,
  headers: Record<string, string | string[]>,
  body: StreamBody,
  context: StreamContext | undefined,
  fallback: (raw: ServerResponse) => void,
): void {
  const noBody = NO_BODY.has(statusCode);
  if (body.length !== undefined && !noBody) headers['content-length'] = String(body.length);
  else delete headers['content-length'];
  try {
    raw.writeHead(statusCode, headers);
  } catch {
    body.discard();
    fallback(raw);
    return;
  }
  if (noBody || raw.req?.method === 'HEAD') {
    body.discard();
    raw.end();
    return;
  }
  if (body.writeTo) {
    body.writeTo(raw, (err) => {
      if (err === undefined) return;
      report(context, err, raw);
      raw.destroy();
    });
    return;
  }
  let source;
  try {
    source = body.open(context?.closing ?? new AbortController().signal);
  } catch (err) {
    report(context, err, raw);
    raw.destroy();
    return;
  }
  if (body.flushHeaders) raw.flushHeaders();
  pipeBody(source, raw, (err) => report(context, err, raw));
}

/**
 * `source.pipe(raw)` with what `stream.pipeline` adds, done by hand: `pipeline` aborts an
 * AbortController of its own when it finishes, which builds a `DOMException` (with its stack) on
 * every response, about as costly as the rest of sending a small file. A source failing destroys
 * the response (the connection is cut); the response closing first (the client left, or the
 * server cut it) destroys the source; either failure is reported once.
 */
function pipeBody(source: Readable, raw: ServerResponse, fail: (err: unknown) => void): void {
  let settled = false;
  const settle = (err?: unknown) => {
    if (settled) return;
    settled = true;
    source.off('error', onSourceError);
    raw.off('error', onRawError);
    raw.off('close', onClose);
    if (err !== undefined) fail(err);
  };
  const onSourceError = (err: unknown) => {
    settle(err);
    source.unpipe(raw);
    raw.destroy();
  };
  const onRawError = (err: unknown) => {
    settle(err);
    source.destroy();
  };
  const onClose = () => {
    // 'close' follows 'finish' on a response sent whole; without it the body was cut short.
    if (raw.writableFinished) return settle();
    settle();
    source.destroy();
  };
  source.on('error', onSourceError);
  raw.on('error', onRawError);
  raw.on('close', onClose);
  source.pipe(raw);
}

function report(context: StreamContext | undefined, err: unknown, raw: ServerResponse): void {
  // The client leaving is not the server's failure.
  if (IGNORED.has((err as NodeJS.ErrnoException | null)?.code ?? '')) return;
  if (context && raw.req) context.report(err, raw.req);
}
