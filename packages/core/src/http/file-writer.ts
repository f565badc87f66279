import { close, read } from 'node:fs';
import type { ServerResponse } from 'node:http';

/** The largest read; a smaller file (or range) gets a buffer of its own size. */
const CHUNK = 64 * 1024;

/**
 * Writes `length` bytes of the open file `fd`, from byte `start`, to `raw` through one buffer that
 * is read into again only once the response has handed the previous chunk over (the write's
 * callback). A read stream piped into the response does the same work with a new 64 KiB buffer
 * per read instead; with many downloads in flight those buffers, freed only when a scavenge finds
 * them, drive V8's external-memory accounting into full mark-compacts (about one per 20 files of
 * 1 MiB in the bench, twice the CPU per file: docs/performance-log.md, 2026-11-26). Waiting for
 * each write is the backpressure: a slow client holds one buffer and one descriptor, no more.
 *
 * Exactly `length` bytes go out (the Content-Length already sent): a file that grew meanwhile is
 * cut at `length`, one that shrank fails so that the caller cuts the connection
 * rather than end a short body. The descriptor is the one whose place was checked (http/file.ts):
 * reading it, never the path again, is what keeps a file swapped meanwhile from being sent. It is
 * this writer's from now on and closed when it finishes. `done` runs once: `done()` when the last
 * byte was handed over or the response closed first (the client left), `done(err)` when the file
 * could not be read. `name` only words the error.
 */
export function writeFileRange(raw: ServerResponse, fd: number, name: string, start: number, length: number, done: (err?: unknown) => void): void {
  if (length <= 0) {
    close(fd, () => {});
    raw.end();
    done();
    return;
  }
  const buffer = Buffer.allocUnsafe(Math.min(CHUNK, length));
  let position = start;
  let remaining = length;
  // 'reading' has a callback of fs pending (the descriptor must not be closed under it);
  // 'writing' waits for the response; 'ended' is final.
  let state: 'reading' | 'writing' | 'ended' = 'reading';
  let closed = false;

  const finish = (err?: unknown) => {
    if (state === 'ended') return;
    state = 'ended';
    raw.off('close', onClose);
    close(fd, () => {});
    done(err);
  };
  // A response that closes before the last byte (client gone, connection cut) may never call
  // back a pending write, so the close itself ends the transfer.
  const onClose = () => {
    closed = true;
    if (state === 'writing') finish();
  };
  const readNext = () => {
    state = 'reading';
    read(fd, buffer, 0, Math.min(buffer.length, remaining), position, onRead);
  };
  const onRead = (err: NodeJS.ErrnoException | null, bytesRead: number) => {
    if (closed) return finish();
    if (err) return finish(err);
    if (bytesRead === 0) return finish(fileChanged(name));
    position += bytesRead;
    remaining -= bytesRead;
    const chunk = bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead);
    if (remaining === 0) {
      // Nothing is read into the buffer again, so the last chunk need not wait for its write.
      raw.end(chunk);
      return finish();
    }
    state = 'writing';
    raw.write(chunk, (writeErr) => {
      if (state !== 'writing') return;
      if (writeErr || closed) return finish();
      readNext();
    });
  };

  raw.on('close', onClose);
  readNext();
}

function fileChanged(path: string): Error {
  return new Error(`${path} became shorter while it was sent.`);
}
