import type { IncomingMessage } from 'node:http';
import type SecureJson from 'secure-json-parse';
import type { HTTPException } from '../errors';
import { requestError } from '../errors/request-error';
import type { ResolvedLimits } from './multipart-limits';
import { onFirstUse } from './on-first-use';

/** Limits applied to request bodies: `MakeConfig`'s, or a route's own (`bodyLimit`, `multipartLimit` route options). */
export interface BodyLimits {
  /** Largest body accepted, in bytes (default 1 MiB). */
  bodyLimit: number;
  /** Largest `multipart/form-data` body, in bytes (`MakeConfig` defaults it to `bodyLimit`). */
  multipartLimit: number;
  /** Deepest JSON nesting accepted; deeper bodies would overflow validators (default 64). */
  jsonDepthLimit: number;
  /** Most fields a urlencoded form may have (default 1000). */
  formFieldLimit?: number;
  /** A route's `multipart` option, resolved in `ready()`: what `req.multipart()` and `req.parts()` read with when given no options. */
  multipart?: ResolvedLimits;
}

/** True when the declared Content-Length alone already exceeds the limit. */
export function declaredLengthExceeds(req: IncomingMessage, limit: number): boolean {
  const declared = req.headers['content-length'];
  return declared !== undefined && Number(declared) > limit;
}

export function payloadTooLarge(limit: number) {
  return requestError('TERN_BODY_TOO_LARGE', `Request body exceeds the limit of ${limit} bytes.`);
}

/** The answer when the client goes away before its whole body arrived. */
export function clientAborted() {
  return requestError('TERN_CLIENT_ABORTED', 'The client closed the connection before sending the whole body.');
}

/** Where `watchBody` delivers a body: chunks, then exactly one of `end` or `fail`. */
export interface BodySink {
  /** A chunk within the limit; `false` pauses the request until the reader resumes it. */
  chunk(chunk: Buffer): boolean | void;
  end(): void;
  /** The 413, `TERN_CLIENT_ABORTED` or `TERN_BODY_READ_FAILED`; the request is paused, nothing more is read. */
  fail(err: HTTPException): void;
}

/**
 * The one read loop of the body readers (`readBody`, `limitedBodyStream`, multipart): counts
 * bytes against `limit` (chunked bodies have no length to check up front), tells a client that
 * went away from a failed read, and stops listening at the end or the first failure. Returns the
 * function that stops listening early.
 */
export function watchBody(req: IncomingMessage, limit: number, sink: BodySink): () => void {
  let size = 0;
  const detach = () => {
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('error', onError);
    req.off('close', onClose);
  };
  const fail = (err: HTTPException) => {
    detach();
    // Stop reading: the answer closes the connection rather than draining an unwanted body.
    if (!req.complete) req.pause();
    sink.fail(err);
  };
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size > limit) return fail(payloadTooLarge(limit));
    if (sink.chunk(chunk) === false) req.pause();
  };
  const onEnd = () => {
    detach();
    sink.end();
  };
  // Node reports a client that hung up mid-body as an 'aborted' ECONNRESET error.
  const onError = (err: NodeJS.ErrnoException) =>
    fail(err.code === 'ECONNRESET' || !req.complete ? clientAborted() : requestError('TERN_BODY_READ_FAILED', `The request body could not be read: ${err.message}`));
  const onClose = () => {
    if (!req.complete) fail(clientAborted());
  };
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', onError);
  req.on('close', onClose);
  return detach;
}

/** Reads the whole body into a Buffer within `limit`; rejects when the client goes away, so no promise is left pending. */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  if (declaredLengthExceeds(req, limit)) return Promise.reject(payloadTooLarge(limit));
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    watchBody(req, limit, {
      chunk: (chunk) => {
        size += chunk.length;
        chunks.push(chunk);
      },
      end: () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)),
      fail: reject,
    });
  });
}

/** secure-json-parse, loaded for the first body that may hide a forbidden key (`mayHideForbiddenKey`). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const secureJson = onFirstUse(() => require('secure-json-parse') as typeof SecureJson);

/**
 * Parses JSON text, refusing prototype-poisoning keys and nesting deeper than the limit, each with
 * a 400 that says what was wrong.
 */
export function parseJson(text: string, depthLimit: number): unknown {
  if (exceedsDepth(text, depthLimit)) {
    throw requestError('TERN_JSON_TOO_DEEP', `JSON body nests deeper than ${depthLimit} levels.`);
  }
  try {
    return mayHideForbiddenKey(text) ? secureJson().parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }) : JSON.parse(text);
  } catch (err) {
    const message = (err as Error).message;
    if (/prototype/i.test(message)) {
      throw requestError('TERN_JSON_FORBIDDEN_KEY', 'JSON body contains a forbidden __proto__ or constructor.prototype key.');
    }
    throw requestError('TERN_INVALID_JSON', `Request body is not valid JSON: ${message}`);
  }
}

/**
 * Whether `text` may hold a `__proto__` or `constructor` key in a spelling secure-json-parse
 * looks for. It cannot when it names neither, escapes no character as `\u…` (the only way to
 * spell them otherwise) and starts with no byte-order mark (which secure-json-parse removes
 * before parsing). Such a body, nearly every body, is parsed by one `JSON.parse`: three substring
 * searches instead of secure-json-parse's two regular-expression scans of the whole text.
 */
function mayHideForbiddenKey(text: string): boolean {
  return text.charCodeAt(0) === 0xfeff || text.indexOf('\\u') !== -1 || text.indexOf('__proto__') !== -1 || text.indexOf('constructor') !== -1;
}

/**
 * True when JSON nests deeper than `limit`. Nesting can never exceed the number of opening
 * brackets, which `indexOf` counts far faster than a character loop: only a body with more
 * brackets than the limit pays for the exact scan.
 */
function exceedsDepth(text: string, limit: number): boolean {
  if (countOf(text, '{', limit) + countOf(text, '[', limit) <= limit) return false;
  return exactDepthExceeds(text, limit);
}

/** Occurrences of `char`, counting no further than `stopAfter`. */
function countOf(text: string, char: string, stopAfter: number): number {
  let count = 0;
  for (let i = text.indexOf(char); i !== -1 && count <= stopAfter; i = text.indexOf(char, i + 1)) count++;
  return count;
}

/** A linear scan of bracket depth outside strings. */
function exactDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91 /* { [ */) {
      if (++depth > limit) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}
