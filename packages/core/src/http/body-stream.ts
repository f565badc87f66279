import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { declaredLengthExceeds, payloadTooLarge, watchBody } from './body';

/**
 * The request body as a Readable that counts bytes and errors with the 413 problem as soon as
 * the count passes `limit` (a declared Content-Length over it is refused before anything is
 * read), or with `TERN_CLIENT_ABORTED` when the client goes away. It reads only when its
 * consumer reads, so backpressure reaches the socket.
 */
export function limitedBodyStream(req: IncomingMessage, limit: number): Readable {
  if (declaredLengthExceeds(req, limit)) throw payloadTooLarge(limit);
  return new LimitedBody(req, limit);
}

class LimitedBody extends Readable {
  private detach?: () => void;
  private finished = false;

  constructor(
    private readonly source: IncomingMessage,
    private readonly limit: number,
  ) {
    super();
  }

  override _read(): void {
    if (!this.detach) this.attach();
    this.source.resume();
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    this.detach?.();
    // Nothing more is wanted from the socket; the answer closes the connection when it is unread.
    if (!this.finished) this.source.pause();
    callback(err);
  }

  private attach(): void {
    if (this.source.readableEnded) {
      this.detach = () => {};
      this.finish();
      return;
    }
    this.detach = watchBody(this.source, this.limit, {
      chunk: (chunk) => this.push(chunk),
      end: () => this.finish(),
      fail: (err) => this.destroy(err),
    });
  }

  private finish(): void {
    this.finished = true;
    this.push(null);
  }
}
