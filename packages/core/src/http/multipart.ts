import type { IncomingMessage } from 'node:http';
import type { HTTPException } from '../errors';
import { addField, type FormFields } from './form';
import { resolveLimits, type MultipartOptions } from './multipart-limits';
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
export function readMultipart(req: IncomingMessage, options: MultipartOptions | undefined, bodyLimit: number): Promise<MultipartBody> {
  return new Promise((resolve, reject) => {
    const fields: FormFields = Object.create(null);
    const files: MultipartFile[] = [];
    const pending: Array<Promise<void>> = [];
    let failed = false;
    try {
      openMultipart(req, resolveLimits(options, bodyLimit), bodyLimit, {
        field: (name, value) => addField(fields, name, value),
        file: ({ fieldName, filename, mimeType, stream }) => {
          const chunks: Buffer[] = [];
          let size = 0;
          const entry: MultipartFile = { fieldName, filename, mimeType, size: 0, buffer: Buffer.alloc(0) };
          files.push(entry);
          stream.on('data', (chunk: Buffer) => {
            chunks.push(chunk);
            size += chunk.length;
          });
          pending.push(
            new Promise<void>((done) => {
              stream.on('end', () => {
                entry.size = size;
                entry.buffer = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
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
