import { createReadStream, type Stats } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { basename, dirname, isAbsolute, join, normalize, sep } from 'node:path';
import type sendType from 'send';
import { TernTypeError } from '../errors';
import { requestError } from '../errors/request-error';
import { writeFileRange } from './file-writer';
import { containment } from './inside-root';
import type { StreamBody } from './stream-body';

/**
 * Options of `res.file()` (and, for the cache and dotfile settings, `serveStatic()`).
 *
 * @example
 * await res.file('report.pdf', { root: '/srv/files', download: 'report-2026.pdf', maxAge: '1h' });
 */
export interface FileOptions {
  /** The folder `path` is relative to; the file must stay inside it (symlinks included). Without it, `path` must be absolute. */
  root?: string;
  /** Sends `Content-Disposition: attachment`; a string is the file name offered (default: the file's own name). */
  download?: boolean | string;
  /** `Cache-Control: max-age`, in ms or as a string such as `'1d'` (send's format); default 0. */
  maxAge?: number | string;
  /** Adds `immutable` to Cache-Control (use with maxAge for fingerprinted assets). */
  immutable?: boolean;
  /** Sends an ETag (and answers `If-None-Match` with 304); default true. */
  etag?: boolean;
  /** Sends Last-Modified (and answers `If-Modified-Since` with 304); default true. */
  lastModified?: boolean;
  /** Paths with a segment starting with `.`: `'deny'` (403, the default), `'ignore'` (404) or `'allow'`. */
  dotfiles?: 'deny' | 'ignore' | 'allow';
}

/** What send() records on the response: status, headers, and the file slice to stream (none for 304/HEAD). */
export interface PreparedFile {
  statusCode: number;
  headers: Record<string, string | string[]>;
  body: StreamBody | null;
}

/** send's last step (private, stable since send 0.x): pipe this slice of the file to the response. */
type StreamStep = (file: string, range: { start: number; end: number }) => void;

/**
 * Runs send's checks (range, conditional GET, content type, cache headers) for one file and
 * records their outcome instead of writing it: the response stays a value middleware can still
 * change, and send's own HTML error pages become Tern's problem answers (404 `TERN_FILE_NOT_FOUND`,
 * 403 `TERN_FILE_FORBIDDEN`, 416 `TERN_RANGE_NOT_SATISFIABLE`, 412 `TERN_PRECONDITION_FAILED`).
 */
export async function prepareFile(
  req: IncomingMessage,
  path: string,
  options: FileOptions,
  current: { statusCode: number; headers: Record<string, string | string[]> },
): Promise<PreparedFile> {
  if (typeof path !== 'string' || path === '') throw new TernTypeError('TERN_INVALID_ARGUMENT', 'res.file() expects a file path.');
  let root = options.root;
  let relative = path;
  if (root === undefined) {
    if (!isAbsolute(path)) throw new TernTypeError('TERN_INVALID_ARGUMENT', `res.file('${path}'): give { root } or an absolute path.`);
    root = dirname(path);
    relative = basename(path);
  } else if (typeof root !== 'string') {
    throw new TernTypeError('TERN_INVALID_ARGUMENT', 'res.file(): root must be a folder path.');
  }
  const dotfiles = options.dotfiles ?? 'deny';
  const normalized = normalize('.' + sep + relative);
  if (relative.includes('\0')) throw notFound(path);
  if (/(?:^|[\\/])\.\.(?:[\\/]|$)/.test(normalized)) throw forbidden(path);
  if (dotfiles !== 'allow' && normalized.split(sep).some((part) => part.length > 1 && part[0] === '.')) {
    throw dotfiles === 'deny' ? forbidden(path) : notFound(path);
  }
  const recorder = new Recorder(current);
  // send takes a URL path and decodes it: encode each segment so '%' or '?' in a name stay literal.
  const encoded = normalized.split(sep).map(encodeURIComponent).join('/');
  const stream = loadSend()(req, encoded, {
    root,
    dotfiles,
    index: false,
    etag: options.etag ?? true,
    lastModified: options.lastModified ?? true,
    maxAge: options.maxAge ?? 0,
    immutable: options.immutable ?? false,
  });
  let failure: unknown;
  const outcome = await new Promise<{ file: string; start: number; end: number } | null>((resolve, reject) => {
    stream.on('error', (err: { status?: number; code?: string; headers?: Record<string, string> }) => reject(sendError(err, path)));
    stream.on('directory', () => reject(notFound(path)));
    // send's last step pipes a read stream into the response; the writer does that instead.
    (stream as unknown as { stream: StreamStep }).stream = (file, range) => resolve({ file, start: range.start, end: range.end });
    recorder.onEnd = () => resolve(null);
    stream.on('file', (file: string, stat: Stats) => {
      recorder.file = file;
      recorder.stat = stat;
    });
    stream.pipe(recorder as unknown as ServerResponse);
  }).catch((err: unknown) => {
    failure = err;
    return null;
  });
  // Whatever send decided (a 304, a 412, a range), a file found outside the root is refused first.
  if (recorder.stat !== undefined) {
    const where = await containment(root, join(root, normalized), recorder.stat);
    if (where === 'outside') throw forbidden(path);
    if (where === 'missing') throw notFound(path);
  }
  if (failure !== undefined) throw failure;
  if (options.download !== undefined && options.download !== false) {
    const name = typeof options.download === 'string' ? options.download : basename(relative);
    recorder.headers['content-disposition'] = contentDisposition(name);
  }
  const { statusCode, headers } = recorder;
  const length = Number(headers['content-length']);
  let body: StreamBody | null = null;
  if (outcome) {
    const { file, start, end } = outcome;
    body = {
      length,
      open: () => createReadStream(file, { start, end }),
      writeTo: (raw, done) => writeFileRange(raw, file, start, length, done),
      discard: () => {},
    };
  } else if (statusCode === 200 || statusCode === 206) {
    // HEAD: send ended after the headers; keep its Content-Length for the writer.
    const file = recorder.file;
    body = { length, open: () => createReadStream(file), discard: () => {} };
  }
  return { statusCode, headers, body };
}

