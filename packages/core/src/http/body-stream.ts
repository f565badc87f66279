import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { requestError } from '../errors/request-error';
import { declaredLengthExceeds, payloadTooLarge } from './body';

/** Why a body stream stopped early. */
export function clientAborted() {
  return requestError('TERN_CLIENT_ABORTED', 'The client closed the connection before sending the whole body.');
}

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
  private size = 0;
  private attached = false;
  private finished = false;

  constructor(
    private readonly source: IncomingMessage,
    private readonly limit: number,
  ) {
    super();
  }

  override _read(): void {
    if (!this.attached) this.attach();
    this.source.resume();
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    this.detach();
    // Nothing more is wanted from the socket; the answer closes the connection when it is unread.
    if (!this.finished) this.source.pause();
    callback(err);
  }

  private attach(): void {
    this.attached = true;
    if (this.source.readableEnded) {
      this.finish();
      return;
    }
    this.source.on('data', this.onData);
    this.source.on('end', this.onEnd);
    this.source.on('error', this.onError);
    this.source.on('close', this.onClose);
  }

  private detach(): void {
    this.source.off('data', this.onData);
    this.source.off('end', this.onEnd);
    this.source.off('error', this.onError);
    this.source.off('close', this.onClose);
  }

  private finish(): void {
    this.finished = true;
    this.detach();
    this.push(null);
  }

  private readonly onData = (chunk: Buffer): void => {
    this.size += chunk.length;
    if (this.size > this.limit) {
      this.destroy(payloadTooLarge(this.limit));
      return;
    }
    if (!this.push(chunk)) this.source.pause();
  };

  private readonly onEnd = (): void => this.finish();

  private readonly onError = (err: NodeJS.ErrnoException): void => {
    if (err.code === 'ECONNRESET' || !this.source.complete) this.destroy(clientAborted());
    else this.destroy(requestError('TERN_BODY_READ_FAILED', `The request body could not be read: ${err.message}`));
  };

  private readonly onClose = (): void => {
    if (!this.source.complete) this.destroy(clientAborted());
  };
}
