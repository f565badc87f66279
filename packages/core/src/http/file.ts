import { close, constants as fsConstants, createReadStream, fstat, open, type Stats } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { basename, dirname, isAbsolute, join, normalize, sep } from 'node:path';
import { Readable } from 'node:stream';
import type sendType from 'send';
import { TernTypeError } from '../errors';
import { requestError } from '../errors/request-error';
import { writeFileRange } from './file-writer';
import { containment, sameFile, type Containment } from './inside-root';
import { onFirstUse } from './on-first-use';
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

/** What send decided for one file, recorded instead of written. */
interface SendOutcome {
  recorder: Recorder;
  /** The slice send would stream, when the answer has a body to send. */
  slice: { start: number; end: number } | null;
  /** The problem answer send's decision maps to (404, 403, 412, 416...). */
  failure?: unknown;
}

/** `open()` flags: a FIFO or device swapped in must not block a thread-pool thread on open. */
const OPEN_FLAGS = fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0);

/**
 * Runs send's checks (range, conditional GET, content type, cache headers) for one file and
 * records their outcome instead of writing it: the response stays a value middleware can still
 * change, and send's own HTML error pages become Tern's problem answers (404 `TERN_FILE_NOT_FOUND`,
 * 403 `TERN_FILE_FORBIDDEN`, 416 `TERN_RANGE_NOT_SATISFIABLE`, 412 `TERN_PRECONDITION_FAILED`).
 *
 * The file sent is the descriptor whose place was checked: it is opened, its identity taken
 * with `fstat`, and that identity must be what send described and must sit at a real path inside
 * the root (inside-root.ts). A path swapped for a symlink between any two of those steps fails
 * the comparison instead of being served; the whole check is run once more (a file replaced by a
 * deploy), then answered 503 `TERN_FILE_CHANGING`.
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
  const full = join(root, normalized);
  for (let attempt = 0; attempt < 2; attempt++) {
    const outcome = await runSend(req, root, normalized, dotfiles, options, current, path);
    const prepared = await checked(outcome, root, full, path, relative, options);
    if (prepared !== 'changed') return prepared;
  }
  throw requestError('TERN_FILE_CHANGING', `The file at ${JSON.stringify(path)} changed while it was checked; try again.`, { headers: { 'retry-after': '1' } });
}

/** Runs send on a copy of the request's headers that the Range fixes (range-fixes below) may change. */
async function runSend(
  req: IncomingMessage,
  root: string,
  normalized: string,
  dotfiles: 'deny' | 'ignore' | 'allow',
  options: FileOptions,
  current: { statusCode: number; headers: Record<string, string | string[]> },
  path: string,
): Promise<SendOutcome> {
  const recorder = new Recorder(current);
  // send reads only the method and headers of the request.
  const request = { method: req.method, headers: { ...req.headers } };
  // send takes a URL path and decodes it: encode each segment so '%' or '?' in a name stay literal.
  const encoded = normalized.split(sep).map(encodeURIComponent).join('/');
  const stream = loadSend()(request as IncomingMessage, encoded, {
    root,
    dotfiles,
    index: false,
    etag: options.etag ?? true,
    lastModified: options.lastModified ?? true,
    maxAge: options.maxAge ?? 0,
    immutable: options.immutable ?? false,
  });
  let failure: unknown;
  const slice = await new Promise<{ start: number; end: number } | null>((resolve, reject) => {
    stream.on('error', (err: { status?: number; code?: string; headers?: Record<string, string> }) => reject(sendError(err, path)));
    stream.on('directory', () => reject(notFound(path)));
    // send's last step pipes a read stream into the response; the writer does that instead.
    (stream as unknown as { stream: StreamStep }).stream = (_file, range) => resolve({ start: range.start, end: range.end });
    recorder.onEnd = () => resolve(null);
    // 'file' comes after send's stat and before it reads the Range: the size is known in time.
    stream.on('file', (file: string, stat: Stats) => {
      recorder.file = file;
      recorder.stat = stat;
      fixRangeHeaders(request.headers, stat.size);
    });
    stream.pipe(recorder as unknown as ServerResponse);
  }).catch((err: unknown) => {
    failure = err;
    return null;
  });
  return { recorder, slice, failure };
}

/**
 * Where send's decision meets the disk again. Whatever send decided (a 304, a 412, a range), a
 * file outside the root is refused first. An answer with a body opens the file and checks the
 * descriptor; one without (304, 412, 416, HEAD) checks the file send described. `'changed'`: the
 * path led to another file than send's by the time it was opened or resolved.
 */