function sendError(err: { status?: number; code?: string; headers?: Record<string, string> }, path: string): unknown {
  // A symlink loop is no file at all, as for a missing one.
  if (err.code === 'ELOOP') return notFound(path);
  switch (err.status) {
    case 404:
      return notFound(path);
    case 403:
      return forbidden(path);
    case 400:
      return notFound(path);
    case 412:
      return requestError('TERN_PRECONDITION_FAILED', 'The file changed since the version the request names.');
    case 416:
      return requestError('TERN_RANGE_NOT_SATISFIABLE', 'The requested range is outside the file.', { headers: err.headers });
    default:
      return err;
  }
}

function notFound(path: string) {
  return requestError('TERN_FILE_NOT_FOUND', `No file at ${JSON.stringify(path)}.`);
}

function forbidden(path: string) {
  return requestError('TERN_FILE_FORBIDDEN', `The path ${JSON.stringify(path)} is not served.`);
}

/**
 * `attachment` with the name: an ASCII fallback in `filename` and the exact name in `filename*`
 * (RFC 6266 / RFC 8187) when it has other characters.
 */
export function contentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  if (fallback === name) return `attachment; filename="${name}"`;
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * The part of a ServerResponse send uses, recording into a copy of the response's status and
 * headers: what send set is kept only when it succeeds (an error answer must not carry its ETag).
 */
class Recorder {
  readonly headersSent = false;
  statusCode: number;
  readonly headers: Record<string, string | string[]>;
  file = '';
  /** The file as send found it (the 'file' event), before it decided anything. */
  stat?: Stats;
  onEnd: () => void = () => {};

  constructor(current: { statusCode: number; headers: Record<string, string | string[]> }) {
    this.statusCode = current.statusCode;
    this.headers = { ...current.headers };
  }

  getHeader(name: string): string | string[] | undefined {
    return this.headers[name.toLowerCase()];
  }

  setHeader(name: string, value: string | number | string[]): void {
    this.headers[name.toLowerCase()] = Array.isArray(value) ? value.map(String) : String(value);
  }

  removeHeader(name: string): void {
    delete this.headers[name.toLowerCase()];
  }

  getHeaderNames(): string[] {
    return Object.keys(this.headers);
  }

  end(): void {
    this.onEnd();
  }
}

let sendModule: typeof sendType | undefined;

/** send (with mime-db, ~25 ms to load) is loaded by the first file served, not with Tern. */
function loadSend(): typeof sendType {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (sendModule ??= require('send') as typeof sendType);
}
