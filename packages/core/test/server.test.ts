import { connect } from 'node:net';
import { Agent, request } from 'node:http';
import { inject } from 'light-my-request';
import { MakeConfig, TernApp } from '@tern/core';
import { rawRequest, statusOf } from '../../../test-support/raw-http';

describe('the HTTP server', () => {
  let app: TernApp;
  let port: number;
  let release: () => void;
  const slowGate = () => new Promise<void>((resolve) => (release = resolve));
  let received: Array<{ settled: string }> = [];

  beforeAll(async () => {
    app = new TernApp({
      config: new MakeConfig({ bodyLimit: 1000 }),
      server: { requestTimeout: 1000, headersTimeout: 1000 },
      logger: false,
    });
    app.get('/hello', async () => ({ hello: 'world' }));
    app.get('/users/{id:int}', async (req, res, { id }) => ({ id }));
    app.get('/slow', async () => {
      await slowGate();
      return { slow: true };
    });
    app.post('/upload', async (req) => {
      const entry = { settled: 'pending' };
      received.push(entry);
      try {
        await req.json();
        entry.settled = 'resolved';
      } catch (err) {
        entry.settled = (err as { code?: string }).code ?? 'rejected';
        throw err;
      }
      return { ok: true };
    });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    port = Number(new URL(address).port);
  });

  afterAll(() => app.close());
  beforeEach(() => (received = []));

  it('listens on the address it reports and serves requests over a real socket', async () => {
    expect(app.server?.address()).toMatchObject({ address: '127.0.0.1', port });
    const response = await rawRequest(port, 'GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(statusOf(response)).toBe(200);
    expect(response).toContain('{"hello":"world"}');
  });

  it('answers 400 for malformed percent-encoding', async () => {
    const response = await rawRequest(port, 'GET /users/%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(statusOf(response)).toBe(400);
    expect(response).toContain('malformed percent-encoding');
  });

  it.each(['/users/../hello', '/users/%2e%2e/hello', '/./hello'])('answers 400 for the dot segments of %s', async (target) => {
    const response = await rawRequest(port, `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(statusOf(response)).toBe(400);
  });

  it('routes a //host/x request target as a path, never as another host', async () => {
    const response = await rawRequest(port, 'GET //evil.example/hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(statusOf(response)).toBe(404);
    expect(response).toContain('"instance":"//evil.example/hello"');
  });

  it('routes absolute-form targets by their path', async () => {
    const response = await rawRequest(port, 'GET http://example.com/hello HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n');
    expect(statusOf(response)).toBe(200);
  });

  it('refuses Content-Length together with Transfer-Encoding (request smuggling)', async () => {
    const response = await rawRequest(
      port,
      'POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n',
    );
    expect(statusOf(response)).toBe(400);
    expect(response.match(/HTTP\/1\.1/g)).toHaveLength(1);
  });

  it('keeps 431 for oversized headers', async () => {
    const response = await rawRequest(port, `GET /hello HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(statusOf(response)).toBe(431);
  });

  it('answers 408 to a client too slow to send its request', async () => {
    const response = await rawRequest(port, 'POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{"a":', { waitMs: 4000 });
    expect(statusOf(response)).toBe(408);
  });

  it('answers 413 to Expect: 100-continue with an oversized body, without asking for it', async () => {
    const response = await rawRequest(
      port,
      'POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000\r\nExpect: 100-continue\r\n\r\n',
    );
    expect(response).not.toContain('100 Continue');
    expect(statusOf(response)).toBe(413);
    expect(received).toHaveLength(0);
  });

  it('sends 100 Continue for an acceptable body', async () => {
    const response = await new Promise<number>((resolve, reject) => {
      const req = request({ port, path: '/upload', method: 'POST', headers: { 'content-type': 'application/json', 'content-length': 2, expect: '100-continue' } });
      req.on('continue', () => req.end('{}'));
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode as number);
      });
      req.on('error', reject);
    });
    expect(response).toBe(200);
  });

  it('settles the body promise when a client aborts mid-body', async () => {
    const socket = connect(port, '127.0.0.1');
    socket.write('POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":');
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(received).toEqual([{ settled: 'TERN_CLIENT_ABORTED' }]);
  });

  it('lets in-flight requests finish on close, with Connection: close', async () => {
    const inFlight = new Promise<{ status: number; connection?: string; body: string }>((resolve, reject) => {
      request({ port, path: '/slow', agent: false }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode as number, connection: res.headers.connection, body }));
      }).on('error', reject).end();
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closed = app.close();
    setTimeout(() => release(), 100);
    const result = await inFlight;
    await closed;
    expect(result).toEqual({ status: 200, connection: 'close', body: '{"slow":true}' });
    // Listening again proves close() released the port and the app can restart.
    const address = await app.listen({ port, host: '127.0.0.1' });
    expect(address).toBe(`http://127.0.0.1:${port}`);
  });
});

describe('app.handler', () => {
  it('readies the app on its first request', async () => {
    const app = new TernApp();
    app.get('/x', async () => ({ x: 1 }));
    const response = await inject(app.handler, { url: '/x' });
    expect(JSON.parse(response.body)).toEqual({ x: 1 });
  });
});

describe('close() and responses written on the raw Node response', () => {
  it('closes the keep-alive connection of a response a handler streamed itself, once it ends', async () => {
    // keepAliveTimeout is a minute: a close() that waited for it would outlive the test.
    const app = new TernApp({ server: { keepAliveTimeout: 60_000 }, logger: false });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    app.get('/stream', async (req, res) => {
      res.raw.writeHead(200, { 'content-type': 'text/plain' });
      res.raw.write('first,');
      await gate;
      res.raw.end('last');
      return res;
    });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const agent = new Agent({ keepAlive: true });
    try {
      let socketClosed!: Promise<void>;
      const body = new Promise<string>((resolve, reject) => {
        const req = request(`${address}/stream`, { agent }, (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve(text));
        });
        req.on('socket', (socket) => (socketClosed = new Promise((resolve) => socket.once('close', () => resolve()))));
        req.on('error', reject).end();
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      let closeResolved = false;
      const closing = app.close().then(() => (closeResolved = true));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(closeResolved).toBe(false); // the stream is still going
      release();
      expect(await body).toBe('first,last');
      await closing;
      await socketClosed; // the server ended the idle keep-alive connection
    } finally {
      agent.destroy();
      release();
      await app.close();
    }
  });
});
