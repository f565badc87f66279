import type { ServerResponse } from 'node:http';
import { JSON_BODY, SETTLE_JSON, type TernResponse } from './response';
import { writeStreamBody, type StreamContext } from './write-stream';

const NO_BODY = new Set([204, 304]);
/**
 * Text bodies longer than this (in UTF-16 units) go out as bytes. Node writes a string body by
 * joining it to the headers (a second string) and, when the socket cannot take it at once,
 * copying what is left into a buffer of its own: a client that stops reading an 8 MiB answer
 * held both. Encoded once and the text let go, the body is held once, and only until the
 * client takes it or the send timeout cuts it (server.ts). Short bodies keep the one joined
 * write, which costs less than encoding them apart.
 */
const LARGE_TEXT = 64 * 1024;
const FALLBACK = JSON.stringify({ type: 'about:blank', title: 'Internal Server Error', status: 500, detail: 'Internal Server Error' });

/**
 * Writes the finished response to the socket, once. Node throws on header values with CRLF or
 * non-Latin-1 text; that becomes a plain 500 instead of a crashed process.
 */
export function writeResponse(raw: ServerResponse, res: TernResponse, closeConnection: boolean, streams?: StreamContext): void {
  const streamBody = res.streamBody;
  // A mounted app (or a streaming handler) may have answered on the raw response already.
  if (raw.headersSent || raw.writableEnded || raw.destroyed) {
    streamBody?.discard();
    return;
  }
  if (res.serializers !== undefined) res[SETTLE_JSON]();
  const headers = res.headers;
  if (streamBody) {
    if (res.body === null) {
      if (closeConnection) headers.connection = 'close';
      writeStreamBody(raw, res.statusCode, headers, streamBody, streams, writeFallback);
      return;
    }
    // Another body replaced the stream (an error answer): the stream is never read.
    streamBody.discard();
  }
  let body = NO_BODY.has(res.statusCode) ? null : res.body;
  if (typeof body === 'string' && body.length > LARGE_TEXT && raw.req?.method !== 'HEAD') {
    body = res.body = Buffer.from(body);
    res[JSON_BODY] = undefined;
  }
  // A handler that asked for chunked framing gets it; RFC 9112 §6.1 forbids sending both.
  if (headers['transfer-encoding'] !== undefined) delete headers['content-length'];
  else if (body !== null) headers['content-length'] = String(Buffer.byteLength(body));
  else if (!NO_BODY.has(res.statusCode)) headers['content-length'] = '0';
  // After a 413 the rest of the body is unread: closing stops Node from draining it.
  if (closeConnection || res.statusCode === 413) headers.connection = 'close';
  try {
    raw.writeHead(res.statusCode, headers);
  } catch {
    writeFallback(raw);
    return;
  }
  // HEAD answers carry GET's headers (Content-Length included) but never a body.
  raw.end(body === null || raw.req?.method === 'HEAD' ? undefined : body);
}

function writeFallback(raw: ServerResponse): void {
  try {
    for (const name of raw.getHeaderNames()) raw.removeHeader(name);
    raw.writeHead(500, {
      'content-type': 'application/problem+json; charset=utf-8',
      'content-length': String(Buffer.byteLength(FALLBACK)),
    });
    raw.end(FALLBACK);
  } catch {
    raw.destroy();
  }
}
