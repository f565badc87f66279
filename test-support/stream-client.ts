import { connect, type Socket } from 'node:net';

/**
 * A raw HTTP/1.1 client for streamed answers: it keeps everything received (latin1), can stop
 * reading (to play a slow reader) and says whether the server closed the connection.
 */
export interface StreamClient {
  socket: Socket;
  /** Everything received so far, headers included. */
  data(): string;
  /** Resolves once `test` holds for what was received; rejects after `timeoutMs` (a bound, not an assertion). */
  waitFor(test: (data: string) => boolean, timeoutMs?: number): Promise<string>;
  /** Resolves when the connection closes (either side). */
  closed: Promise<void>;
  /** True once the server ended or cut the connection. */
  closedByServer(): boolean;
}

/** Sends `GET target` (keep-alive unless a header says otherwise) and starts collecting the answer. */
export function openStream(port: number, target: string, headers = '', method = 'GET'): StreamClient {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  let serverClosed = false;
  let destroyedByUs = false;
  const waiters = new Set<() => void>();
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1');
    for (const check of waiters) check();
  });
  socket.on('error', () => {});
  socket.on('end', () => (serverClosed = !destroyedByUs));
  const closed = new Promise<void>((resolve) =>
    socket.on('close', () => {
      if (!destroyedByUs) serverClosed = true;
      for (const check of waiters) check();
      resolve();
    }),
  );
  const originalDestroy = socket.destroy.bind(socket);
  socket.destroy = ((err?: Error) => {
    destroyedByUs = true;
    return originalDestroy(err);
  }) as Socket['destroy'];
  socket.write(`${method} ${target} HTTP/1.1\r\nHost: x\r\n${headers}\r\n`);
  return {
    socket,
    data: () => received,
    closed,
    closedByServer: () => serverClosed,
    waitFor(test, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!test(received)) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(received);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`waitFor gave up after ${timeoutMs} ms; received: ${JSON.stringify(received.slice(0, 500))}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
}

/** Polls `test` until it holds; rejects after `timeoutMs` (for state the server changes, e.g. a cleanup flag). */
export async function eventually(test: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`condition still false after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
