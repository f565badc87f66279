/**
 * The differential harness: one request through an Express 5 app (the oracle) and through a Tern
 * app running the same middleware with fromConnect, compared on status, headers and body.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { createServer as createHttpServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import type { TernApp } from '@tern/core';

/** Headers that differ between any two servers for reasons unrelated to the middleware. */
const INCIDENTAL = new Set(['date', 'connection', 'keep-alive']);

/** What a client received, as compared: header values joined, random parts masked. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A request as the suite sends it. */
export interface Exchange {
  method?: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

/** What came back over the socket: the body's bytes as sent (compressed ones stay compressed). */
export interface Received {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
}

const servers: Server[] = [];

/** Serves `listener` on a free local port (closed by `closeServers`). Express replaces the prototype of res, so in-memory injection cannot see its bodies: both sides go over a real socket. */
export async function serve(listener: (req: IncomingMessage, res: ServerResponse) => void): Promise<number> {
  const server = createHttpServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

export async function closeServers(): Promise<void> {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
}

export function send(port: number, exchange: Exchange | string): Promise<Received> {
  const { method = 'GET', url, headers = {}, body } = typeof exchange === 'string' ? { url: exchange } : exchange;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path: url, headers: body === undefined ? headers : { 'content-length': String(Buffer.byteLength(body)), ...headers }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

export function answerOf(res: Received, masks: Array<[RegExp, string]> = []): Answer {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) {
    if (value === undefined || INCIDENTAL.has(name)) continue;
    headers[name] = mask(Array.isArray(value) ? value.join('\n') : String(value), masks);
  }
  return { status: res.status, headers, body: mask(res.bytes.toString('latin1'), masks) };
}

function mask(text: string, masks: Array<[RegExp, string]>): string {
  return masks.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), text);
}

/** An Express app and a Tern app, each on its own port. */
export interface Pair {
  express: number;
  tern: number;
}

export async function servePair(express: Express, tern: TernApp): Promise<Pair> {
  return { express: await serve(express as unknown as (req: IncomingMessage, res: ServerResponse) => void), tern: await serve(tern.handler) };
}

/** The same request to both apps; `masks` blank out what is random in both (session ids, times). */
export async function both(pair: Pair, exchange: Exchange | string, masks?: Array<[RegExp, string]>): Promise<{ express: Answer; tern: Answer; raw: [Received, Received] }> {
  const fromExpress = await send(pair.express, exchange);
  const fromTern = await send(pair.tern, exchange);
  return { express: answerOf(fromExpress, masks), tern: answerOf(fromTern, masks), raw: [fromExpress, fromTern] };
}

/** A Redis for the session store: REDIS_TEST_URL when set, else a redis-server of our own on a free port, else none (with the reason). */
export async function testRedis(): Promise<{ url: string; stop(): Promise<void> } | { skip: string }> {
  if (process.env.REDIS_TEST_URL) return { url: process.env.REDIS_TEST_URL, stop: async () => undefined };
  const port = await freePort();
  let child: ChildProcess;
  try {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    return { skip: `REDIS_TEST_URL is unset and redis-server could not start (${(err as Error).message})` };
  }
  const ready = await new Promise<string | true>((resolve) => {
    let out = '';
    child.once('error', (err) => resolve(`REDIS_TEST_URL is unset and redis-server is not on PATH (${err.message})`));
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Ready to accept connections')) resolve(true);
    });
    child.once('exit', (code) => resolve(`redis-server exited with ${String(code)}: ${out.slice(-300)}`));
  });
  if (ready !== true) return { skip: ready };
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
