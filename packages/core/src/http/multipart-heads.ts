/**
 * A second, light reading of a multipart body's part headers, alongside busboy, for what busboy
 * does not tell: whether a file part sent a `Content-Type` at all (busboy reports `text/plain`
 * either way, RFC 7578's default for fields; Tern reports a file without one as
 * `application/octet-stream`), and how many header lines a part has (busboy's `headerPairs`
 * limit applies to urlencoded bodies only; for multipart it keeps up to 2,000 lines per part).
 * It finds boundaries with streamsearch (busboy's own search), keeps at most one header block
 * (16 KiB, busboy's bound) and one small record per part: linear in the body, bounded in memory.
 */
import { onFirstUse } from './on-first-use';

/** streamsearch's one class (it ships no types): calls back with the data between matches. */
interface StreamSearch {
  push(chunk: Buffer): number;
}
type StreamSearchClass = new (
  needle: Buffer,
  onData: (isMatch: boolean, data: Buffer | undefined, start: number, end: number, isSafeData: boolean) => void,
) => StreamSearch;

/** What one part's header block said, as far as Tern needs to know. */
export interface PartHead {
  /** The `name` parameter of `Content-Disposition` (UTF-8), when there is one. */
  readonly name: string | undefined;
  readonly hasFilename: boolean;
  readonly hasContentType: boolean;
}

/** The most header lines one part may have: `Content-Disposition`, `Content-Type` and room to spare. */
export const MAX_PART_HEADER_LINES = 32;
/** busboy refuses a part header block larger than this (Node's default header limit). */
const MAX_HEAD_BYTES = 16 * 1024;

const BOUNDARY = /;\s*boundary\s*=\s*(?:"([^"]+)"|([^;\s]+))/i;
const NAME = /;\s*name\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/i;
const FILENAME = /;\s*filename\*?\s*=/i;

/** The boundary of a `multipart/form-data` content type, or undefined. */
export function boundaryOf(contentType: string | undefined): string | undefined {
  const match = contentType === undefined ? null : BOUNDARY.exec(contentType);
  return match ? (match[1] ?? match[2]) : undefined;
}

export class PartHeadScanner {
  /** The first failure (a part with too many header lines); the caller answers it. */
  tooManyLines = false;
  private readonly search: StreamSearch;
  private readonly heads: PartHead[] = [];
  private taken = 0;
  private state: 'preamble' | 'head' | 'body' | 'done' = 'preamble';
  private head = '';

  constructor(
    boundary: string,
    /** Records kept at most (busboy refuses more parts than its `parts` limit anyway). */
    private readonly maxParts: number,
  ) {
    this.search = new (loadStreamSearch())(Buffer.from(`\r\n--${boundary}`, 'latin1'), (isMatch, data, start, end) => {
      if (data !== undefined && this.state === 'head') this.readHead(data.toString('latin1', start, end));
      if (isMatch && this.state !== 'done') this.startHead();
    });
    // The first delimiter may open the body, with no CRLF before it.
    this.search.push(Buffer.from('\r\n'));
  }

  push(chunk: Buffer): void {
    if (this.state !== 'done') this.search.push(chunk);
  }

  /**
   * The head of the next file part named `name` (busboy reports parts in order, skipping some):
   * undefined when none matches, and the caller keeps busboy's word.
   */
  takeFile(name: string): PartHead | undefined {
    for (let i = this.taken; i < this.heads.length; i++) {
      const head = this.heads[i];
      if (head.hasFilename && head.name === name) {
        this.taken = i + 1;
        return head;
      }
    }
    return undefined;
  }

  private startHead(): void {
    if (this.state === 'head') this.state = 'body'; // a block without its blank line: busboy refuses it
    if (this.heads.length >= this.maxParts) {
      this.state = 'done';
      return;
    }
    this.state = 'head';
    this.head = '';
  }

  private readHead(text: string): void {
    this.head += text;
    // After the delimiter: `--` closes the body; else optional padding, CRLF, the header lines,
    // then a blank line.
    if (this.head.length >= 2 && this.head.startsWith('--')) {
      this.state = 'done';
      return;
    }
    const end = this.head.indexOf('\r\n\r\n');
    if (end < 0) {
      if (this.head.length > MAX_HEAD_BYTES) this.state = 'body';
      return;
    }
    const lines = end <= this.head.indexOf('\r\n') ? [] : this.head.slice(this.head.indexOf('\r\n') + 2, end).split('\r\n');
    this.state = 'body';
    this.head = '';
    if (lines.length > MAX_PART_HEADER_LINES) {
      this.tooManyLines = true;
      this.state = 'done';
      return;
    }
    let disposition: string | undefined;
    let hasContentType = false;
    for (const line of lines) {
      const colon = line.indexOf(':');
      const field = line.slice(0, colon).trim().toLowerCase();
      if (field === 'content-disposition') disposition ??= line.slice(colon + 1);
      else if (field === 'content-type' && line.slice(colon + 1).trim() !== '') hasContentType = true;
    }
    const name = disposition === undefined ? null : NAME.exec(disposition);
    const raw = name ? (name[1]?.replace(/\\(.)/g, '$1') ?? name[2]) : undefined;
    this.heads.push({
      name: raw === undefined ? undefined : Buffer.from(raw, 'latin1').toString('utf8'),
      hasFilename: disposition !== undefined && FILENAME.test(disposition),
      hasContentType,
    });
  }
}

/** streamsearch (busboy's dependency) is loaded with the first multipart body, like busboy. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const loadStreamSearch = onFirstUse(() => require('streamsearch') as StreamSearchClass);
