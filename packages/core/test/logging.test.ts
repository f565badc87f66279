/**
 * Request logs with a pino logger: one JSON line per completed request, failures with the same
 * request id, `req.log`, levels, redaction, and `logger: true`.
 */
import pino from 'pino';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { HTTPException, TernApp, type TernAppOptions, type TernLogger } from '@tern/core';

type Line = Record<string, unknown> & { msg?: string; level: number };

/** A pino logger writing into memory, and the lines it wrote, parsed. */
function memoryLogger(options: pino.LoggerOptions = {}): { logger: pino.Logger; lines: Line[] } {
  const lines: Line[] = [];
  const logger = pino(options, { write: (chunk: string) => void lines.push(JSON.parse(chunk) as Line) });
  return { logger, lines };
}

/** Waits (bounded) until `check` holds: the request line is written once the response closed. */
async function until(check: () => boolean, ms = 2_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await sleep(2);
}

function appWith(options: TernAppOptions): TernApp {
  const app = new TernApp({ openapi: { openapiPath: false }, ...options });
  app.get('/users/{id:int}', async (req, res, { id }) => {
    req.log.info({ userId: id }, 'loading user');
    return { id };
  });
  app.get('/boom', async () => {
    throw new Error('database is down');
  });
  app.get('/teapot', async () => {
    throw new HTTPException(418, 'short and stout');
  });
  return app;
}

const completed = (lines: Line[]) => lines.filter((line) => line.msg === 'request completed');

describe('the per-request line', () => {
  it('is one JSON line with method, route template, status, duration, id and bytes', async () => {
    const { logger, lines } = memoryLogger();
    const app = appWith({ logger });
    const response = await app.inject({ method: 'GET', url: '/users/7?token=secret' });
    expect(response.statusCode).toBe(200);
    await until(() => completed(lines).length === 1);
    const [line] = completed(lines);
    expect(line).toMatchObject({
      level: 30,
      reqId: response.headers['x-request-id'],
      method: 'GET',
      route: '/users/{id}',
      path: '/users/7',
      statusCode: 200,
      bytes: Buffer.byteLength(response.body),
      aborted: false,
    });
    expect(typeof line.durationMs).toBe('number');
    expect(JSON.stringify(lines)).not.toContain('secret');
  });

  it('is written for unmatched requests, without a route', async () => {
    const { logger, lines } = memoryLogger();
    const app = appWith({ logger });
    await app.inject('/nowhere');
    await until(() => completed(lines).length === 1);
    expect(completed(lines)[0]).toMatchObject({ statusCode: 404, path: '/nowhere' });
    expect(completed(lines)[0]).not.toHaveProperty('route');
  });

  it('can be given another level, or turned off', async () => {
    const debugLog = memoryLogger({ level: 'debug' });
    const debugApp = appWith({ logger: debugLog.logger, log: { requests: 'debug' } });
    await debugApp.inject('/users/1');
    await until(() => completed(debugLog.lines).length === 1);
    expect(completed(debugLog.lines)[0].level).toBe(20);

    const quiet = memoryLogger();
    const quietApp = appWith({ logger: quiet.logger, log: { requests: false } });
    const response = await quietApp.inject('/users/1');
    await sleep(20);
    expect(completed(quiet.lines)).toEqual([]);
    // Ids and req.log stay.
    expect(response.headers['x-request-id']).toEqual(expect.any(String));
    expect(quiet.lines.map((line) => line.msg)).toEqual(['loading user']);
  });

  it("follows the logger's level and log.level", async () => {
    const warnOnly = memoryLogger({ level: 'warn' });
    await appWith({ logger: warnOnly.logger }).inject('/users/1');
    const errorsOnly = memoryLogger();
    const app = appWith({ logger: errorsOnly.logger, log: { level: 'error' } });
    await app.inject('/users/1');
    await app.inject('/boom');
    await until(() => errorsOnly.lines.length === 1);
    await sleep(20);
    expect(warnOnly.lines).toEqual([]);
    expect(errorsOnly.lines.map((line) => line.msg)).toEqual(['request failed']);
  });
});