async function checked(
  outcome: SendOutcome,
  root: string,
  full: string,
  path: string,
  relative: string,
  options: FileOptions,
): Promise<PreparedFile | 'changed'> {
  const { recorder, slice, failure } = outcome;
  const stat = recorder.stat;
  if (stat === undefined) throw failure ?? notFound(path);
  if (slice === null) {
    const where = await containment(root, full, stat);
    if (where !== 'inside') return refuse(where, path);
    if (failure !== undefined) throw failure;
    return { statusCode: recorder.statusCode, headers: withDownload(recorder.headers, options, relative), body: headOnly(recorder) };
  }
  const fd = await openFile(full);
  if (fd === 'changed') return 'changed';
  let owned = true;
  try {
    const opened = await fstatOf(fd);
    if (!opened.isFile() || !sameContents(opened, stat)) return 'changed';
    const where = await containment(root, full, opened);
    if (where !== 'inside') return refuse(where, path);
    const length = Number(recorder.headers['content-length']);
    owned = false;
    return { statusCode: recorder.statusCode, headers: withDownload(recorder.headers, options, relative), body: descriptorBody(fd, recorder.file, slice.start, length) };
  } finally {
    if (owned) close(fd, () => {});
  }
}

function refuse(where: Exclude<Containment, 'inside'>, path: string): 'changed' {
  if (where === 'outside') throw forbidden(path);
  if (where === 'missing') throw notFound(path);
  return 'changed';
}

/** The same file as send's stat, with the size and time its headers were made from. */
function sameContents(opened: Stats, described: Stats): boolean {
  return sameFile(opened, described) && opened.size === described.size && opened.mtimeMs === described.mtimeMs;
}

function openFile(full: string): Promise<number | 'changed'> {
  return new Promise((resolve, reject) =>
    open(full, OPEN_FLAGS, (err, fd) => {
      if (!err) return resolve(fd);
      // Gone, or made a symlink loop or a non-folder since send looked: the next try says which.
      if (err.code === 'ENOENT' || err.code === 'ELOOP' || err.code === 'ENOTDIR') return resolve('changed');
      reject(err);
    }),
  );
}

function fstatOf(fd: number): Promise<Stats> {
  return new Promise((resolve, reject) => fstat(fd, (err, stats) => (err ? reject(err) : resolve(stats))));
}

/**
 * The body of an open file: the writer reads the descriptor (http/file-writer.ts), middleware
 * that wraps the body reads it as a stream; whichever takes it closes it, and `discard` closes
 * it when neither does (an error answer replaced the file).
 */
function descriptorBody(fd: number, name: string, start: number, length: number): StreamBody {
  let owned = true;
  const take = () => {
    if (!owned) throw new Error(`The body of ${name} was already taken.`);
    owned = false;
  };
  return {
    length,
    open: () => {
      take();
      return createReadStream('', { fd, start, end: Math.max(start, start + length - 1), autoClose: true });
    },
    writeTo: (raw, done) => {
      take();
      writeFileRange(raw, fd, name, start, length, done);
    },
    discard: () => {
      if (!owned) return;
      owned = false;
      close(fd, () => {});
    },
  };
}

/** HEAD: send ended after the headers; its Content-Length stays for the writer, nothing is read. */
function headOnly(recorder: Recorder): StreamBody | null {
  if (recorder.statusCode !== 200 && recorder.statusCode !== 206) return null;
  const length = Number(recorder.headers['content-length']);
  return { length, open: () => Readable.from([]), discard: () => {} };
}

function withDownload(headers: Record<string, string | string[]>, options: FileOptions, relative: string): Record<string, string | string[]> {
  if (options.download !== undefined && options.download !== false) {
    const name = typeof options.download === 'string' ? options.download : basename(relative);
    headers['content-disposition'] = contentDisposition(name);
  }
  return headers;
}

/**
 * Two Range rules of RFC 9110 send does not follow, applied to the headers it reads: a suffix
 * range longer than the file (`bytes=-500` of 100 bytes) selects the whole file (§14.1.3) where
 * send answers 416, and `If-Range` with a weak entity tag never matches (§13.1.5, strong
 * comparison) where send compares it with its own weak ETag and sends the range.
 */
export function fixRangeHeaders(headers: Record<string, string | string[] | undefined>, size: number): void {
  const ifRange = headers['if-range'];
  if (typeof ifRange === 'string' && /^\s*W\//.test(ifRange)) {
    delete headers.range;
    return;
  }
  const range = headers.range;
  if (typeof range !== 'string' || !/^\s*bytes\s*=/i.test(range)) return;
  const [unit, specs] = [range.slice(0, range.indexOf('=') + 1), range.slice(range.indexOf('=') + 1)];
  headers.range =
    unit +
    specs
      .split(',')
      .map((spec) => {
        const suffix = /^\s*-\s*(\d+)\s*$/.exec(spec);
        return suffix !== null && Number(suffix[1]) > size && size > 0 ? '0-' : spec;
      })
      .join(',');
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

/** send (with mime-db, ~25 ms to load) is loaded by the first file served, not with Tern. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const loadSend = onFirstUse(() => require('send') as typeof sendType);
