/**
 * Socket routes: a WebSocket endpoint declared like any route (`app.ws`, a router's `ws`,
 * `@WebSocket`). It is an ordinary GET route in the table, so the upgrade request meets the same
 * lookup, converters, app and container middleware and security as every request; its handler is
 * the handshake step below, which only says "go ahead" (status 101). Completing the upgrade and
 * running the socket is `realtime/`'s work.
 */
import type { IncomingMessage } from 'node:http';
import { TernTypeError } from '../errors';
import { requestError } from '../errors/request-error';
import type { TernRequest, UntypedParam } from '../http/request';
import type { TernResponse } from '../http/response';
import { SWITCHING_PROTOCOLS, upgradeOf } from '../http/upgrade';
import type { StandardSchemaV1 } from '../validation/standard-schema/spec';
import { Routes } from './routes';
import type { Handler, RouteOptions } from './types';

/**
 * One open WebSocket, as handlers see it.
 *
 * @example
 * app.ws('/echo', {}, { message(socket, data) { socket.send(data); } });
 */
export interface TernSocket {
  /** Unique in this process for the life of the app. */
  readonly id: string;
  /** The rooms this socket joined. */
  readonly rooms: ReadonlySet<string>;
  /**
   * Sends a text frame (a string), a binary frame (a Buffer) or a JSON text frame (anything
   * else). A socket whose unsent data passes `websocket.sendBufferLimit` (a reader too slow to
   * keep up) is cut instead of buffering more. Sending on a closed socket does nothing.
   */
  send(data: unknown): void;
  /** Starts the closing handshake (default code 1000). */
  close(code?: number, reason?: string): void;
  /** Joins `room`: `app.publish(room, data)` reaches this socket. Resolves once the subscription is live. */
  join(room: string): Promise<void>;
  /** Leaves `room`; closing a socket leaves every room it joined. */
  leave(room: string): Promise<void>;
}

/**
 * What a socket route does: `open` once the upgrade completed, `message` for each frame (one at a
 * time, in order: the next waits for a returned promise), `close` once it closed. Any of them
 * throwing (or rejecting) closes that socket with 1011; the error is reported, never sent.
 *
 * @example
 * const handlers: SocketHandlers<ChatMessage, { id: number }> = {
 *   async open(socket, req) { await socket.join(`room:${req.pathParams.id}`); },
 *   message(socket, data, req) { return app.publish(`room:${req.pathParams.id}`, data); },
 * };
 */
export interface SocketHandlers<M = unknown, P = Record<string, UntypedParam>> {
  /** `req` is the upgrade request: converted `pathParams`, `user`, `id`, `log`, headers. */
  open?(socket: TernSocket, req: TernRequest<P>): void | Promise<void>;
  /** `data`: the `messageModel` instance or Standard Schema output (JSON frames), else a string (text frame) or a Buffer (binary frame). */
  message?(socket: TernSocket, data: M, req: TernRequest<P>): void | Promise<void>;
  /** `code` and `reason` of the close frame (1006 and '' when the connection just ended). */
  close?(socket: TernSocket, code: number, reason: string): void | Promise<void>;
}

/** The handlers, or a function of the upgrade request giving them (a controller method), called before the 101. */
export type SocketSource = SocketHandlers<never, never> | ((req: TernRequest, res: TernResponse, params: Record<string, unknown>) => unknown);

/**
 * The options of a socket route: those of any route that mean something for a socket, plus
 * `messageModel` (JSON frames validated into instances, or by a Standard Schema into its output)
 * and `maxPayload` (largest frame, bytes).
 */
export type SocketOptions<M = unknown> = Pick<RouteOptions, 'security' | 'middleware' | 'summary' | 'description' | 'tags' | 'name' | 'deprecated' | 'declaredIn' | 'extra' | 'maxPayload' | 'excludeFromSchema'> & {
  /**
   * A model class or a Standard Schema (zod, valibot, arktype…): every frame must be JSON it
   * accepts (else an error frame: 400 or 422); `data` is then the instance or the schema's output.
   */
  messageModel?: (abstract new (...args: never[]) => M) | StandardSchemaV1<unknown, M>;
};

/**
 * A socket route: a GET route whose handler is the handshake, with the handlers kept beside it.
 *
 * @example
 * app.addRoute(new SocketRoutes('/echo', {}, { message: (socket, data) => socket.send(data) }));
 */
export class SocketRoutes extends Routes<string> {
  constructor(
    path: string,
    options: SocketOptions,
    /** The handlers, or what gives them per upgrade request. */
    readonly source: SocketSource,
  ) {
    if (source === null || (typeof source !== 'object' && typeof source !== 'function')) {
      throw new TernTypeError('TERN_INVALID_HANDLER', `Socket route '${path}': the handlers must be an object { open, message, close }.`);
    }
    if (typeof source === 'object') {
      for (const key of ['open', 'message', 'close'] as const) {
        if (source[key] !== undefined && typeof source[key] !== 'function') {
          throw new TernTypeError('TERN_INVALID_HANDLER', `Socket route '${path}': '${key}' must be a function.`);
        }
      }
    }
    super({ ...(options as RouteOptions), path, methods: ['GET'], handler: handshake(source) as Handler });
  }
}

/** A WebSocket key is 16 random bytes in base64 (RFC 6455 4.1). */
const WEBSOCKET_KEY = /^[+/0-9A-Za-z]{21}[AQgw]==$/;

/** What refuses an upgrade request before any 101, or undefined when the handshake headers are sound. */
function handshakeMistake(raw: IncomingMessage): string | undefined {
  if (raw.method !== 'GET') return 'A WebSocket upgrade must be a GET request.';
  if (!/\bwebsocket\b/i.test(String(raw.headers.upgrade))) return "The Upgrade header must be 'websocket'.";
  if (!WEBSOCKET_KEY.test(String(raw.headers['sec-websocket-key']))) return 'Sec-WebSocket-Key must be 16 bytes in base64.';
  if (raw.headers['sec-websocket-version'] !== '13') return 'Sec-WebSocket-Version must be 13.';
  return undefined;
}

/**
 * The socket route's handler, innermost in its chain: a plain request gets 426, a malformed
 * handshake 400, an app at its socket cap (or closing) 503; otherwise the handlers are resolved
 * (a controller's parameters too) and the response says 101, which the pipeline hands to the
 * step that completes the upgrade. Middleware after `next()` may still replace it with a refusal.
 */
function handshake(source: SocketSource): Handler {
  return async (req, res, params) => {
    const upgrade = upgradeOf(req.raw);
    if (upgrade === undefined) {
      throw requestError('TERN_UPGRADE_REQUIRED', 'This path is a WebSocket endpoint: connect with a WebSocket client.', { headers: { upgrade: 'websocket' } });
    }
    const mistake = handshakeMistake(req.raw);
    if (mistake !== undefined) throw requestError('TERN_BAD_HANDSHAKE', mistake);
    const refusal = upgrade.refusal();
    if (refusal !== undefined) {
      throw requestError('TERN_SOCKETS_UNAVAILABLE', refusal === 'full' ? 'The server holds as many sockets as it may; try again later.' : 'The server is shutting down.', {
        headers: { 'retry-after': '5' },
      });
    }
    const handlers = typeof source === 'function' ? await source(req, res, params) : source;
    if (handlers === null || typeof handlers !== 'object') throw new TypeError(`The socket route ${req.route?.rawPath ?? ''} gave no handlers object.`);
    upgrade.accepted = handlers;
    res.statusCode = SWITCHING_PROTOCOLS;
    return res;
  };
}
