/**
 * What operators see of sockets: the upgrade's request log line (status 101, its route, its id),
 * the id on a handler's failure, and the tern.request tracing events around the upgrade's chain.
 */
import diagnostics_channel from 'node:diagnostics_channel';
import pino from 'pino';
import { REQUEST_TRACING_CHANNEL, TernApp, type RequestTraceContext } from '@tern/core';
import { connect, refusedUpgrade } from '../../../test-support/ws-client';

type Line = Record<string, unknown> & { msg?: string };

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
}

const apps: TernApp[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

describe('socket observability', () => {
  it('logs the upgrade as a request line with status 101 and its route, and a handler failure with the same id', async () => {
    const lines: Line[] = [];
    const logger = pino({}, { write: (chunk: string) => void lines.push(JSON.parse(chunk) as Line) });
    const app = new TernApp({ logger, requestIdHeader: 'x-request-id', openapi: { openapiPath: false } });
    app.ws('/rooms/{id:int}', {}, {
      message() {
        throw new Error('handler broke');
      },
    });
    apps.push(app);
    const base = (await app.listen({ port: 0 })).replace(/^http/, 'ws');
    const client = await connect(`${base}/rooms/7`, { headers: { 'x-request-id': 'up-1' } });
    await until(() => lines.some((line) => line.msg === 'request completed'));
    const completed = lines.find((line) => line.msg === 'request completed') as Line;
    expect(completed).toMatchObject({ reqId: 'up-1', method: 'GET', route: '/rooms/{id}', path: '/rooms/7', statusCode: 101, aborted: false });
    client.ws.send('x');
    expect((await client.closed).code).toBe(1011);
    await until(() => lines.some((line) => JSON.stringify(line).includes('handler broke')));
    const failure = lines.find((line) => JSON.stringify(line).includes('handler broke')) as Line;
    expect(failure.reqId).toBe('up-1');
    await refusedUpgrade(`${base}/rooms/abc`);
    await until(() => lines.filter((line) => line.msg === 'request completed').length === 2);
    expect(lines.filter((line) => line.msg === 'request completed')[1]).toMatchObject({ route: '/rooms/{id}', statusCode: 422 });
  });

  it('publishes the tern.request tracing events around the upgrade’s chain, with its route', async () => {
    const events: Array<[string, string | undefined, unknown?]> = [];
    const channel = diagnostics_channel.tracingChannel<unknown, RequestTraceContext>(REQUEST_TRACING_CHANNEL);
    const handlers = {
      start: (ctx: RequestTraceContext) => void events.push(['start', ctx.route?.template]),
      end: () => undefined,
      asyncStart: () => undefined,
      asyncEnd: (ctx: RequestTraceContext) => void events.push(['asyncEnd', ctx.route?.template, ctx.result?.statusCode]),
      error: () => undefined,
    };
    channel.subscribe(handlers);
    try {
      const app = new TernApp({ logger: false, openapi: { openapiPath: false } });
      app.ws('/live/{id:int}', {}, {});
      apps.push(app);
      const base = (await app.listen({ port: 0 })).replace(/^http/, 'ws');
      await connect(`${base}/live/1`);
      await until(() => events.length >= 2);
      expect(events).toEqual([
        ['start', '/live/{id}'],
        ['asyncEnd', '/live/{id}', 101],
      ]);
    } finally {
      channel.unsubscribe(handlers);
    }
  });
});
