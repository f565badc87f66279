/**
 * One socket's life once the upgrade completed: `open`, then each frame to `message` one at a
 * time and in order (a frame arriving while a returned promise is pending waits, up to
 * `maxQueuedMessages`), then `close`. A handler that throws closes the socket with 1011 and the
 * error is reported, never sent; the process lives on.
 *
 * One object per socket, `ws`'s listeners shared by all (they find it on the WebSocket): an idle
 * socket costs that object and what `ws` itself holds, and a frame costs no allocation of ours.
 */
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { TernRequest } from '../http/request';
import type { SocketHandlers } from '../routing/socket-route';
import type { SocketHub } from './hub';
import type { MessageReader, MessageReading } from './messages';
import { LiveSocket } from './socket';

/** Close codes of RFC 6455 7.4.1. */
const POLICY_VIOLATION = 1008;
const INTERNAL_ERROR = 1011;

export interface ConnectionContext {
  readonly hub: SocketHub;
  /** The route's `messageModel` reader, when it has one. */
  readonly read?: MessageReader;
  readonly report: (err: unknown, req: TernRequest) => void;
}

const CONNECTION = Symbol('connection');
type Carrier = WebSocket & { [CONNECTION]: Connection };

class Connection extends LiveSocket {
  /** A handler's promise is pending (or `open` has not settled): frames wait in `queue`. */
  private busy = true;
  private queue?: Array<Buffer | boolean>;

  constructor(
    ws: WebSocket,
    transport: Duplex,
    private readonly req: TernRequest<never>,
    private readonly handlers: SocketHandlers<unknown, never>,
    private readonly context: ConnectionContext,
  ) {
    super(ws, transport, context.hub);
  }

  start(): void {
    this.busy = false;
    if (this.handlers.open !== undefined) this.settle(this.run(this.handlers.open, undefined));
    this.drain();
  }

  frame(data: Buffer, isBinary: boolean): void {
    this.active = true;
    if (!this.busy) return this.handle(data, isBinary);
    // The socket is paused while busy; what its last read already held still arrives.
    const queue = (this.queue ??= []);
    if (queue.length >= 2 * this.context.hub.limits.maxQueuedMessages) return this.close(POLICY_VIOLATION, 'Too many messages waiting');
    queue.push(data, isBinary);
  }

  ended(code: number, reason: Buffer): void {
    this.queue = undefined;
    const { close } = this.handlers;
    if (close !== undefined) {
      try {
        const result = close.call(this.handlers, this, code, reason.toString('utf8'));
        if (isThenable(result)) result.then(undefined, (err: unknown) => this.context.report(err, this.req));
      } catch (err) {
        this.context.report(err, this.req);
      }
    }
    this.context.hub.remove(this);
  }

  private handle(data: Buffer, isBinary: boolean): void {
    const { read } = this.context;
    if (read === undefined) {
      const { message } = this.handlers;
      if (message !== undefined) this.settle(this.run(message, isBinary ? data : data.toString()));
      return;
    }
    let reading: MessageReading | Promise<MessageReading>;
    try {
      reading = read(data);
    } catch (err) {
      return this.fail(err);
    }
    if (!(reading instanceof Promise)) return this.deliver(reading);
    this.settle(reading.then((value) => this.deliver(value)));
  }

  private deliver(reading: MessageReading): void {
    if (!reading.ok) return this.send(reading.problem);
    const { message } = this.handlers;
    if (message !== undefined) this.settle(this.run(message, reading.value));
  }

  /** Calls `open` (no data) or `message`; a throw closes the socket, and is returned as `FAILED`. */
  private run(handler: Function, data: unknown): unknown {
    try {
      return data === undefined ? handler.call(this.handlers, this, this.req) : handler.call(this.handlers, this, data, this.req);
    } catch (err) {
      this.fail(err);
      return undefined;
    }
  }

  /** A promise a handler returned keeps the socket busy (paused) until it settles. */
  private settle(result: unknown): void {
    if (!isThenable(result)) return;
    this.busy = true;
    this.ws.pause();
    result.then(
      () => {
        this.busy = false;
        this.ws.resume();
        this.drain();
      },
      (err: unknown) => this.fail(err),
    );
  }

  private drain(): void {
    const queue = this.queue;
    while (!this.busy && queue !== undefined && queue.length > 0 && this.ws.readyState === 1) {
      const data = queue.shift() as Buffer;
      this.handle(data, queue.shift() as boolean);
    }
  }

  private fail(err: unknown): void {
    this.context.report(err, this.req);
    this.close(INTERNAL_ERROR);
  }
}

function onFrame(this: WebSocket, data: Buffer, isBinary: boolean): void {
  (this as Carrier)[CONNECTION].frame(data, isBinary);
}

function onAlive(this: WebSocket): void {
  (this as Carrier)[CONNECTION].active = true;
}

function onClose(this: WebSocket, code: number, reason: Buffer): void {
  (this as Carrier)[CONNECTION].ended(code, reason);
}

/** `ws` closes the socket itself on a protocol error (a frame over maxPayload: 1009); its error event only says why, and must be listened to. */
function onError(): void {}

/** Runs the socket `ws` made on `transport`, the upgraded connection. */
export function runConnection(ws: WebSocket, transport: Duplex, req: TernRequest, handlers: SocketHandlers<unknown, never>, context: ConnectionContext): void {
  const connection = new Connection(ws, transport, req as TernRequest<never>, handlers, context);
  (ws as Carrier)[CONNECTION] = connection;
  context.hub.add(connection);
  ws.on('message', onFrame);
  ws.on('pong', onAlive);
  ws.on('ping', onAlive);
  ws.on('error', onError);
  // `on`, not `once`: ws emits close once, and `once` would wrap the listener for each socket.
  ws.on('close', onClose);
  connection.start();
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | undefined)?.then === 'function';
}
