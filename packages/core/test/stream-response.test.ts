import { Readable } from 'node:stream';
import { TernApp, TernTypeError } from '@tern/core';
import { listenOnFreePort } from '../../../test-support/raw-http';
import { eventually, openStream } from '../../../test-support/stream-client';

const CHUNK = Buffer.alloc(64 * 1024, 'a');
const TOTAL_CHUNKS = 1024; // 64 MiB if read in full

/** A source that counts how often it was asked for data, and whether it was destroyed. */
function countingSource() {
  const state = { reads: 0, destroyed: false };
  const source = new Readable({
    read() {
      state.reads++;
      this.push(state.reads > TOTAL_CHUNKS ? null : CHUNK);
    },
    destroy(err, callback) {
      state.destroyed = true;
      callback(err);
    },
  });
  return { source, state };
}

describe('res.stream()', () => {
  let app: TernApp;
  let port: number;
  const reported: unknown[] = [];
  let current: ReturnType<typeof countingSource>;
  let generatorStarted = false;
  let lateStarted = false;
  let late: ReturnType<typeof countingSource> | undefined;

  beforeAll(async () => {
    app = new TernApp({ logger: { error: (_message: string, err: unknown) => reported.push(err) } });
    app.addMiddleware(async (req, res, next) => {
      const response = await next();
      return response.setHeader('x-request-id', 'abc').setHeader('content-length', '999');
    });
    app.get('/big', async (req, res) => {
      current = countingSource();
      return res.stream(current.source);
    });
    app.get('/generator', async (req, res) =>
      res.stream(
        (async function* () {
          generatorStarted = true;
          yield 'one,';
          yield new TextEncoder().encode('two,');
          yield Buffer.from('three');
        })(),
        'text/csv; charset=utf-8',
        201,
      ),
    );
    app.get('/web', async (req, res) => {
      const encoder = new TextEncoder();
      const parts = ['web ', 'stream'];
      return res.stream(new ReadableStream<Uint8Array>({ pull: (c) => (parts.length ? c.enqueue(encoder.encode(parts.shift())) : c.close()) }), 'text/plain');
    });
    app.get('/fails-halfway', async (req, res) =>
      res.stream(
        (async function* () {
          yield 'partial data, ';
          await new Promise((resolve) => setTimeout(resolve, 5));
          throw new Error('disk went away');
        })(),
        'text/plain',
      ),
    );
    app.get('/replaced', async (req, res) => {
      current = countingSource();
      res.stream(current.source);
      throw new Error('changed my mind');
    });
    app.get('/late', async (req, res) => {
      lateStarted = true;
      // Answers only once its client has gone: the response is closed before the body is piped.
      await new Promise((resolve) => req.signal.addEventListener('abort', resolve, { once: true }));
      late = countingSource();
      return res.stream(late.source);
    });
    app.get('/not-a-stream', async (req, res) => res.stream(42 as never));
    port = await listenOnFreePort(app);
  });

  afterAll(() => app.close());
  beforeEach(() => {
    reported.length = 0;
  });

  it('sends the chunks chunked, with the headers middleware set and no Content-Length', async () => {
    const response = await app.inject('/generator');
    expect(response.statusCode).toBe(201);
    expect(response.body).toBe('one,two,three');
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['x-request-id']).toBe('abc');
    expect(response.headers['content-length']).toBeUndefined();
    expect(response.headers['transfer-encoding']).toBe('chunked');
  });

  it('accepts a web ReadableStream', async () => {
    const response = await app.inject('/web');
    expect(response.body).toBe('web stream');
  });

  it('ends a complete stream with the last chunk and keeps the connection open', async () => {
    const client = openStream(port, '/generator');
    await client.waitFor((data) => data.endsWith('\r\n0\r\n\r\n'));
    expect(client.closedByServer()).toBe(false);
    client.socket.destroy();
  });

  it('does not read the whole source ahead of a slow reader, and destroys it when the client goes away', async () => {
    const client = openStream(port, '/big');
    await client.waitFor((data) => data.includes('\r\n\r\n'));
    client.socket.pause();
    // Wait for the server to stop reading: the socket buffers are full and backpressure holds.
    let previous = -1;
    await eventually(() => {
      const settled = current.state.reads === previous;
      previous = current.state.reads;
      return settled && previous > 0;
    });
    expect(current.state.reads).toBeLessThan(TOTAL_CHUNKS / 4);
    expect(current.state.destroyed).toBe(false);
    client.socket.destroy();
    await eventually(() => current.state.destroyed);
    expect(current.state.reads).toBeLessThan(TOTAL_CHUNKS / 4);
    expect(reported).toEqual([]);
  });

  it('destroys a source answered after its client left, without reading it', async () => {
    const client = openStream(port, '/late');
    await eventually(() => lateStarted);
    client.socket.destroy();
    await eventually(() => late?.state.destroyed === true);
    expect(late?.state.reads).toBe(0);
    expect(reported).toEqual([]);
  });

  it('cuts the connection when the source fails half-way, and reports the error', async () => {
    const client = openStream(port, '/fails-halfway');
    await client.closed;
    expect(client.closedByServer()).toBe(true);
    expect(client.data()).toContain('partial data, ');
    // A chunked body ends with a zero-length chunk; a cut one never gets it.
    expect(client.data()).not.toMatch(/\r\n0\r\n\r\n$/);
    expect(reported).toEqual([expect.objectContaining({ message: 'disk went away' })]);
  });

  it('answers HEAD with the headers only and never reads the source', async () => {
    generatorStarted = false;
    const response = await app.inject({ method: 'HEAD', url: '/generator' });
    expect(response.statusCode).toBe(201);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.body).toBe('');
    expect(generatorStarted).toBe(false);
  });

  it('destroys a source a later error answer replaced', async () => {
    const response = await app.inject('/replaced');
    expect(response.statusCode).toBe(500);
    expect(response.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(current.state.destroyed).toBe(true);
    expect(current.state.reads).toBe(0);
  });

  it('refuses something that is not a stream in the handler (a 500, reported)', async () => {
    const response = await app.inject('/not-a-stream');
    expect(response.statusCode).toBe(500);
    expect(reported).toEqual([expect.any(TernTypeError)]);
    expect((reported[0] as TernTypeError).code).toBe('TERN_INVALID_ARGUMENT');
  });
});
