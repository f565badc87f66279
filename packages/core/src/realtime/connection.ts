/**
 * One socket's life once the upgrade completed: `open`, then each frame to `message` one at a
 * time and in order (a frame arriving while a returned promise is pending waits, up to
 * `maxQueuedMessages`), then `close`. A handler that throws closes the socket with 1011 and the
 * error is reported, never sent; the process lives on.
 */
import type { WebSocket } from 'ws';
import type { TernRequest } from '../http/request';
import type { SocketHandlers } from '../routing/socket-route';
import type { SocketHub } from './hub';
import type { MessageReader, MessageReading } from './messages';
import { LiveSocket } from './socket';

/** Close codes of RFC 6455 7.4.1. */
const POLICY_VIOLATION = 1008;
const INTERNAL_ERROR = 1011;
const OPEN = 1;

export interface ConnectionContext {
  readonly hub: SocketHub;
  /** The route's `messageModel` reader, when it has one. */
  readonly read?: MessageReader;
  readonly report: (err: unknown, req: TernRequest) => void;
}

type Frame = [data: Buffer, isBinary: boolean];

export function runConnection(ws: WebSocket, req: TernRequest, handlers: SocketHandlers<unknown, never>, context: ConnectionContext): void {
  const { hub, read, report } = context;
  const socket = new LiveSocket(ws, hub);
  const request = req as TernRequest<never>;
  hub.add(socket);
  const queue: Frame[] = [];
  // Frames wait until `open` has settled.
  let busy = true;

  const fail = (err: unknown): void => {
    report(err, req);
    socket.close(INTERNAL_ERROR);
  };
  /** Runs a handler; a promise it returns makes the socket busy until it settles. */
  const call = (run: () => unknown): void => {
    let result: unknown;
    try {
      result = run();
    } catch (err) {
      return fail(err);
    }
    if (!isThenable(result)) return;
    busy = true;
    ws.pause();
    result.then(() => {
      busy = false;
      ws.resume();
      drain();
    }, fail);
  };
  const deliver = (reading: MessageReading): void => {
    if (reading.ok) call(() => handlers.message?.(socket, reading.value as never, request));
    else socket.send(reading.problem);
  };
  const handle = ([data, isBinary]: Frame): void => {
    if (read === undefined) return call(() => handlers.message?.(socket, (isBinary ? data : data.toString('utf8')) as never, request));
    let reading: MessageReading | Promise<MessageReading>;
    try {
      reading = read(data);
    } catch (err) {
      return fail(err);
    }
    if (!(reading instanceof Promise)) return deliver(reading);
    call(() => reading.then(deliver));
  };
  const drain = (): void => {
    while (!busy && queue.length > 0 && ws.readyState === OPEN) handle(queue.shift() as Frame);
  };

  ws.on('message', (data: Buffer, isBinary: boolean) => {
    socket.active = true;
    if (!busy) return handle([data, isBinary]);
    // The socket is paused while busy; what its last read already held still arrives.
    if (queue.length >= hub.limits.maxQueuedMessages) return socket.close(POLICY_VIOLATION, 'Too many messages waiting');
    queue.push([data, isBinary]);
  });
  ws.on('pong', () => (socket.active = true));
  ws.on('ping', () => (socket.active = true));
  // `ws` closes the socket itself on a protocol error (a frame over maxPayload: 1009); the
  // error event only says why, and must be listened to.
  ws.on('error', () => undefined);
  ws.once('close', (code: number, reason: Buffer) => {
    queue.length = 0;
    try {
      const result = handlers.close?.(socket, code, reason.toString('utf8'));
      if (isThenable(result)) result.then(undefined, (err: unknown) => report(err, req));
    } catch (err) {
      report(err, req);
    }
    hub.remove(socket);
  });

  busy = false;
  if (handlers.open) call(() => handlers.open?.(socket, request));
  drain();
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | undefined)?.then === 'function';
}
