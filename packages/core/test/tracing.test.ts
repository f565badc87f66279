/**
 * The `tern.request` diagnostics_channel tracing events: published around each request's chain
 * with the matched route, errors included, and only while somebody subscribes.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import diagnostics_channel from 'node:diagnostics_channel';
import { HTTPException, REQUEST_TRACING_CHANNEL, TernApp, type RequestTraceContext } from '@tern/core';

type Event = [name: string, route: string | undefined, detail?: unknown];

function appWithRoutes(): TernApp {
  const app = new TernApp({ logger: false, openapi: { openapiPath: false } });
  app.addMiddleware(async (req, res, next) => next());
  app.get('/users/{id:int}', async (_req, _res, { id }) => ({ id }));
  app.get('/boom', async () => {
    throw new Error('exploded');
  });
  app.get('/gone', async () => {
    throw new HTTPException(410);
  });
  return app;
}

/** Subscribes to every event of the tracing channel, recording them; returns the log and an unsubscribe. */
function record(): { events: Event[]; stop: () => void } {
  const events: Event[] = [];
  const channel = diagnostics_channel.tracingChannel<unknown, RequestTraceContext>(REQUEST_TRACING_CHANNEL);
  const handlers = {
    start: (ctx: RequestTraceContext) => events.push(['start', ctx.route?.template, ctx.request.method]),
    end: (ctx: RequestTraceContext) => events.push(['end', ctx.route?.template]),
    asyncStart: (ctx: RequestTraceContext) => events.push(['asyncStart', ctx.route?.template]),
    asyncEnd: (ctx: RequestTraceContext) => events.push(['asyncEnd', ctx.route?.template, ctx.result?.statusCode]),
    error: (ctx: RequestTraceContext) => events.push(['error', ctx.route?.template, (ctx.error as Error).message]),
  };
  channel.subscribe(handlers);
  return { events, stop: () => channel.unsubscribe(handlers) };
}

describe('tern.request tracing events', () => {
  it('are published as tracing:tern.request:* with the matched route', async () => {
    const app = appWithRoutes();
    const { events, stop } = record();
    try {
      const response = await app.inject('/users/7');
      expect(response.json()).toEqual({ id: 7 });
    } finally {
      stop();
    }
    expect(events).toEqual([
      ['start', '/users/{id}', 'GET'],
      ['end', '/users/{id}'],
      ['asyncStart', '/users/{id}'],
      ['asyncEnd', '/users/{id}', 200],
    ]);
    expect(diagnostics_channel.channel(`tracing:${REQUEST_TRACING_CHANNEL}:start`).hasSubscribers).toBe(false);
  });

  it('report errors thrown by handlers, and routing errors of unmatched requests without a route', async () => {
    const app = appWithRoutes();
    const { events, stop } = record();
    try {
      expect((await app.inject('/boom')).statusCode).toBe(500);
      expect((await app.inject('/gone')).statusCode).toBe(410);
      expect((await app.inject('/nowhere')).statusCode).toBe(404);
    } finally {
      stop();
    }
    const errors = events.filter(([name]) => name === 'error');
    expect(errors).toEqual([
      ['error', '/boom', 'exploded'],
      ['error', '/gone', 'Gone'],
      ['error', undefined, expect.stringContaining('/nowhere')],
    ]);
    expect(events.filter(([name]) => name === 'start').map(([, route]) => route)).toEqual(['/boom', '/gone', undefined]);
  });

  it('run the chain inside the stores bound to start, so an agent’s context reaches the handler', async () => {
    const app = new TernApp({ logger: false, openapi: { openapiPath: false } });
    const store = new AsyncLocalStorage<{ traceId: string }>();
    app.get('/ctx', async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return { traceId: store.getStore()?.traceId ?? null };
    });
    const start = diagnostics_channel.channel(`tracing:${REQUEST_TRACING_CHANNEL}:start`) as diagnostics_channel.Channel<{ traceId: string }, RequestTraceContext>;
    start.bindStore(store, (ctx) => ({ traceId: `t-${ctx.route?.template}` }));
    try {
      expect((await app.inject('/ctx')).json()).toEqual({ traceId: 't-/ctx' });
    } finally {
      start.unbindStore(store);
    }
    expect((await app.inject('/ctx')).json()).toEqual({ traceId: null });
  });

  it('stop as soon as the subscriber leaves', async () => {
    const app = appWithRoutes();
    const { events, stop } = record();
    await app.inject('/users/1');
    stop();
    await app.inject('/users/2');
    expect(events.filter(([name]) => name === 'start')).toHaveLength(1);
  });
});
