import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { TernTypeError } from '../errors';

/**
 * What `res.stream()` accepts: a Node `Readable`, a web `ReadableStream`, or an async iterable of
 * strings and bytes (an async generator, for instance).
 *
 * @example
 * const source: StreamSource = (async function* () { yield 'a'; yield new Uint8Array([98]); })();
 */
export type StreamSource = Readable | WebReadableStream<Uint8Array | string> | globalThis.ReadableStream | AsyncIterable<string | Uint8Array>;

/**
 * A response body that is not in memory: `res.stream()`, `res.sse()` and `res.file()` record one,
 * and the writer (http/write-stream.ts) pipes it out after the middleware chain has finished.
 * The source is opened by the writer only, so a body that is never sent (HEAD, 304, replaced by
 * an error answer) is discarded without being read.
 *
 * @example
 * res.streamBody = { open: () => Readable.from(['hi']), discard: () => {} };
 */
export interface StreamBody {
  /** Opens the source, once; `signal` aborts when the app closes (event streams end on it). */
  open(signal: AbortSignal): Readable;
  /** Frees the source without reading it (HEAD, 204/304, a response replaced by another body). */
  discard(): void;
  /** The byte length when known (a file): sent as Content-Length; otherwise the body is chunked. */
  length?: number;
  /** Send the headers at once instead of with the first chunk (event streams). */
  flushHeaders?: boolean;
  /**
   * Writes the body itself, in place of `open()` and a pipe (a file: one reused buffer, see
   * http/file-writer.ts); `done` runs once, with the error that cut the body short if any.
   * Middleware that wraps the body (compression) calls `open()` and drops this.
   */
  writeTo?(raw: ServerResponse, done: (err?: unknown) => void): void;
}

/** Records `source` as a body; checked at the call so a wrong argument fails in the handler. */
export function streamBodyOf(source: StreamSource): StreamBody {
  if (source instanceof Readable) {
    return { open: () => source, discard: () => source.destroy() };
  }
  if (isWebStream(source)) {
    return {
      open: () => Readable.fromWeb(source as WebReadableStream),
      discard: () => void source.cancel().catch(() => {}),
    };
  }
  if (source !== null && typeof source === 'object' && typeof (source as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function') {
    const iterable = source as AsyncIterable<string | Uint8Array>;
    // Byte mode: strings and bytes only; anything else fails the stream (and cuts the response).
    return { open: () => Readable.from(iterable, { objectMode: false }), discard: () => closeIterable(iterable) };
  }
  throw new TernTypeError('TERN_INVALID_ARGUMENT', 'res.stream() expects a Readable, a ReadableStream or an async iterable of strings or bytes.');
}

function isWebStream(source: unknown): source is WebReadableStream {
  return typeof (source as WebReadableStream | null)?.getReader === 'function' && typeof (source as WebReadableStream).cancel === 'function';
}

/** Lets a generator that never ran (or is suspended at a yield) run its `finally` blocks. */
export function closeIterable(iterable: AsyncIterable<unknown>): void {
  try {
    const iterator = iterable[Symbol.asyncIterator]();
    void iterator.return?.()?.catch?.(() => {});
  } catch {
    // A broken iterable has nothing to clean up that we could reach.
  }
}
