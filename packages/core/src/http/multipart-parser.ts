/**
 * One multipart body fed through busboy with Tern's rules: the declared length is checked first,
 * bytes are counted against `bodyLimit` while streaming, each busboy limit becomes a 413 naming
 * it, malformed framing a 400, a client that goes away `TERN_CLIENT_ABORTED`. Nothing touches
 * the disk: file contents go to whoever consumes each file stream.
 */
import type { IncomingMessage } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';
import type busboy from 'busboy';
import type { HTTPException } from '../errors';
import { requestError } from '../errors/request-error';
import { declaredLengthExceeds, payloadTooLarge, watchBody } from './body';
import { uploadFileName } from './file-name';
import { assertMediaType } from './media-type';
import { boundaryOf, MAX_PART_HEADER_LINES, PartHeadScanner } from './multipart-heads';
import { multipartLimit, type ResolvedLimits } from './multipart-limits';
import { onFirstUse } from './on-first-use';

/** A file part as it starts: its contents arrive on `stream`. */
export interface FilePartStart {
  fieldName: string;
  /**
   * The client's file name, reduced to its last path segment by busboy, without control or
   * bidirectional formatting characters; never a path Tern uses.
   */
  filename: string;
  mimeType: string;
  /** Errors with the 413 problem if the file passes `fileSize`, or with the abort. */
  stream: Readable;
}

/** Receives the parts of one body, then `done` exactly once. */
export interface MultipartSink {
  field(fieldName: string, value: string): void;
  file(part: FilePartStart): void;
  done(err?: HTTPException): void;
}

/** A parse under way; `abort` stops it (the sink's `done` is called with the error). */
export interface MultipartSession {
  abort(err: HTTPException): void;
}

/**
 * Starts parsing `req` into `sink`. Throws (before reading anything) the 415 for another
 * content type, the 413 for a declared length over `bodyLimit`, the 400 for a missing boundary.
 */
export function openMultipart(req: IncomingMessage, limits: ResolvedLimits, bodyLimit: number, sink: MultipartSink): MultipartSession {
  const started = handedOn.get(req);
  if (started !== undefined) {
    handedOn.delete(req);
    return started(sink);
  }
  assertMediaType(req, 'multipart/form-data', 'a multipart body');
  if (declaredLengthExceeds(req, bodyLimit)) throw payloadTooLarge(bodyLimit);
  let parser: busboy.Busboy;
  try {
    parser = loadBusboy()({
      headers: req.headers,
      // busboy reports a file or field that reaches its limit exactly; one more byte means "over".
      limits: { fileSize: limits.fileSize + 1, files: limits.files, fields: limits.fields, parts: limits.parts + 1, fieldSize: limits.fieldSize + 1 },
      defParamCharset: 'utf8',
    });
  } catch (err) {
    throw requestError('TERN_INVALID_MULTIPART', `The multipart body cannot be parsed: ${(err as Error).message}.`);
  }

  // busboy ignores headerPairs for multipart and reports a part without Content-Type as
  // text/plain: a light second reading of the part heads enforces the one and corrects the other.
  const boundary = boundaryOf(req.headers['content-type']);
  const heads = boundary === undefined ? undefined : new PartHeadScanner(boundary, limits.parts + 1);
  let settled = false;
  let detach = () => {};
  let current: Readable | undefined;

  const cleanup = () => {
    detach();
    parser.off('drain', onDrain);
  };
  const fail = (err: HTTPException) => {
    if (settled) return;
    settled = true;
    cleanup();
    // Stop reading: the answer closes the connection rather than draining an unwanted body.
    if (!req.complete) req.pause();
    const failure = withClose(err, req);
    // busboy raises its limit events in the middle of its own write; tearing it down there
    // would pull state from under it, so the teardown waits for that write to return.
    process.nextTick(() => {
      current?.destroy(failure);
      parser.destroy();
      sink.done(failure);
    });
  };
  const onDrain = () => {
    if (!settled) req.resume();
  };

  parser.on('field', (name, value, info) => {
    if (settled) return;
    if (info.valueTruncated) return fail(multipartLimit('fieldSize', `Field '${name}' is longer than ${limits.fieldSize} bytes`));
    sink.field(name, value);
  });
  parser.on('file', (name, stream, info) => {
    if (settled) {
      stream.resume();
      return;
    }
    // Consumers get a stream of Tern's own: when busboy fails it destroys its file stream with
    // its raw error, and the consumer must see Tern's problem (through `fail`) instead.
    const contents = new PassThrough();
    // Failures reach the sink; an error nobody listens for must not crash the process.
    stream.on('error', ignore);
    contents.on('error', ignore);
    stream.pipe(contents);
    current = contents;
    stream.on('limit', () => fail(multipartLimit('fileSize', `File '${info.filename ?? name}' in field '${name}' is larger than ${limits.fileSize} bytes`)));
    contents.on('end', () => {
      if (current === contents) current = undefined;
    });
    const head = info.mimeType === 'text/plain' ? heads?.takeFile(name) : undefined;
    const mimeType = head !== undefined && !head.hasContentType ? 'application/octet-stream' : info.mimeType;
    sink.file({ fieldName: name, filename: uploadFileName(info.filename), mimeType, stream: contents });
  });
  parser.on('filesLimit', () => fail(multipartLimit('files', `The body has more than ${limits.files} files`)));
  parser.on('fieldsLimit', () => fail(multipartLimit('fields', `The body has more than ${limits.fields} fields`)));
  parser.on('partsLimit', () => fail(multipartLimit('parts', `The body has more than ${limits.parts} parts`)));
  parser.on('error', (err: Error) => fail(requestError('TERN_INVALID_MULTIPART', `The multipart body is malformed: ${err.message}.`)));
  parser.on('close', () => {
    if (settled) return;
    settled = true;
    cleanup();
    sink.done();
  });
  parser.on('drain', onDrain);

  if (req.readableEnded) parser.end();
  else {
    const chunk = (data: Buffer): boolean | undefined => {
      heads?.push(data);
      if (heads?.tooManyLines) {
        fail(multipartLimit('headerPairs', `A part has more than ${MAX_PART_HEADER_LINES} header lines`));
        return undefined;
      }
      return parser.write(data);
    };
    detach = watchBody(req, bodyLimit, { chunk, end: () => parser.end(), fail });
  }
  return { abort: fail };
}

/**
 * Parses already under way for a request (started by a look at its leading fields, see
 * multipart-leading.ts), each waiting for the request's next multipart read to take it over.
 */
const handedOn = new WeakMap<IncomingMessage, (sink: MultipartSink) => MultipartSession>();

/** Makes the next `openMultipart` of `req` continue a parse already started, through `attach`. */
export function handOnParse(req: IncomingMessage, attach: ((sink: MultipartSink) => MultipartSession) | undefined): void {
  if (attach === undefined) handedOn.delete(req);
  else handedOn.set(req, attach);
}

/** A failure before the body was all read also asks to close the connection (see write.ts for 413). */
function withClose(err: HTTPException, req: IncomingMessage): HTTPException {
  if (req.complete || err.status === 413) return err;
  return requestError(err.code ?? 'TERN_INVALID_MULTIPART', err.detail ?? err.message, { headers: { ...err.headers, connection: 'close' } });
}

function ignore(): void {}

/** busboy is loaded by the first multipart body, not with Tern: most apps never read one. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const loadBusboy = onFirstUse(() => require('busboy') as typeof busboy);
