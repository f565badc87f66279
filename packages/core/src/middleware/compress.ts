import { pipeline } from 'node:stream';
import { promisify } from 'node:util';
import type * as Zlib from 'node:zlib';
import { TernError } from '../errors/tern-error';
import type { TernRequest } from '../http/request';
import type { TernResponse } from '../http/response';
import { onFirstUse } from '../http/on-first-use';
import type { StreamBody } from '../http/stream-body';
import type { Middleware } from '../routing/types';
import { negotiateEncoding, type ContentCoding } from './accept-encoding';
import { isCompressibleType } from './compressible';
import { appendVary } from './vary';

export type { ContentCoding } from './accept-encoding';
export { isCompressibleType } from './compressible';

/**
 * Options of {@link compress}.
 *
 * @example
 * const options: CompressOptions = { threshold: 2048, encodings: ['gzip'], gzip: { level: 4 } };
 */
export interface CompressOptions {
  /** Bodies smaller than this many bytes are sent as they are; default 1024. */
  threshold?: number;
  /** The codings to offer, in the server's order of preference; default `['br', 'gzip']`. */
  encodings?: readonly ContentCoding[];
  /**
   * Which answers to compress, from their `Content-Type`; default {@link isCompressibleType}
   * (text, JSON, XML, JavaScript; never images, audio, video, archives).
   */
  filter?: (contentType: string | undefined, req: TernRequest, res: TernResponse) => boolean;
  /** node:zlib options for gzip (default level 6, zlib's own default). */
  gzip?: Zlib.ZlibOptions;
  /** node:zlib options for brotli; the default quality is 4, not zlib's 11 (see docs/compression.md). */
  brotli?: Zlib.BrotliOptions;
}

/**
 * Below this size a body is compressed synchronously: measured on Node 20, gzip or brotli
 * (quality 4) of a 16 KiB JSON body takes about 50 µs, while the thread-pool round trip of the
 * async call adds 150–200 µs of latency. From here up the event loop would be blocked for long
 * enough (0.3 ms at 128 KiB, 7 ms at 1 MiB) that handing the work to the pool is worth it.
 */
const SYNC_LIMIT = 64 * 1024;

/** Brotli's own default (11) spends about 500× gzip's time for a few percent; 4 is faster than gzip and smaller. */
const BROTLI_QUALITY = 4;

// node:zlib is loaded by the first response compressed, not by every app that loads Tern.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const zlib = onFirstUse(() => require('node:zlib') as typeof Zlib);
let asyncCoders: { gzip: (input: Buffer, options: Zlib.ZlibOptions) => Promise<Buffer>; br: (input: Buffer, options: Zlib.BrotliOptions) => Promise<Buffer> } | undefined;
function coders() {
  return (asyncCoders ??= { gzip: promisify(zlib().gzip), br: promisify(zlib().brotliCompress) });
}
const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;

/**
 * Response compression for `app.addMiddleware`: gzip or brotli for bodies at or above `threshold`
 * whose type compresses well, when the request's `Accept-Encoding` accepts one (brotli preferred
 * at equal q). Sets `Content-Encoding` and `Vary: Accept-Encoding`, drops a stale
 * `Content-Length` and weakens a strong `ETag`. Stream bodies (`res.stream()`,
 * `res.file()`) are compressed as they stream, when their type qualifies and their length (when
 * known) reaches `threshold`; event streams are not (see isCompressibleType). Leaves alone HEAD,
 * 204/304/206 (a range of a file), bodies already encoded or marked `Cache-Control: no-transform`.
 * Error answers made by exception handlers are written after app middleware and are not compressed.
 *
 * @example
 * app.addMiddleware(compress({ threshold: 2048 }));
 */
