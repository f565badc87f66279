import { connect } from 'node:net';
import type { TernApp } from '@tern/core';

/** What came back over one connection, and whether the server closed it (or we gave up waiting). */
export interface RawExchange {
  data: string;
  closedByServer: boolean;
}

/**
 * Sends raw bytes and collects everything the server answers until it closes the connection or
 * `waitMs` passes: for what a client library would normalise (dot segments, encodings, framing)
 * or hide (a response cut off half-way).
 */
export function rawExchange(port: number, bytes: string, { waitMs = 1500 } = {}): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ data, closedByServer: false });
    }, waitMs);
    socket.on('data', (chunk) => (data += chunk.toString('latin1')));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ data, closedByServer: true });
    });
    socket.on('error', (err) => {
      if (!data) {
        clearTimeout(timer);
        reject(err);
      }
    });
    socket.write(bytes);
  });
}

/** The bytes of `rawExchange`. */
export async function rawRequest(port: number, bytes: string, options: { waitMs?: number } = {}): Promise<string> {
  return (await rawExchange(port, bytes, options)).data;
}

/** `GET target` over a fresh connection that asks to be closed after the answer. */
export function rawGet(port: number, target: string, headers = ''): Promise<string> {
  return rawRequest(port, `GET ${target} HTTP/1.1\r\nHost: x\r\n${headers}Connection: close\r\n\r\n`);
}

export function statusOf(response: string): number {
  return Number(response.split(' ')[1]);
}

export function bodyOf(response: string): string {
  return response.slice(response.indexOf('\r\n\r\n') + 4);
}

/** Starts `app` on an ephemeral loopback port and returns the port. */
export async function listenOnFreePort(app: TernApp): Promise<number> {
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return Number(new URL(address).port);
}
