import type { WebSocket } from 'ws';
import { TernTypeError } from '../errors';
import type { TernSocket } from '../routing/socket-route';

/** What a socket needs of the app's hub: its send limit and its rooms. */
export interface SocketHost {
  readonly sendBufferLimit: number;
  join(socket: LiveSocket, room: string): Promise<void>;
  leave(socket: LiveSocket, room: string): Promise<void>;
}

const OPEN = 1;
/** `ws` send options, made once: bytes encoded once for many sockets go out as text frames. */
export const AS_TEXT = Object.freeze({ binary: false });
export const AS_BINARY = Object.freeze({ binary: true });
/** Ids unique across processes of one deployment without coordination: a random prefix per process. */
const PROCESS_TAG = Math.random().toString(36).slice(2, 8);
let counter = 0;

/** One accepted socket: `TernSocket` over a `ws` WebSocket. */
export class LiveSocket implements TernSocket {
  readonly id = `${PROCESS_TAG}-${(++counter).toString(36)}`;
  readonly rooms = new Set<string>();
  /** A frame or pong arrived since the last idle sweep. */
  active = true;

  constructor(
    readonly ws: WebSocket,
    private readonly host: SocketHost,
  ) {}

  send(data: unknown): void {
    if (Buffer.isBuffer(data)) return this.sendFrame(data);
    const text = typeof data === 'string' ? data : JSON.stringify(data);
    if (text === undefined) throw new TernTypeError('TERN_INVALID_ARGUMENT', `socket.send() cannot send ${typeof data} (a string, a Buffer or a JSON value).`);
    // Encoded here: a frame of bytes takes the socket's buffers-only write, where ws would queue the string beside its header.
    this.sendFrame(Buffer.from(text, 'utf8'), AS_TEXT);
  }

  /**
   * Sends a ready frame (`as` says whether bytes go as text or binary; a string is text); a
   * reader too slow to take what is already waiting is cut instead.
   */
  sendFrame(frame: string | Buffer, as?: typeof AS_TEXT | typeof AS_BINARY): void {
    const ws = this.ws;
    if (ws.readyState !== OPEN) return;
    if (ws.bufferedAmount > this.host.sendBufferLimit) {
      ws.terminate();
      return;
    }
    if (as === undefined) ws.send(frame);
    else ws.send(frame, as);
  }

  close(code = 1000, reason?: string): void {
    const ws = this.ws;
    if (ws.readyState !== OPEN) return;
    // A socket paused while its handler is busy must read again, or the peer's close frame
    // would never be read and the closing handshake would wait for ws's 30 s timer.
    if (ws.isPaused) ws.resume();
    ws.close(code, reason);
  }

  join(room: string): Promise<void> {
    return this.host.join(this, room);
  }

  leave(room: string): Promise<void> {
    return this.host.leave(this, room);
  }
}
