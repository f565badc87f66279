import { constants } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import type { HTTPException } from '../errors';
import { addField, type FormFields } from './form';
import type { ResolvedLimits } from './multipart-limits';
import { openMultipart } from './multipart-parser';

/**
 * One uploaded file, held in memory. `filename` is what the client sent (its last path segment):
 * Tern never uses it as a path, and neither should you without sanitising it.
 *
 * @example
 * const { files } = await req.multipart();
 * for (const file of files) console.log(file.fieldName, file.filename, file.mimeType, file.size);
 */
export interface MultipartFile {
  /** The form field the file came in. */
  fieldName: string;
  filename: string;
  /** The part's declared Content-Type (`application/octet-stream` when none); the client's word, not sniffed. */
  mimeType: string;
  /** Bytes. */
  size: number;
  buffer: Buffer;
}

/**
 * A buffered multipart body: text fields (a list for a repeated name, in a null-prototype
 * object) and files in the order they came.
 */
export interface MultipartBody {
  fields: FormFields;
  files: MultipartFile[];
}

/**
 * Reads a whole `multipart/form-data` body into memory within its limits. Rejects with the 415
 * for another content type, a 413 naming the limit passed, a 400 for a malformed body,
 * `TERN_CLIENT_ABORTED` when the client goes away (what was buffered is dropped).
 */
export function readMultipart(req: IncomingMessage, limits: ResolvedLimits, bodyLimit: number): Promise<MultipartBody> {
  return new Promise((resolve, reject) => {
    const fields: FormFields = Object.create(null);
    const files: MultipartFile[] = [];
    const pending: Array<Promise<void>> = [];
    let failed = false;
    try {
      // A file is never longer than the body it came in, nor than fileSize (one byte over fails):
      // a chunked body (no declared length) is bounded by fileSize alone.
      const declared = Number(req.headers['content-length']);
      const bound = req.headers['content-length'] !== undefined && Number.isSafeInteger(declared) ? Math.min(declared, limits.fileSize + 1) : limits.fileSize + 1;
      openMultipart(req, limits, bodyLimit, {
        field: (name, value) => addField(fields, name, value),
        file: ({ fieldName, filename, mimeType, stream }) => {
          const contents = new FileContents(bound);
          const entry: MultipartFile = { fieldName, filename, mimeType, size: 0, buffer: Buffer.alloc(0) };
          files.push(entry);
          stream.on('data', (chunk: Buffer) => contents.add(chunk));
          pending.push(
            new Promise<void>((done) => {
              stream.on('end', () => {
                entry.buffer = contents.take();
                entry.size = entry.buffer.length;
                done();
              });
              stream.on('close', done);
            }),
          );
        },
        done: (err?: HTTPException) => {
          if (err) {
            failed = true;
            files.length = 0;
            reject(err);
            return;
          }
          // busboy closes only after the last file stream ended, so every buffer is complete here.
          Promise.all(pending).then(() => {
            if (!failed) resolve({ fields, files });
          }, reject);
        },
      });
    } catch (err) {
      reject(err);
    }
  });
}

/**
 * One file's bytes as they arrive, held once. Keeping the chunks and joining them at the end
 * held every upload twice at its peak (the chunks and the joined copy). With a length no file can
 * pass (the body's declared length, else `fileSize`), one buffer of that size is taken at the
 * first chunk and each chunk is copied in as it comes, so the chunks go as soon as they are read.
 * `allocUnsafe` memory that is never written costs no resident memory. A file that fills less
 * than half of the buffer (several files in one body, a chunked body under a large `fileSize`)
 * is copied out to its own size at the end. Only when no such buffer can be had (a bound past
 * what a Buffer can hold, or the allocation failing) are the chunks kept and joined.
 */
class FileContents {
  private buffer?: Buffer;
  private size = 0;
  private chunks: Buffer[] = [];

  constructor(private readonly bound: number) {}

  add(chunk: Buffer): void {
    if (this.buffer === undefined && this.chunks.length === 0) this.buffer = reserve(this.bound);
    if (this.buffer !== undefined && this.size + chunk.length <= this.buffer.length) {
      chunk.copy(this.buffer, this.size);
    } else {
      // Past the bound (the fileSize limit is failing the body): keep it as it comes.
      if (this.buffer !== undefined) this.chunks.push(this.buffer.subarray(0, this.size));
      this.buffer = undefined;
      this.chunks.push(chunk);
    }
    this.size += chunk.length;
  }

  take(): Buffer {
    const { buffer, size } = this;
    if (buffer !== undefined) return size * 2 >= buffer.length ? buffer.subarray(0, size) : Buffer.from(buffer.subarray(0, size));
    return this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, size);
  }
}

/** A buffer of `length` bytes, or undefined when a Buffer cannot be that long or memory says no. */
function reserve(length: number): Buffer | undefined {
  if (!Number.isSafeInteger(length) || length > constants.MAX_LENGTH) return undefined;
  try {
    return Buffer.allocUnsafe(length);
  } catch {
    return undefined;
  }
}