describe('failures', () => {
  it('are logged once, with the request id of the completed line and the error', async () => {
    const { logger, lines } = memoryLogger();
    const app = appWith({ logger });
    const response = await app.inject('/boom');
    expect(response.statusCode).toBe(500);
    await until(() => completed(lines).length === 1);
    const failures = lines.filter((line) => line.msg === 'request failed');
    expect(failures).toHaveLength(1);
    const id = response.headers['x-request-id'];
    expect(failures[0]).toMatchObject({ level: 50, reqId: id, method: 'GET', route: '/boom', err: { type: 'Error', message: 'database is down' } });
    expect(completed(lines)[0]).toMatchObject({ reqId: id, statusCode: 500 });
    // The client learns the id, never the message.
    expect(response.json()).toEqual(expect.objectContaining({ status: 500, requestId: id, detail: 'Internal Server Error' }));
  });

  it('of a stream body breaking after the chain ended carry the request id too', async () => {
    const { logger, lines } = memoryLogger();
    const app = new TernApp({ logger, requestIdHeader: 'X-Request-Id' });
    app.get('/export', async (req, res) => {
      const source = new Readable({ read() {} });
      source.push('first rows\n');
      setTimeout(() => source.destroy(new Error('disk read failed')), 10);
      return res.stream(source, 'text/csv');
    });
    // The connection is cut mid-body: inject may reject, which is what a client sees.
    await app.inject({ url: '/export', headers: { 'x-request-id': 'export-1' } }).catch(() => undefined);
    await until(() => lines.some((line) => line.msg === 'request failed'));
    expect(lines.find((line) => line.msg === 'request failed')).toMatchObject({ reqId: 'export-1', err: { message: 'disk read failed' } });
  });

  it('answered on purpose (HTTPException) are not failures', async () => {
    const { logger, lines } = memoryLogger();
    const response = await appWith({ logger }).inject('/teapot');
    expect(response.statusCode).toBe(418);
    await until(() => completed(lines).length === 1);
    expect(lines.map((line) => line.msg)).toEqual(['request completed']);
  });

  it('of hooks go to the logger as structured lines', async () => {
    const { logger, lines } = memoryLogger();
    const app = appWith({ logger });
    app.onResponse(() => {
      throw new Error('metrics backend gone');
    });
    await app.inject('/users/1');
    await until(() => lines.some((line) => line.msg === 'an onResponse hook failed'));
    expect(lines.find((line) => line.msg === 'an onResponse hook failed')).toMatchObject({ level: 50, err: { message: 'metrics backend gone' } });
  });
});

describe('req.log', () => {
  it('is a child logger whose lines carry the request id', async () => {
    const { logger, lines } = memoryLogger();
    const response = await appWith({ logger }).inject('/users/42');
    const line = lines.find((entry) => entry.msg === 'loading user');
    expect(line).toMatchObject({ level: 30, userId: 42, reqId: response.headers['x-request-id'] });
  });

  it('drops every line, without failing, in an app without a structured logger', async () => {
    const app = appWith({ logger: false });
    const response = await app.inject('/users/3');
    expect(response.json()).toEqual({ id: 3 });
  });
});

