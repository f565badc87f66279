import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { HTTPException } from '../errors';
import type { ResolvedLimits } from './multipart-limits';
import { openMultipart, type FilePartStart } from './multipart-parser';

/**
 * One part of a multipart body as `req.parts()` yields it: a text field, or a file whose
 * contents stream on `stream`. A file stream left unread is drained when the loop moves on.
 */
export type MultipartPart =
  | { type: 'field'; fieldName: string; value: string }
  | ({ type: 'file' } & FilePartStart);

/**
 * The parts of a `multipart/form-data` body, in order, as they arrive. Parsing starts at the
 * first `next()`; the limits and failures of `readMultipart` apply and are thrown from the
 * iteration. Leaving the loop early drains the rest of the body (still within its limits).
 */
export function multipartParts(req: IncomingMessage, limits: ResolvedLimits, bodyLimit: number): AsyncIterableIterator<MultipartPart> {
  const queue: MultipartPart[] = [];
  let started = false;
  let finished = false;
  let abandoned = false;
  let failure: HTTPException | undefined;
  let wake: (() => void) | undefined;
  let lastFile: Readable | undefined;

  const notify = () => {
    const resume = wake;
    wake = undefined;
    resume?.();
  };
  const start = () => {
    started = true;
    try {
      openMultipart(req, limits, bodyLimit, {
        field: (fieldName, value) => {
          if (abandoned) return;
          queue.push({ type: 'field', fieldName, value });
          notify();
        },
        file: ({ fieldName, filename, mimeType, stream }) => {
          if (abandoned) {
            stream.resume();
            return;
          }
          queue.push({ type: 'file', fieldName, filename, mimeType, stream });
          notify();
        },
        done: (err) => {
          finished = true;
          failure = err;
          notify();
        },
      });
    } catch (err) {
      finished = true;
      failure = err as HTTPException;
    }
  };
  /** Moving on: a file nobody read is drained so the parser can reach the next part. */
  const drainLast = () => {
    if (lastFile && !lastFile.destroyed && !lastFile.readableEnded) lastFile.resume();
    lastFile = undefined;
  };

  const iterator: AsyncIterableIterator<MultipartPart> = {
    async next(): Promise<IteratorResult<MultipartPart>> {
      if (!started) start();
      drainLast();
      for (;;) {
        const part = queue.shift();
        if (part) {
          if (part.type === 'file') lastFile = part.stream;
          return { value: part, done: false };
        }
        if (failure) {
          const err = failure;
          failure = undefined;
          abandoned = true;
          throw err;
        }
        if (finished || abandoned) return { value: undefined, done: true };
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
    async return(): Promise<IteratorResult<MultipartPart>> {
      abandoned = true;
      drainLast();
      for (const part of queue.splice(0)) if (part.type === 'file') part.stream.resume();
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
