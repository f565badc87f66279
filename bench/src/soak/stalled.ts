/**
 * Stalled readers for the soak: clients that ask for a large download or a large JSON answer
 * and never read it. The child's `sendTimeout` (`STALL_SEND_TIMEOUT_MS`) must cut each one, so
 * descriptors, sockets and memory stay flat round after round; the child reports its open
 * descriptors with the heap.
 */
import type { TernApp } from '@tern/core';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

/** The child's send timeout: short, so stalled connections are gone before a round's connection check. */
export const STALL_SEND_TIMEOUT_MS = 2_000;
/** Larger than loopback socket buffers take in, so a client that stops reading stalls the server. */
const STALLED_FILE_BYTES = 32 * 1024 * 1024;
/** Stalled readers open at once. */
const STALLED_AT_ONCE = 6;
/** A ~16 MB JSON answer, serialized once per child: the soak measures holding it, not making it. */
const JSON_ROWS = 300_000;

/** The routes stalled readers ask for. */
export function addStalledRoutes(app: TernApp): void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tern-soak-stall-'));
  fs.writeFileSync(path.join(dir, 'huge.bin'), Buffer.alloc(STALLED_FILE_BYTES, 'h'));
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  const json = JSON.stringify(Array.from({ length: JSON_ROWS }, (_, i) => ({ id: i, name: `row ${i}`, tags: ['a', 'b'] })));
  app.get('/stall/file', async (_req, res) => res.file('huge.bin', { root: dir }));
  app.get('/stall/json', async (_req, res) => res.send(json, 'application/json; charset=utf-8'));
}

/** Descriptors the process has open (Linux; -1 elsewhere). */
export function openDescriptors(): number {
  try {
    return fs.readdirSync('/proc/self/fd').length;
  } catch {
    return -1;
  }
}

/**
 * Until `deadline`: keeps `STALLED_AT_ONCE` clients that request a file or the JSON answer and
 * read nothing for twice the send timeout, then read what is left. `cut`: the body ended short
 * (the server gave up on them); `complete`: it came whole (on a starved machine the server may
 * not have started sending before the client read again); `stuck`: the connection was still
 * open 20 s later, which fails the round.
 */
export async function stalledReaders(port: number, host: string, deadline: number): Promise<StalledCounts> {
  const counts: StalledCounts = { cut: 0, complete: 0, stuck: 0 };
  const one = async (i: number) => {
    for (let n = 0; n < 10_000 && performance.now() < deadline; n++) {
      counts[await stallOnce(port, host, (i + n) % 2 === 0 ? '/stall/file' : '/stall/json')]++;
    }
  };
  await Promise.all(Array.from({ length: STALLED_AT_ONCE }, (_, i) => one(i)));
  return counts;
}

export interface StalledCounts {
  cut: number;
  complete: number;
  stuck: number;
}

/** One stalled request, then reading again: how it ended. */
async function stallOnce(port: number, host: string, target: string): Promise<keyof StalledCounts> {
  const socket = net.connect(port, host);
  socket.on('error', () => {});
  socket.write(`GET ${target} HTTP/1.1\r\nHost: soak\r\nConnection: close\r\n\r\n`);
  socket.pause();
  await sleep(STALL_SEND_TIMEOUT_MS * 2);
  let head = '';
  let bytes = 0;
  const ended = new Promise<keyof StalledCounts>((resolve) => {
    const timer = setTimeout(() => resolve('stuck'), 20_000);
    socket.on('close', () => {
      clearTimeout(timer);
      const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? NaN);
      const body = bytes - (head.indexOf('\r\n\r\n') + 4);
      resolve(body === length ? 'complete' : 'cut');
    });
  });
  socket.on('data', (chunk: Buffer) => {
    if (head.length < 1024) head += chunk.subarray(0, 1024).toString('latin1');
    bytes += chunk.length;
  });
  socket.resume();
  const outcome = await ended;
  socket.destroy();
  return outcome;
}
