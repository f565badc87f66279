import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** What Node keeps on a socket that tells how far its output got (internals, stable since Node 10). */
interface SocketInternals {
  /** Bytes handed to libuv so far. */
  _bytesDispatched?: number;
  /** Bytes libuv still holds, not yet taken by the kernel: falls while the client reads. */
  _handle?: { writeQueueSize?: number } | null;
}

/**
 * Destroys the connections of `server` whose socket has output waiting and has taken no byte of
 * it for `timeoutMs`: a client that asks for a download or a large answer and stops reading
 * would otherwise hold its socket, the file descriptor and the unsent body until it leaves.
 * Destroying the socket closes the response, so the writers let go of what they hold (the file
 * writer closes its descriptor, a piped source is destroyed).
 *
 * Only waiting output counts: a handler still working, an event stream between events or an
 * idle keep-alive connection has none, and other timeouts govern them. Progress is what the
 * kernel took (bytes handed to libuv minus what libuv still queues), so a slow reader that keeps
 * taking bytes is never cut, however large the write it is draining. One timer per server
 * checks every open connection a few times per timeout. Returns the function that stops it.
 *
 * @example
 * const stop = watchSendTimeout(server, sockets, 30_000);
 */
export function watchSendTimeout(server: Server, sockets: Set<Socket>, timeoutMs: number): () => void {
  const progress = new WeakMap<Socket, { taken: number; since: number }>();
  const check = () => {
    const now = Date.now();
    for (const socket of sockets) {
      if (socket.destroyed || socket.writableLength === 0) {
        progress.delete(socket);
        continue;
      }
      const taken = bytesTaken(socket);
      const seen = progress.get(socket);
      if (seen === undefined || seen.taken !== taken) progress.set(socket, { taken, since: now });
      else if (now - seen.since >= timeoutMs) {
        progress.delete(socket);
        socket.destroy();
      }
    }
  };
  const timer = setInterval(check, Math.min(1000, Math.max(25, Math.floor(timeoutMs / 4))));
  timer.unref();
  const stop = () => clearInterval(timer);
  server.once('close', stop);
  return stop;
}

/** The bytes of output the kernel has taken from `socket` so far. */
function bytesTaken(socket: Socket): number {
  const internals = socket as Socket & SocketInternals;
  const queued = internals._handle?.writeQueueSize;
  if (typeof internals._bytesDispatched === 'number' && typeof queued === 'number') return internals._bytesDispatched - queued;
  // Without the internals: the bytes whose writes have completed.
  return socket.bytesWritten - socket.writableLength;
}
