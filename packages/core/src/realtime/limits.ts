/**
 * The limits every socket of an app lives under, on by default (`new TernApp({ websocket })`).
 */
import { TernRangeError } from '../errors';

/**
 * `new TernApp({ websocket })`: limits for every socket route of the app.
 *
 * @example
 * new TernApp({ websocket: { maxPayload: 16 * 1024, idleTimeout: 30_000, maxConnections: 2_000 } });
 */
export interface WebSocketOptions {
  /** Largest frame in bytes (default 64 KiB); larger closes the socket with 1009. A route's `maxPayload` replaces it. */
  maxPayload?: number;
  /**
   * Milliseconds a socket may stay silent (no frame, no pong) before it is cut (default 60 s).
   * Tern pings every socket each half of it, so a live client never reaches it; a dead peer or a
   * half-open connection is found within it. `Infinity` turns it off.
   */
  idleTimeout?: number;
  /**
   * Bytes a socket may have waiting to go out (default 1 MiB): a `send` past it cuts the socket
   * (close code 1006 to the handlers) rather than buffering without limit for a slow reader.
   */
  sendBufferLimit?: number;
  /** Open sockets this app holds in this process (default 10,000); an upgrade past it is a 503. */
  maxConnections?: number;
  /** Frames a socket may have waiting while its `message` handler is busy (default 1,024); more closes it with 1008. */
  maxQueuedMessages?: number;
}

/** The options with their defaults, checked once. */
export type SocketLimits = Required<WebSocketOptions>;

export function socketLimits(options: WebSocketOptions = {}): SocketLimits {
  return {
    maxPayload: whole(options.maxPayload, 64 * 1024, 'maxPayload'),
    idleTimeout: whole(options.idleTimeout, 60_000, 'idleTimeout', true),
    sendBufferLimit: whole(options.sendBufferLimit, 1024 * 1024, 'sendBufferLimit'),
    maxConnections: whole(options.maxConnections, 10_000, 'maxConnections'),
    maxQueuedMessages: whole(options.maxQueuedMessages, 1024, 'maxQueuedMessages'),
  };
}

function whole(value: unknown, fallback: number, name: string, infinite = false): number {
  if (value === undefined) return fallback;
  if ((infinite && value === Infinity) || (Number.isSafeInteger(value) && (value as number) > 0)) return value as number;
  throw new TernRangeError('TERN_INVALID_LIMIT', `websocket.${name} must be a positive whole number${infinite ? ' (or Infinity)' : ''}, got ${String(value)}.`);
}
