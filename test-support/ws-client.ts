/**
 * A real WebSocket client for tests (the `ws` package), with its frames queued from the start so
 * none is missed between `await`s, and the answer a refused upgrade got.
 */
import type { IncomingMessage } from 'node:http';
import WebSocket from 'ws';
import type { TernApp } from '@tern/core';

export interface ClientSocket {
  readonly ws: WebSocket;
  /** The next frame (text as a string, binary as a Buffer), in order. */
  next(): Promise<string | Buffer>;
  /** The next frame parsed as JSON. */
  nextJson<T = unknown>(): Promise<T>;
  /** Resolves when the socket closed, with the close frame's code and reason (1006 without one). */
  readonly closed: Promise<{ code: number; reason: string }>;
  /** The headers of the 101. */
  readonly handshake: IncomingMessage;
}

/** What a refused upgrade was answered. */
export interface Refusal {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
}

/** Opens a socket; rejects with a `Refusal` when the server answers the upgrade with anything but 101. */
export function connect(url: string, options: WebSocket.ClientOptions = {}): Promise<ClientSocket> {
  const ws = new WebSocket(url, options);
  const frames: Array<string | Buffer> = [];
  const waiting: Array<(frame: string | Buffer) => void> = [];
  ws.on('message', (data: Buffer, isBinary: boolean) => {
    const frame = isBinary ? data : data.toString('utf8');
    const waiter = waiting.shift();
    if (waiter) waiter(frame);
    else frames.push(frame);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString('utf8') })));
  return new Promise((resolve, reject) => {
    const next = (): Promise<string | Buffer> => {
      const frame = frames.shift();
      if (frame !== undefined) return Promise.resolve(frame);
      return new Promise((take) => waiting.push(take));
    };
    ws.once('upgrade', (handshake) => {
      ws.once('open', () =>
        resolve({ ws, handshake, closed, next, nextJson: async <T>() => JSON.parse(String(await next())) as T }),
      );
    });
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        reject(Object.assign(new Error(`upgrade refused with ${res.statusCode}`), { status: res.statusCode ?? 0, headers: res.headers, body } satisfies Refusal));
        ws.terminate();
      });
    });
    ws.once('error', reject);
  });
}

/** The answer to an upgrade the server must refuse; fails the test if it accepts. */
export async function refusedUpgrade(url: string, options: WebSocket.ClientOptions = {}): Promise<Refusal> {
  try {
    const socket = await connect(url, options);
    socket.ws.terminate();
  } catch (err) {
    if (typeof (err as Partial<Refusal>).status === 'number') return err as Refusal;
    throw err;
  }
  throw new Error(`expected ${url} to refuse the upgrade, it accepted`);
}

/**
 * `serve(app)`: listens on a free loopback port and answers the app's `ws://` address. Every app
 * served is closed after each test of the file that calls this (once, at the top).
 */
export function servedSockets(): (app: TernApp) => Promise<string> {
  const apps: TernApp[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });
  return async (app) => {
    apps.push(app);
    return (await app.listen({ port: 0 })).replace(/^http/, 'ws');
  };
}
