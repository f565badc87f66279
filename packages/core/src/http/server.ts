import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ServerTimeouts } from '../config';
import { markCutByClose } from './abort';
import { TernIncomingMessage, TernServerResponse } from './node-messages';
import { watchSendTimeout } from './send-timeout';

export interface ServerHooks {
  listener: (req: IncomingMessage, res: ServerResponse) => void;
  bodyLimit: number;
  /**
   * Takes upgrade requests (WebSockets). Only an app with socket routes gives one: without an
   * `upgrade` listener Node serves a request asking for an upgrade as plain HTTP.
   */
  upgrade?: (req: IncomingMessage, socket: Duplex, head: Buffer) => void;
}

const MAX_TIMER_MS = 2 ** 31 - 1;

/** The open connections of each server createHttpServer made (see closeServer). */
const openSockets = new WeakMap<Server, Set<Socket>>();

const CLIENT_ERROR_STATUS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout'],
  ERR_HTTP_HEADERS_TIMEOUT: [408, 'Request Timeout'],
};

/**
 * Creates the node:http server with Tern's timeouts and its answers to what the HTTP parser
 * rejects before any handler runs.
 */
export function createHttpServer(hooks: ServerHooks, timeouts: ServerTimeouts = {}): Server {
  const requestTimeout = timeouts.requestTimeout ?? 30_000;
  const server = createServer(
    {
      IncomingMessage: TernIncomingMessage,
      ServerResponse: TernServerResponse,
      requestTimeout,
      // Node refuses a headers timeout longer than the request timeout.
      headersTimeout: Math.min(timeouts.headersTimeout ?? 10_000, requestTimeout),
      keepAliveTimeout: timeouts.keepAliveTimeout ?? 5_000,
      // Node only checks those timeouts this often (30 s by default); short timeouts need more checks.
      connectionsCheckingInterval: Math.min(30_000, Math.max(100, Math.floor(requestTimeout / 4))),
    },
    hooks.listener,
  );

  if (hooks.upgrade) server.on('upgrade', hooks.upgrade);
  const sockets = new Set<Socket>();
  openSockets.set(server, sockets);
  const sendTimeout = timeouts.sendTimeout ?? 30_000;
  if (sendTimeout !== Infinity) server.once('listening', () => watchSendTimeout(server, sockets, sendTimeout));
  // One listener for every connection (a socket closes once): a closure per connection would
  // live as long as it, hours for a WebSocket.
  const forget = function (this: Socket): void {
    sockets.delete(this);
  };
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', forget);
  });

  // Node's default always answers 400; keep the parser's 431 and 408 so clients learn why.
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    // A request already being answered cannot get a second status line; one still waiting
    // for its body (a slow client) can still be told 408, as Node's default handler does.
    const inFlight = responseOn(socket);
    if (!socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const [status, text] = CLIENT_ERROR_STATUS[err.code ?? ''] ?? [400, 'Bad Request'];
    const body = JSON.stringify({ type: 'about:blank', title: text, status });
    socket.end(
      `HTTP/1.1 ${status} ${text}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });

  // With `Expect: 100-continue` a client waits before sending the body: refuse an oversized one
  // without asking for it.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    const declared = Number(req.headers['content-length']);
    if (declared > hooks.bodyLimit) {
      const body = JSON.stringify({
        type: 'about:blank',
        title: 'Payload Too Large',
        status: 413,
        detail: `Request body exceeds the limit of ${hooks.bodyLimit} bytes.`,
        instance: (req.url ?? '/').split('?')[0],
      });
      res.writeHead(413, {
        'content-type': 'application/problem+json; charset=utf-8',
        'content-length': String(Buffer.byteLength(body)),
        connection: 'close',
      });
      res.end(body);
      return;
    }
    res.writeContinue();
    hooks.listener(req, res);
  });

  return server;
}

/**
 * Stops accepting connections, closes idle ones and resolves once every connection has ended,
 * or once `closeTimeoutMs` has passed: then the connections still open (a stream that never
 * ends, a client reading forever) are destroyed, so shutdown is bounded whatever handlers do.
 * Node's `closeIdleConnections()` (which `server.close()` calls) takes a connection for idle as
 * soon as its response has ended, even while a large body is still going out to a slow reader,
 * and destroys it mid-body. So responses still being flushed go out first (for up to
 * `flushTimeoutMs`, within the close timeout), and the last check and the close run in one
 * synchronous step: no response can start flushing in between.
 */
export async function closeServer(server: Server, flushTimeoutMs: number, closeTimeoutMs = Infinity): Promise<void> {
  const closeDeadline = Date.now() + closeTimeoutMs;
  const deadline = Math.min(Date.now() + flushTimeoutMs, closeDeadline);
  for (let flushing = flushingResponses(server); flushing.length > 0 && Date.now() < deadline; flushing = flushingResponses(server)) {
    let timer: NodeJS.Timeout | undefined;
    const sent = flushing.map((res) => new Promise((resolve) => res.once('finish', resolve).once('close', resolve)));
    await Promise.race([Promise.all(sent), new Promise((resolve) => (timer = setTimeout(resolve, deadline - Date.now())))]);
    clearTimeout(timer);
  }
  // A response Tern writes while closing says `Connection: close`, which ends its connection. One
  // a handler wrote on the raw response itself (a stream, a mounted app) does not: its
  // keep-alive connection would hold close() up until keepAliveTimeout. Close each connection
  // as soon as its response has gone out instead.
  const closeWhenSent = (res: ServerResponse) => res.once('finish', () => setImmediate(() => server.closeIdleConnections()));
  const onRequest = (_req: unknown, res: ServerResponse) => closeWhenSent(res);
  for (const socket of openSockets.get(server) ?? []) {
    const res = responseOn(socket);
    if (res && !res.writableFinished) closeWhenSent(res);
  }
  server.on('request', onRequest);
  try {
    const closed = new Promise<void>((resolve, reject) => {
      server.close((err) => (err ? reject(err) : resolve()));
      server.closeIdleConnections();
    });
    if ((await byDeadline(closed, closeDeadline)) === 'expired') {
      await Promise.all([closed, ...destroyConnections(server)]);
    }
  } finally {
    server.off('request', onRequest);
  }
}

/** What `work` resolves to, or `'expired'` once `deadline` (a `Date.now()` time) has passed first. */
export async function byDeadline<T>(work: Promise<T>, deadline: number): Promise<T | 'expired'> {
  const remaining = deadline - Date.now();
  // setTimeout treats Infinity (and anything past 2^31 - 1 ms, ~24 days) as 1 ms: an unbounded
  // wait sets no timer at all.
  if (remaining > MAX_TIMER_MS) return work;
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([work, new Promise<'expired'>((resolve) => (timer = setTimeout(resolve, Math.max(0, remaining), 'expired')))]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The close timeout expired: cuts every connection still open. Resolves as each one has closed,
 * so by then their responses emitted 'close' and their requests' signals are aborted (the
 * server's own close callback can come first).
 */
function destroyConnections(server: Server): Array<Promise<void>> {
  const gone: Array<Promise<void>> = [];
  for (const socket of openSockets.get(server) ?? []) {
    const res = responseOn(socket);
    if (res) markCutByClose(res);
    if (!socket.closed) gone.push(new Promise((resolve) => socket.once('close', () => resolve())));
    socket.destroy();
  }
  // Connections Node tracks that never reached the 'connection' listener (none expected).
  server.closeAllConnections();
  return gone;
}

/** Responses that have ended but whose bytes are not all handed to the OS yet. */
function flushingResponses(server: Server): ServerResponse[] {
  const flushing: ServerResponse[] = [];
  for (const socket of openSockets.get(server) ?? []) {
    const res = responseOn(socket);
    if (res?.writableEnded && !res.writableFinished) flushing.push(res);
  }
  return flushing;
}

/** The response a socket is currently answering: Node keeps it as `_httpMessage`, not public API. */
function responseOn(socket: Socket): ServerResponse | null | undefined {
  return (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
}
