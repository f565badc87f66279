import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { IsInt, IsString } from 'class-validator';
import { Type } from 'class-transformer';
import { MakeConfig, TernApp } from '@tern/core';
import { deferred, outcome } from '../../../test-support/deferred';
import { bodyOf, listenOnFreePort, rawExchange, statusOf } from '../../../test-support/raw-http';

const form = { 'content-type': 'application/x-www-form-urlencoded' };

class Signup {
  @IsString() name: string;
  @Type(() => Number) @IsInt() age: number;
}

/** Collects a Readable, counting bytes. */
async function drain(stream: NodeJS.ReadableStream): Promise<number> {
  let size = 0;
  await pipeline(
    stream,
    new Writable({
      write(chunk: Buffer, _enc, done) {
        size += chunk.length;
        done();
      },
    }),
  );
  return size;
}

function bodiesApp(config = new MakeConfig({ bodyLimit: 1000, formFieldLimit: 5 })) {
  const app = new TernApp({ config, logger: false });
  app.post('/buffer', async (req) => {
    const bytes = await req.buffer();
    return { isBuffer: Buffer.isBuffer(bytes), length: bytes.length, same: (await req.buffer()) === bytes, text: await req.text() };
  });
  app.post('/stream', async (req) => ({ bytes: await drain(req.stream()) }));
  app.post('/form', async (req) => {
    const fields = await req.form();
    return { proto: Object.getPrototypeOf(fields) === null, keys: Object.keys(fields), fields, polluted: ({} as Record<string, unknown>).admin !== undefined };
  });
  app.post('/buffer-then-stream', async (req) => {
    await req.buffer();
    req.stream();
    return {};
  });
  app.post('/stream-then-json', async (req) => {
    req.stream().resume();
    return { got: await req.json() };
  });
  app.post('/signup', { requestModel: Signup, consumes: ['application/json', 'application/x-www-form-urlencoded'] }, async (req) => ({ body: req.body }));
  app.post('/json-only', { requestModel: Signup }, async (req) => ({ body: req.body }));
  return app;
}

describe('req.buffer()', () => {
  it('gives the raw bytes once, shared with text()', async () => {
    const payload = Buffer.from([0xff, 0x00, 0x41, 0x42]);
    const response = await bodiesApp().inject({ method: 'POST', url: '/buffer', headers: { 'content-type': 'application/octet-stream' }, payload });
    expect(response.json()).toMatchObject({ isBuffer: true, length: 4, same: true });
  });

  it('answers 413 over bodyLimit', async () => {
    const response = await bodiesApp().inject({ method: 'POST', url: '/buffer', payload: Buffer.alloc(1001) });
    expect(response.statusCode).toBe(413);
    expect(response.json().code).toBe('TERN_BODY_TOO_LARGE');
  });
});

describe('req.stream()', () => {
  it('streams the body through', async () => {
    const response = await bodiesApp().inject({ method: 'POST', url: '/stream', payload: Buffer.alloc(900, 1) });
    expect(response.json()).toEqual({ bytes: 900 });
  });

  it('refuses a declared length over the limit before reading', async () => {
    const response = await bodiesApp().inject({ method: 'POST', url: '/stream', payload: Buffer.alloc(1001) });
    expect(response.statusCode).toBe(413);
  });

  it('cannot follow a whole read, nor be followed by one: a TernTypeError answered 500', async () => {
    const app = bodiesApp();
    for (const url of ['/buffer-then-stream', '/stream-then-json']) {
      const response = await app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: '{}' });
      expect(response.statusCode).toBe(500);
    }
  });

  it('throws a TypeError with the code TERN_BODY_ALREADY_READ', async () => {
    const seen = deferred<string>();
    const app = new TernApp({ logger: false });
    app.post('/x', async (req) => {
      await req.buffer();
      try {
        req.stream();
      } catch (err) {
        seen.resolve(`${(err as Error).name} ${(err as { code: string }).code}`);
      }
      return {};
    });
    await app.inject({ method: 'POST', url: '/x', payload: 'a' });
    expect(await seen.promise).toBe('TypeError TERN_BODY_ALREADY_READ');
  });
});

