import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { TernApp } from '@tern/core';
import { descriptorsOn } from '../../../test-support/descriptors';
import { listenOnFreePort } from '../../../test-support/raw-http';

// Bodies far larger than what loopback socket buffers take in: a client that stops reading
// leaves most of them waiting in the server.
const FILE_BYTES = 32 * 1024 * 1024;
const folder = mkdtempSync(join(tmpdir(), 'tern-slow-'));
const file = join(folder, 'huge.bin');
// A JSON answer of ~16 MB, made once (each request only writes it).
const BIG_JSON = JSON.stringify(Array.from({ length: 300_000 }, (_, i) => ({ id: i, name: `item number ${i}`, tags: ['a', 'b'] })));

beforeAll(() => writeFileSync(file, Buffer.alloc(FILE_BYTES, 7)));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Descriptors this process holds on the test file. */
const openDescriptors = (): number => descriptorsOn(file);

/**
 * A client that sends `GET path` and then takes `perTick` bytes every 50 ms (0: none). A client
 * that stops reading sees nothing when the server gives up (its data waits unread): it learns
 * it only once it reads again, from a body that ends short.
 */
interface Client {
  socket: Socket;
  received: () => number;
  /** Reads everything that is left; resolves with the bytes received in all once the server closed. */
  drain: () => Promise<number>;
}
const clients: Socket[] = [];
afterEach(() => clients.splice(0).forEach((socket) => socket.destroy()));

function client(port: number, path: string, perTick = 0): Client {
  const socket = connect(port, '127.0.0.1');
  clients.push(socket);
  socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
  socket.pause();
  let received = 0;
  const reader =
    perTick > 0
      ? setInterval(() => {
          const chunk = socket.read(Math.min(perTick, socket.readableLength)) as Buffer | null;
          if (chunk) received += chunk.length;
        }, 50).unref()
      : undefined;
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.on('error', () => {});
  return {
    socket,
    received: () => received,
    drain: async () => {
      clearInterval(reader);
      socket.on('data', (chunk: Buffer) => (received += chunk.length));
      socket.resume();
      await closed;
      return received;
    },
  };
}

/** Waits (at most `ms`) until `check` holds; returns whether it does. */
async function until(check: () => boolean | Promise<boolean>, ms = 60_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!(await check()) && Date.now() < deadline) await sleep(20);
  return check();
}

describe('a response whose client stops reading (server.sendTimeout)', () => {
  let app: TernApp;
  let port: number;

  beforeAll(async () => {
    app = new TernApp({ logger: false, server: { sendTimeout: 400 } });
    app.get('/file', async (req, res) => res.file(file));
    app.get('/json', async (req, res) => res.send(BIG_JSON, 'application/json'));
    port = await listenOnFreePort(app);
  });
  afterAll(() => app.close());

  const connections = () => new Promise<number>((resolve) => app.server!.getConnections((_err, count) => resolve(count)));

  it('destroys stalled downloads and closes their file descriptors', async () => {
    const stalled = Array.from({ length: 10 }, () => client(port, '/file'));
    expect(await until(() => openDescriptors() === 10)).toBe(true);
    expect(await until(async () => (await connections()) === 0 && openDescriptors() === 0)).toBe(true);
    // Reading again, each client finds a body cut short, never a complete-looking one.
    for (const received of await Promise.all(stalled.map((c) => c.drain()))) expect(received).toBeLessThan(FILE_BYTES);
  });

  it('destroys connections stalled on a large JSON answer', async () => {
    const stalled = Array.from({ length: 5 }, () => client(port, '/json'));
    await sleep(100);
    expect(await until(async () => (await connections()) === 0)).toBe(true);
    for (const received of await Promise.all(stalled.map((c) => c.drain()))) expect(received).toBeLessThan(BIG_JSON.length);
  });

  it('refuses a sendTimeout that is not a positive integer', () => {
    expect(() => new TernApp({ server: { sendTimeout: 0 } })).toThrow(expect.objectContaining({ code: 'TERN_INVALID_LIMIT' }));
    expect(() => new TernApp({ server: { sendTimeout: 1.5 } })).toThrow(RangeError);
    expect(() => new TernApp({ server: { sendTimeout: Infinity } })).not.toThrow();
  });
});

describe('a response whose client reads slowly', () => {
  let app: TernApp;
  let port: number;
  const connections = () => new Promise<number>((resolve) => app.server!.getConnections((_err, count) => resolve(count)));

  beforeAll(async () => {
    // The kernel takes a reader's bytes from the server in steps (half a send buffer, ~2 MiB on
    // loopback, ~0.5 s apart at this client's 5 MB/s): the timeout must be longer than a step.
    app = new TernApp({ logger: false, server: { sendTimeout: 2000 } });
    app.get('/file', async (req, res) => res.file(file));
    app.get('/slow-handler', async () => {
      await sleep(3000);
      return { done: true };
    });
    port = await listenOnFreePort(app);
  });
  afterAll(() => app.close());

  it('never cuts a slow client that keeps reading, nor a handler still working', async () => {
    const slow = client(port, '/file', 256 * 1024);
    const working = client(port, '/slow-handler');
    await sleep(4500);
    // Both still connected after twice the timeout, the slow reader far into the file, not done.
    expect(await connections()).toBe(2);
    expect(slow.received()).toBeGreaterThan(1024 * 1024);
    expect(slow.received()).toBeLessThan(FILE_BYTES);
    const answer = await new Promise<string>((resolve) => {
      let data = '';
      working.socket.on('data', (chunk: Buffer) => {
        data += chunk.toString();
        if (data.includes('{"done":true}')) resolve(data);
      });
      working.socket.resume();
    });
    expect(answer.startsWith('HTTP/1.1 200')).toBe(true);
  });
});
