import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import { TernTypeError } from '../errors';
import type { TernSocket } from '../routing/socket-route';
import { binaryFrame, textFrame } from './frames';

/** What a socket needs of the app's hub: its send limit and its rooms. */
export interface SocketHost {
  readonly sendBufferLimit: number;
  join(socket: LiveSocket, room: string): Promise<void>;
  leave(socket: LiveSocket, room: string): Promise<void>;
}

const OPEN = 1;
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
    /** The connection `ws` reads and writes: Tern writes its data frames on it (see frames.ts). */
    private readonly transport: Duplex,
    private readonly host: SocketHost,
  ) {}

  send(data: unknown): void {
    if (Buffer.isBuffer(data)) return this.sendFrame(binaryFrame(data));
    const text = typeof data === 'string' ? data : JSON.stringify(data);
    if (text === undefined) throw new TernTypeError('TERN_INVALID_ARGUMENT', `socket.send() cannot send ${typeof data} (a string, a Buffer or a JSON value).`);
    this.sendFrame(textFrame(text));
  }

  /**
   * Writes a whole frame (frames.ts), unchanged, so one frame serves a whole room; a reader too
   * slow to take what is already waiting is cut instead.
   */
  sendFrame(frame: Buffer): void {
    const ws = this.ws;
    if (ws.readyState !== OPEN) return;
    if (this.transport.writableLength > this.host.sendBufferLimit) {
      ws.terminate();
      return;
    }
    this.transport.write(frame);
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