export function compress(options: CompressOptions = {}): Middleware {
  const threshold = options.threshold ?? 1024;
  if (typeof threshold !== 'number' || !(threshold >= 0)) {
    throw new TernError('TERN_INVALID_COMPRESS_OPTIONS', `compress(): threshold must be a number of bytes, got ${String(threshold)}.`);
  }
  const encodings = options.encodings ?? (['br', 'gzip'] as const);
  for (const coding of encodings) {
    if (coding !== 'br' && coding !== 'gzip') {
      throw new TernError('TERN_INVALID_COMPRESS_OPTIONS', `compress(): encodings may hold 'br' and 'gzip', got '${String(coding)}'.`);
    }
  }
  const filter = options.filter ?? isCompressibleType;
  const gzipOptions = options.gzip ?? {};
  const brotliOptions = options.brotli ?? {};

  return async (req, res, next) => {
    const response = await next();
    const body = response.body;
    if (body === null && response.streamBody) {
      const coding = chooseCoding(req, response, response.streamBody.length ?? Infinity, { threshold, encodings, filter });
      if (coding !== null) compressStream(response, coding, coding === 'br' ? { ...brotliOptions, params: { [zlib().constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, ...brotliOptions.params } } : gzipOptions);
      return response;
    }
    if (typeof body !== 'string' && !Buffer.isBuffer(body)) return response;
    const coding = chooseCoding(req, response, typeof body === 'string' ? Buffer.byteLength(body) : body.length, { threshold, encodings, filter });
    if (coding === null) return response;

    const input = typeof body === 'string' ? Buffer.from(body) : body;
    const brotli = { ...brotliOptions, params: { [zlib().constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [zlib().constants.BROTLI_PARAM_SIZE_HINT]: input.length, ...brotliOptions.params } };
    let output: Buffer;
    if (input.length < SYNC_LIMIT) {
      output = coding === 'br' ? zlib().brotliCompressSync(input, brotli) : zlib().gzipSync(input, gzipOptions);
    } else {
      output = coding === 'br' ? await coders().br(input, brotli) : await coders().gzip(input, gzipOptions);
    }
    response.body = output;
    response.setHeader('content-encoding', coding);
    // The writer measures the new body; a length the handler set describes the old one.
    response.removeHeader('content-length');
    weakenETag(response);
    return response;
  };
}

interface Settings {
  threshold: number;
  encodings: readonly ContentCoding[];
  filter: NonNullable<CompressOptions['filter']>;
}

/** The coding to apply, or `null`; adds `Vary: Accept-Encoding` whenever the answer could have differed by it. */
function chooseCoding(req: TernRequest, res: TernResponse, size: number, settings: Settings): ContentCoding | null {
  // No body to speak of, or a part of one: compressing a range would break the client's assembly.
  if (res.statusCode === 204 || res.statusCode === 304 || res.statusCode === 206) return null;
  const contentType = headerText(res.getHeader('content-type'));
  if (!settings.filter(contentType, req, res)) return null;
  if (NO_TRANSFORM.test(headerText(res.getHeader('cache-control')) ?? '')) return null;
  // From here the answer depends on Accept-Encoding for some request, so caches must key on it
  // (HEAD and small bodies included, as the compression package does).
  appendVary(res, 'Accept-Encoding');
  if (size < settings.threshold) return null;
  const encoding = headerText(res.getHeader('content-encoding'));
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') return null;
  if (req.method === 'HEAD') return null;
  return negotiateEncoding(req.headers.get('accept-encoding'), settings.encodings);
}

/**
 * Puts a zlib stream between the recorded source and the writer: the writer's pipeline keeps
 * backpressure, and destroying either end (client gone, source failed) tears down the other.
 * The length is no longer known, so the answer goes out chunked.
 */
function compressStream(res: TernResponse, coding: ContentCoding, options: Zlib.ZlibOptions | Zlib.BrotliOptions): void {
  const inner = res.streamBody as StreamBody;
  res.streamBody = {
    open: (signal) => {
      const zip = coding === 'br' ? zlib().createBrotliCompress(options as Zlib.BrotliOptions) : zlib().createGzip(options as Zlib.ZlibOptions);
      // Failures surface through the writer's own pipeline (zip is destroyed with the error).
      pipeline(inner.open(signal), zip, () => {});
      return zip;
    },
    discard: () => inner.discard(),
    flushHeaders: inner.flushHeaders,
  };
  res.setHeader('content-encoding', coding);
  res.removeHeader('content-length');
  weakenETag(res);
}

/** The body changes byte for byte, so a strong validator no longer holds; a weak one still does. */
function weakenETag(res: TernResponse): void {
  const etag = headerText(res.getHeader('etag'));
  if (etag !== undefined && !etag.startsWith('W/')) res.setHeader('etag', `W/${etag}`);
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}