describe('req.stream() over a socket', () => {
  let app: TernApp;
  let port: number;
  let result: ReturnType<typeof deferred<string>>;
  let started: ReturnType<typeof deferred<void>>;

  beforeAll(async () => {
    app = new TernApp({ config: new MakeConfig({ bodyLimit: 1000 }), logger: false });
    app.post('/stream', async (req) => {
      started.resolve();
      const reading = drain(req.stream());
      result.resolve(await outcome(reading));
      return { bytes: await reading };
    });
    port = await listenOnFreePort(app);
  });
  beforeEach(() => {
    result = deferred<string>();
    started = deferred();
  });
  afterAll(() => app.close());

  it('errors with the 413 while a chunked body streams past the limit', async () => {
    const chunk = 'x'.repeat(600);
    const head = 'POST /stream HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n';
    const body = `${(600).toString(16)}\r\n${chunk}\r\n`.repeat(2) + '0\r\n\r\n';
    const exchange = await rawExchange(port, head + body);
    expect(await result.promise).toBe('TERN_BODY_TOO_LARGE');
    expect(statusOf(exchange.data)).toBe(413);
    expect(JSON.parse(bodyOf(exchange.data)).code).toBe('TERN_BODY_TOO_LARGE');
  });

  it('errors with TERN_CLIENT_ABORTED when the client goes away mid-body', async () => {
    const socket = connect(port, '127.0.0.1');
    socket.write('POST /stream HTTP/1.1\r\nHost: x\r\nContent-Length: 500\r\n\r\nabc');
    await started.promise;
    socket.destroy();
    expect(await result.promise).toBe('TERN_CLIENT_ABORTED');
  });
});

describe('req.form()', () => {
  it('parses into a null-prototype object, lists for repeated names', async () => {
    const response = await bodiesApp().inject({ method: 'POST', url: '/form', headers: form, payload: 'a=1&b=x+y&a=2&c=%C3%A9' });
    expect(response.json()).toEqual({ proto: true, keys: ['a', 'b', 'c'], fields: { a: ['1', '2'], b: 'x y', c: 'é' }, polluted: false });
  });

  it('keeps __proto__ and constructor as plain keys that change nothing', async () => {
    const response = await bodiesApp().inject({ method: 'POST', url: '/form', headers: form, payload: '__proto__=x&constructor=y&__proto__%5Badmin%5D=1' });
    const body = response.json();
    expect(response.statusCode).toBe(200);
    expect(body.fields).toEqual({ ['__proto__']: 'x', constructor: 'y', '__proto__[admin]': '1' });
    expect(body.polluted).toBe(false);
  });

  it('answers 413 over formFieldLimit, 415 for another content type', async () => {
    const app = bodiesApp();
    const many = await app.inject({ method: 'POST', url: '/form', headers: form, payload: 'a=1&b=2&c=3&d=4&e=5&f=6' });
    expect(many.statusCode).toBe(413);
    expect(many.json()).toMatchObject({ code: 'TERN_FORM_TOO_MANY_FIELDS', detail: expect.stringContaining('formFieldLimit') });
    const empties = await app.inject({ method: 'POST', url: '/form', headers: form, payload: '&&&&&&&&a=1' });
    expect(empties.statusCode).toBe(200);
    const json = await app.inject({ method: 'POST', url: '/form', headers: { 'content-type': 'application/json' }, payload: '{}' });
    expect(json.statusCode).toBe(415);
  });
});

describe('a requestModel read from a form (consumes)', () => {
  it('validates a urlencoded body like JSON', async () => {
    const app = bodiesApp();
    const ok = await app.inject({ method: 'POST', url: '/signup', headers: form, payload: 'name=Ada&age=36&admin=1' });
    expect(ok.json()).toEqual({ body: { name: 'Ada', age: 36 } });
    const bad = await app.inject({ method: 'POST', url: '/signup', headers: form, payload: 'name=Ada&age=old' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors[0].path).toBe('age');
    const json = await app.inject({ method: 'POST', url: '/signup', payload: { name: 'Ada', age: 36 } });
    expect(json.json()).toEqual({ body: { name: 'Ada', age: 36 } });
  });

  it('answers 415 naming the accepted types for another content type', async () => {
    const response = await bodiesApp().inject({ method: 'POST', url: '/signup', headers: { 'content-type': 'text/plain' }, payload: 'name=Ada' });
    expect(response.statusCode).toBe(415);
    expect(response.json().detail).toBe("This route accepts application/json, application/x-www-form-urlencoded, not 'text/plain'.");
  });

  it('keeps model routes JSON-only unless they say otherwise (a cross-site form cannot post to them)', async () => {
    const response = await bodiesApp().inject({ method: 'POST', url: '/json-only', headers: form, payload: 'name=Ada&age=36' });
    expect(response.statusCode).toBe(415);
  });

  it('refuses at startup a consumes list Tern cannot read', async () => {
    const app = new TernApp();
    app.post('/x', { requestModel: Signup, consumes: ['text/csv'] }, async () => ({}));
    await expect(app.ready()).rejects.toMatchObject({ code: 'TERN_INVALID_ROUTE_OPTION', message: expect.stringContaining("consumes") });
  });
});
