import type { ServerResponse } from 'node:http';

/** Responses `closeServer` cut off when the close timeout expired (their signal says so). */
const cutAtCloseTimeout = new WeakSet<ServerResponse>();

/** Marks a response as cut by the close timeout, before its connection is destroyed. */
export function markCutByClose(res: ServerResponse): void {
  cutAtCloseTimeout.add(res);
}

/**
 * An `AbortSignal` aborted when `res` closes before it finished: the client went away, or the
 * server cut the connection at its close timeout. Made only when a handler asks (`req.signal`):
 * a `close` and a `finish` listener, both gone with the response.
 */
export function responseSignal(res: ServerResponse | undefined): AbortSignal {
  const controller = new AbortController();
  // Already answered (or not attached to a response at all): nothing is left to abort.
  if (!res || res.writableFinished) return controller.signal;
  if (res.destroyed) {
    controller.abort(abortReason(res));
    return controller.signal;
  }
  // 'close' follows 'finish' on every response: only a close without a finish is an abort.
  const onClose = () => controller.abort(abortReason(res));
  res.once('close', onClose);
  res.once('finish', () => res.off('close', onClose));
  return controller.signal;
}

function abortReason(res: ServerResponse): DOMException {
  return cutAtCloseTimeout.has(res)
    ? new DOMException('The server closed the connection: its close timeout expired before the response was complete.', 'AbortError')
    : new DOMException('The client closed the connection before the response was complete.', 'AbortError');
}

/**
 * True when `err` is `signal`'s own abort (its reason, or an AbortError caused by it, as
 * `timers/promises` throws): a handler that gave up because its client left did what it was asked.
 */
export function isAbortOf(signal: AbortSignal, err: unknown): boolean {
  if (!signal.aborted) return false;
  // Structural, not `instanceof Error`: Node's own AbortError may come from another realm.
  return err === signal.reason || (typeof err === 'object' && err !== null && (err as { cause?: unknown }).cause === signal.reason);
}
