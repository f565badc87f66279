import { HTTPException, TernApp, type TernRequest, type TernResponse } from '@tern/core';
import { listenOnFreePort, rawExchange, rawGet, statusOf } from '../../../test-support/raw-http';

/** A handler that starts a JSON answer on the raw response, then throws what `failure` makes. */
const halfThenThrow = (failure: () => unknown) => async (_req: TernRequest, res: TernResponse) => {
  res.raw.writeHead(200, { 'content-type': 'application/json' });
  res.raw.write('{"items":[1,2,');
  throw failure();
};

/** An app whose logger collects every reported error in `reported`. */
const reportingApp = (reported: unknown[]) => new TernApp({ logger: { error: (_message: string, err: unknown) => reported.push(err) } });

/**
 * A handler that started the answer on the raw response and then failed: the client must see a
 * broken response, never one that looks complete, and the connection must not stay open.
 */
describe('an error after the headers went out', () => {
  let app: TernApp;
  let port: number;
  const reported: unknown[] = [];

  beforeAll(async () => {
    app = reportingApp(reported);
    app.get('/half', halfThenThrow(() => new Error('database went away')));
    app.get('/half-with-handler', halfThenThrow(() => new HTTPException(503, 'try later')));
    app.addExceptionHandler(503, async () => {
      throw new Error('the exception handler fails too');
    });
    app.get('/ok', async () => ({ ok: true }));
    port = await listenOnFreePort(app);
  });

  afterAll(() => app.close());

  // Keep-alive requests: only the server can end these connections, and it must, at once.
  const keepAlive = (target: string) => rawExchange(port, `GET ${target} HTTP/1.1\r\nHost: x\r\n\r\n`, { waitMs: 3000 });

  it('cuts the connection instead of leaving a truncated body open or ending it normally', async () => {
    const { data, closedByServer } = await keepAlive('/half');
    expect(closedByServer).toBe(true);
    expect(data).toContain('{"items":[1,2,');
    // A chunked body ends with a zero-length chunk; a cut one never gets it.
    expect(data).not.toMatch(/\r\n0\r\n\r\n$/);
    expect(reported).toEqual([expect.objectContaining({ message: 'database went away' })]);
  });

  it('cuts it as well when the error would have gone to a failing exception handler', async () => {
    const { data, closedByServer } = await keepAlive('/half-with-handler');
    expect(closedByServer).toBe(true);
    expect(data).toContain('{"items":[1,2,');
    expect(data).not.toMatch(/\r\n0\r\n\r\n$/);
  });

  it('keeps serving other requests', async () => {
    expect(await rawGet(port, '/ok')).toContain('{"ok":true}');
  });
});

/** A value no code can look at: `instanceof`, property reads and prototype lookups all throw. */
function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable(new Error('gone'), {});
  revoke();
  return proxy;
}

describe('a handler that throws a revoked Proxy', () => {
  let app: TernApp;
  let port: number;
  const reported: unknown[] = [];

  beforeAll(async () => {
    app = reportingApp(reported);
    app.get('/half', halfThenThrow(revokedProxy));
    app.get('/before-headers', async () => {
      throw revokedProxy();
    });
    app.get('/ok', async () => ({ ok: true }));
    port = await listenOnFreePort(app);
  });

  afterAll(() => app.close());

  it('after writing on res.raw: the connection is cut, the failure reported, and the process serves on', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const { data, closedByServer } = await rawExchange(port, 'GET /half HTTP/1.1\r\nHost: x\r\n\r\n', { waitMs: 3000 });
      expect(closedByServer).toBe(true);
      expect(data).toContain('{"items":[1,2,');
      expect(data).not.toMatch(/\r\n0\r\n\r\n$/);
      expect(reported).toEqual([expect.objectContaining({ message: expect.stringContaining('cannot be inspected') })]);
      expect(await rawGet(port, '/ok')).toContain('{"ok":true}');
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('before any header: a plain 500', async () => {
    const response = await rawGet(port, '/before-headers');
    expect(statusOf(response)).toBe(500);
    expect(await rawGet(port, '/ok')).toContain('{"ok":true}');
  });
});
