import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream';
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
  let source;
  try {
    source = body.open(context?.closing ?? new AbortController().signal);
  } catch (err) {
    report(context, err, raw);
    raw.destroy();
    return;
  }
  if (body.flushHeaders) raw.flushHeaders();
  pipeline(source, raw, (err) => {
    if (err) report(context, err, raw);
  });
}

function report(context: StreamContext | undefined, err: unknown, raw: ServerResponse): void {
  // The client leaving is not the server's failure.
  if (IGNORED.has((err as NodeJS.ErrnoException | null)?.code ?? '')) return;
  if (context && raw.req) context.report(err, raw.req);
}
