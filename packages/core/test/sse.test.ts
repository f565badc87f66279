import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { TernApp } from '@tern/core';
import { formatEvent, type ServerSentEvent } from '../src/http/sse';
import { listenOnFreePort } from '../../../test-support/raw-http';
import { ROOT_DIR, SOURCE_ENV, SOURCE_EXEC_ARGV } from '../../../test-support/source-process';
import { eventually, openStream } from '../../../test-support/stream-client';

const run = promisify(execFile);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Ticks until told to stop; records whether its `finally` ran (the iterator's return()). */
function ticker(state: { cleanedUp: boolean }, from = 0) {
  return (async function* () {
    try {
      for (let i = from; ; i++) {
        yield { id: String(i), data: { i } };
        await sleep(5);
      }
    } finally {
      state.cleanedUp = true;
    }
  })();
}

describe('res.sse()', () => {
  let app: TernApp;
  let port: number;
  const reported: unknown[] = [];
  let state = { cleanedUp: false };
  let controller = new AbortController();

  beforeAll(async () => {
    app = new TernApp({ logger: { error: (_message: string, err: unknown) => reported.push(err) } });
    app.addMiddleware(async (req, res, next) => (await next()).setHeader('x-mw', 'yes'));
    app.get('/framing', { sse: true }, async (req, res) =>
      res.sse(
        (async function* (): AsyncGenerator<ServerSentEvent | string> {
          yield 'plain';
          yield 'two\nlines\r\nand\rmore';
          yield { event: 'update', id: '7', retry: 3000, data: { ok: true } };
          yield { data: 'text as is' };
          yield { id: '' };
        })(),
      ),
    );
    app.get('/ticks', async (req, res) => {
      state = { cleanedUp: false };
      return res.sse(ticker(state, Number(req.lastEventId ?? -1) + 1));
    });
    app.get('/quiet', async (req, res) => {
      state = { cleanedUp: false };
      return res.sse(
        (async function* () {
          try {
            yield 'hello';
            // Nothing else to say: only heartbeats follow.
            await new Promise(() => {});
          } finally {
            state.cleanedUp = true;
          }
        })(),
        { heartbeat: 20 },
      );
    });
    app.get('/signalled', async (req, res) => {
      state = { cleanedUp: false };
      controller = new AbortController();
      return res.sse(ticker(state), { signal: controller.signal });
    });
    app.get('/injection', async (req, res) =>
      res.sse(
        (async function* () {
          yield { data: 'fine' };
          yield { event: 'x\ndata: forged', data: 'y' };
        })(),
      ),
    );
    port = await listenOnFreePort(app);
  });

  afterAll(() => app.close());
  beforeEach(() => {
    reported.length = 0;
  });

  it('frames events byte for byte, with the event-stream headers and those middleware set', async () => {
    const response = await app.inject('/framing');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/event-stream');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['x-accel-buffering']).toBe('no');
    expect(response.headers['x-mw']).toBe('yes');
    expect(response.body).toBe(
      'data: plain\n\n' +
        'data: two\ndata: lines\ndata: and\ndata: more\n\n' +
        'event: update\nid: 7\nretry: 3000\ndata: {"ok":true}\n\n' +
        'data: text as is\n\n' +
        'id: \n\n',
    );
  });

  it('refuses CR or LF in event and id (no field injection), and a bad retry', () => {
    expect(() => formatEvent({ event: 'a\nb', data: 1 })).toThrow(expect.objectContaining({ code: 'TERN_INVALID_ARGUMENT' }));
    expect(() => formatEvent({ id: 'a\rb' })).toThrow(expect.objectContaining({ code: 'TERN_INVALID_ARGUMENT' }));
    expect(() => formatEvent({ id: 'a\0b' })).toThrow(expect.objectContaining({ code: 'TERN_INVALID_ARGUMENT' }));
    expect(() => formatEvent({ retry: -1 })).toThrow(expect.objectContaining({ code: 'TERN_INVALID_LIMIT' }));
  });

  it('cuts the stream at an event with a forged field, after the events before it, and reports it', async () => {
    const client = openStream(port, '/injection');
    await client.closed;
    expect(client.closedByServer()).toBe(true);
    expect(client.data()).toContain('data: fine\n\n');
    expect(client.data()).not.toContain('forged');
    expect(reported).toEqual([expect.objectContaining({ code: 'TERN_INVALID_ARGUMENT' })]);
  });

  it('sends the headers at once and a `: ping` comment every heartbeat', async () => {
    const client = openStream(port, '/quiet');
    await client.waitFor((data) => data.split(': ping\n\n').length >= 3);
    expect(client.data()).toContain('data: hello\n\n');
    client.socket.destroy();
  });

  it('lets the handler resume from Last-Event-ID', async () => {
    const client = openStream(port, '/ticks', 'Last-Event-ID: 41\r\n');
    await client.waitFor((data) => data.includes('id: 43\n'));
    expect(client.data()).toMatch(/id: 42\ndata: \{"i":42\}\n\n/);
    expect(client.data()).not.toContain('id: 41\n');
    client.socket.destroy();
  });

  it("calls the iterator's return() when the client disconnects", async () => {
    const client = openStream(port, '/ticks');
    await client.waitFor((data) => data.includes('id: 2\n'));
    expect(state.cleanedUp).toBe(false);
    client.socket.destroy();
    await eventually(() => state.cleanedUp);
    expect(reported).toEqual([]);
  });

  it('ends the stream normally when the given signal aborts', async () => {
    const client = openStream(port, '/signalled');
    await client.waitFor((data) => data.includes('id: 1\n'));
    controller.abort();
    await client.waitFor((data) => data.endsWith('\r\n0\r\n\r\n'));
    await eventually(() => state.cleanedUp);
  });

  it('documents an `sse: true` route as text/event-stream', async () => {
    const doc = (await app.inject('/openapi.json')).json();
    expect(doc.paths['/framing'].get.responses['200']).toEqual({
      description: 'Successful Response',
      content: { 'text/event-stream': { schema: { type: 'string' } } },
    });
  });
});

describe('an `sse: true` route with a declared response', () => {
  it('documents the declared schema under text/event-stream', async () => {
    const app = new TernApp({ logger: false });
    app.get('/prices', { sse: true, responses: { 200: { symbol: String, price: Number } } }, async (req, res) => res.sse((async function* () {})()));
    const doc = (await app.inject('/openapi.json')).json();
    const ok = doc.paths['/prices'].get.responses['200'];
    expect(Object.keys(ok.content)).toEqual(['text/event-stream']);
    expect(ok.content['text/event-stream'].schema).toMatchObject({ type: 'object', properties: { symbol: { type: 'string' }, price: { type: 'number' } } });
  });
});

describe('app.close() with open event streams', () => {
  it('ends them, so closing does not wait for streams that never end', async () => {
    const state = { cleanedUp: false };
    const app = new TernApp({ logger: false });
    app.get('/ticks', async (req, res) => res.sse(ticker(state)));
    const port = await listenOnFreePort(app);
    const client = openStream(port, '/ticks');
    await client.waitFor((data) => data.includes('id: 1\n'));
    await app.close();
    await client.closed;
    expect(client.data()).toMatch(/\r\n0\r\n\r\n$/);
    await eventually(() => state.cleanedUp);
  });
});

describe('many open event streams', () => {
  it('print no MaxListenersExceededWarning past 10 streams, and app.close() still ends them all', async () => {
    // A child process: jest gives a test its own `process`, which never sees Node's warnings.
    const script = join(__dirname, 'fixtures/processes/many-event-streams.ts');
    const { stdout } = await run(process.execPath, [...SOURCE_EXEC_ARGV, script], { cwd: ROOT_DIR, env: { ...process.env, ...SOURCE_ENV }, timeout: 60_000 });
    expect(JSON.parse(stdout)).toEqual({ warnings: [], closedByServer: 25 });
  });
});