describe('redaction', () => {
  it('keeps Authorization, cookies and configured fields out of the log', async () => {
    const { logger, lines } = memoryLogger();
    const app = new TernApp({ logger, log: { redact: ['user.password', '*.apiKey'] } });
    app.get('/echo', async (req) => {
      req.log.info(
        {
          headers: { authorization: 'Bearer abc', cookie: 'sid=def', accept: 'text/plain' },
          req: { headers: { Authorization: 'Basic ghi' } },
          user: { name: 'ada', password: 'jkl' },
          upstream: { apiKey: 'mno' },
        },
        'echo',
      );
      return 'ok';
    });
    app.get('/call', async () => {
      // An HTTP client's error carrying the request it made (axios does this).
      throw Object.assign(new Error('upstream 401'), { config: { headers: { Authorization: 'Bearer pqr' } } });
    });
    await app.inject({ url: '/echo', headers: { authorization: 'Bearer abc', cookie: 'sid=def' } });
    await app.inject({ url: '/call', headers: { authorization: 'Bearer abc' } });
    await until(() => completed(lines).length === 2);
    const text = lines.map((line) => JSON.stringify(line)).join('\n');
    for (const secret of ['abc', 'def', 'ghi', 'jkl', 'mno', 'pqr']) expect(text).not.toContain(secret);
    expect(lines.find((line) => line.msg === 'echo')).toMatchObject({ headers: { accept: 'text/plain', authorization: '[Redacted]' }, user: { name: 'ada' } });
  });
});

describe('logger: true', () => {
  it('makes a pino logger writing JSON lines to stdout', async () => {
    const written: string[] = [];
    const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      const app = appWith({ logger: true });
      await app.inject('/users/5');
      await until(() => written.some((chunk) => chunk.includes('request completed')));
    } finally {
      write.mockRestore();
    }
    const lines = written.join('').trim().split('\n').map((line) => JSON.parse(line) as Line);
    expect(lines.find((line) => line.msg === 'request completed')).toMatchObject({ route: '/users/{id}', statusCode: 200 });
  });

  it('throws TERN_LOGGER_UNAVAILABLE from the constructor when pino is not installed', () => {
    jest.isolateModules(() => {
      jest.doMock('pino', () => {
        throw Object.assign(new Error("Cannot find module 'pino'"), { code: 'MODULE_NOT_FOUND' });
      });
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const core = require('@tern/core') as typeof import('@tern/core');
      let thrown: unknown;
      try {
        new core.TernApp({ logger: true });
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(core.TernError);
      expect(thrown).toMatchObject({ code: 'TERN_LOGGER_UNAVAILABLE', message: expect.stringContaining('npm i pino') });
    });
  });
});

describe('logger options', () => {
  it('are checked in the constructor', () => {
    expect(() => new TernApp({ log: { requests: 'loud' as never } })).toThrow(expect.objectContaining({ code: 'TERN_INVALID_ARGUMENT' }));
    expect(() => new TernApp({ log: { level: 'chatty' as never } })).toThrow(expect.objectContaining({ code: 'TERN_INVALID_ARGUMENT' }));
    expect(() => new TernApp({ log: { redact: 'password' as never } })).toThrow(expect.objectContaining({ code: 'TERN_INVALID_ARGUMENT' }));
    expect(() => new TernApp({ requestIdHeader: 'bad header' })).toThrow(expect.objectContaining({ code: 'TERN_INVALID_ARGUMENT' }));
  });

  it('accept any logger of pino shape', async () => {
    const calls: Array<[string, unknown, unknown]> = [];
    const make = (bindings: Record<string, unknown>): TernLogger => {
      const at = (level: string) => (obj: unknown, msg?: string) => void calls.push([level, { ...bindings, ...(obj as object) }, msg]);
      return { trace: at('trace'), debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'), fatal: at('fatal'), child: (more) => make({ ...bindings, ...more }) };
    };
    await appWith({ logger: make({}) }).inject('/users/9');
    await until(() => calls.some(([, , msg]) => msg === 'request completed'));
    expect(calls.find(([, , msg]) => msg === 'loading user')?.[1]).toMatchObject({ userId: 9, reqId: expect.any(String) });
    expect(calls.find(([, , msg]) => msg === 'request completed')).toEqual(['info', expect.objectContaining({ statusCode: 200, route: '/users/{id}' }), 'request completed']);
  });
});
