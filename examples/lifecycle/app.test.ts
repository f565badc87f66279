import { connect } from 'node:net';
import pino from 'pino';
import { buildApp, ReportStore } from './app';

/** A pino logger writing JSON lines into an array. */
function memoryLog() {
  const lines: Array<Record<string, unknown>> = [];
  const log = pino({ base: null, timestamp: false }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { log, lines };
}

async function until(check: () => boolean, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('lifecycle example (pino access log, request id, onClose)', () => {
  it('logs each response once with its request id, route and status', async () => {
    const { log, lines } = memoryLog();
    const app = buildApp({ log });
    const ok = await app.inject({ url: '/reports/3', headers: { 'x-request-id': 'abc-123' } });
    const missing = await app.inject('/reports/5000');
    const unrouted = await app.inject('/nothing');
    await until(() => lines.length === 3);

    expect(ok.json()).toEqual({ id: 3, rows: 30 });
    expect(ok.headers['x-request-id']).toBe('abc-123');
    expect(missing.statusCode).toBe(404);
    expect(unrouted.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines).toEqual([
      expect.objectContaining({ msg: 'request completed', reqId: 'abc-123', method: 'GET', path: '/reports/3', route: '/reports/{id:int}', statusCode: 200, ip: '127.0.0.1' }),
      expect.objectContaining({ reqId: missing.headers['x-request-id'], route: '/reports/{id:int}', statusCode: 404 }),
      expect.objectContaining({ reqId: unrouted.headers['x-request-id'], path: '/nothing', statusCode: 404 }),
    ]);
    expect(lines[2].route).toBeUndefined();
  });

  it('replaces a request id that could forge log lines or headers', async () => {
    const { log } = memoryLog();
    const response = await buildApp({ log }).inject({ url: '/reports/1', headers: { 'x-request-id': 'a b"}\u00e9' } });
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('takes the client address from a trusted proxy only', async () => {
    const { log, lines } = memoryLog();
    const app = buildApp({ log, trustProxy: 'loopback' });
    await app.inject({ url: '/reports/1', headers: { 'x-forwarded-for': '198.51.100.7' } });
    await app.inject({ url: '/reports/1', headers: { 'x-forwarded-for': '198.51.100.7' }, remoteAddress: '203.0.113.9' });
    await until(() => lines.length === 2);
    expect(lines.map((line) => line.ip)).toEqual(['198.51.100.7', '203.0.113.9']);
  });

  it('reads the standard Forwarded header instead when the proxy writes that one', async () => {
    const { log, lines } = memoryLog();
    const app = buildApp({ log, trustProxy: 'loopback', proxyHeaders: 'forwarded' });
    const forwarded = 'for=198.51.100.7;proto=https';
    // X-Forwarded-For is now whatever the client sent: ignored.
    await app.inject({ url: '/reports/1', headers: { forwarded, 'x-forwarded-for': '6.6.6.6' } });
    await app.inject({ url: '/reports/1', headers: { forwarded }, remoteAddress: '203.0.113.9' });
    await until(() => lines.length === 2);
    expect(lines.map((line) => line.ip)).toEqual(['198.51.100.7', '203.0.113.9']);
  });

  it('stops a report whose client went away and logs it as aborted', async () => {
    const { log, lines } = memoryLog();
    const app = buildApp({ log });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const socket = connect(Number(new URL(address).port), '127.0.0.1');
      socket.on('error', () => undefined);
      socket.write('GET /reports/9 HTTP/1.1\r\nHost: t\r\n\r\n');
      await new Promise((resolve) => setTimeout(resolve, 20));
      socket.destroy();
      await until(() => lines.length === 1);
      // One line: the report's AbortError is the request's own abort, not a failure to log.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(lines).toEqual([expect.objectContaining({ path: '/reports/9', statusCode: 0, aborted: true })]);
    } finally {
      await app.close();
    }
  });

  it('releases the store when the app closes', async () => {
    const { log } = memoryLog();
    const store = new ReportStore();
    const app = buildApp({ log, store });
    await app.listen({ port: 0, host: '127.0.0.1' });
    expect(store.closed).toBe(false);
    await app.close();
    expect(store.closed).toBe(true);
  });
});
