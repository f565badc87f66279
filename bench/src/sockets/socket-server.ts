/**
 * A child process serving the socket scenarios with one implementation, started by
 * socket-bench.ts: `node socket-server.js <tern|ws|fastify>`. Each serves `/echo` (every frame
 * sent back) and, but Fastify, `/room` (every frame sent to every socket in the one room). It
 * says `{ port }` once listening and answers `usage` with its CPU time and memory.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';

export type SocketServerKind = 'tern' | 'ws' | 'fastify';

export interface Usage {
  /** CPU time (user + system) before the forced collection, and after it. */
  cpuMicros: number;
  cpuMicrosAfterGc: number;
  rss: number;
  heapUsed: number;
}

/**
 * CPU time and memory after a forced collection (so memory counts only what is alive). The CPU
 * time is read on both sides of it: a round's window starts after one and ends before the next,
 * so no server pays for the collection the bench forces (a bigger heap would pay more).
 */
function usage(): Usage {
  const before = process.cpuUsage();
  (globalThis as { gc?: () => void }).gc?.();
  const after = process.cpuUsage();
  const memory = process.memoryUsage();
  return { cpuMicros: before.user + before.system, cpuMicrosAfterGc: after.user + after.system, rss: memory.rss, heapUsed: memory.heapUsed };
}

async function tern(): Promise<number> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { TernApp } = require('@tern/core') as typeof import('@tern/core');
  const app = new TernApp({ logger: false, websocket: { maxConnections: 100_000 } });
  app.ws('/echo', {}, { message: (socket, data) => socket.send(data) });
  app.ws('/room', {}, {
    open: (socket) => socket.join('all'),
    message: (socket, data) => app.publish('all', data),
  });
  const address = await app.listen({ port: 0 });
  return Number(new URL(address).port);
}

async function rawWs(): Promise<number> {
  const server = createServer((req, res) => res.writeHead(404).end());
  const echo = new WebSocketServer({ noServer: true, perMessageDeflate: false, clientTracking: false });
  const room = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  echo.on('connection', (ws) => ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary })));
  room.on('connection', (ws) =>
    ws.on('message', (data, isBinary) => {
      for (const client of room.clients) client.send(data, { binary: isBinary });
    }),
  );
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const target = req.url === '/echo' ? echo : req.url === '/room' ? room : undefined;
    if (!target) return socket.destroy();
    target.handleUpgrade(req, socket, head, (ws: WebSocket) => target.emit('connection', ws, req));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

async function fastify(): Promise<number> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Fastify = require('fastify') as typeof import('fastify').default;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const websocket = require('@fastify/websocket') as typeof import('@fastify/websocket').default;
  const app = Fastify({ logger: false });
  await app.register(websocket, { options: { perMessageDeflate: false } });
  app.register(async (scope) => {
    scope.get('/echo', { websocket: true }, (socket) => {
      socket.on('message', (data, isBinary) => socket.send(data as Buffer, { binary: isBinary }));
    });
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as { port: number }).port;
}

const SERVERS: Record<SocketServerKind, () => Promise<number>> = { tern, ws: rawWs, fastify };

if (require.main === module) {
  const kind = process.argv[2] as SocketServerKind;
  SERVERS[kind]().then(
    (port) => {
      process.on('message', (message) => {
        if (message === 'usage') process.send?.({ usage: usage() });
      });
      process.send?.({ port });
    },
    (err: unknown) => {
      process.stderr.write(`socket server ${kind} failed: ${String(err)}\n`);
      process.exit(1);
    },
  );
}
