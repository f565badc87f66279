import { Group, MakeConfig, Router, Routes, TernApp, type Middleware } from '@tern/core';

function tracer(log: string[], name: string): Middleware {
  return async (req, res, next) => {
    log.push(`${name}:in`);
    const response = await next();
    log.push(`${name}:out`);
    return response;
  };
}

describe('middleware', () => {
  it('runs app, router, group and route middleware in order, outer containers first', async () => {
    const log: string[] = [];
    const app = new TernApp();
    app.addMiddleware(tracer(log, 'app1'));
    app.addMiddleware(tracer(log, 'app2'));
    const outer = new Router({ prefix: '/outer', middleware: [tracer(log, 'router-outer')] });
    const inner = new Router({ prefix: '/inner', middleware: [tracer(log, 'router-inner')] });
    inner.addRoute(
      new Group({
        path: '/group',
        middleware: [tracer(log, 'group')],
        routes: [
          new Routes({
            path: '/route',
            middleware: [tracer(log, 'route1'), tracer(log, 'route2')],
            handler: async () => {
              log.push('handler');
              return { ok: true };
            },
          }),
        ],
      }),
    );
    outer.mountRouter(inner);
    app.mountRouter(outer);
    expect((await app.inject('/outer/inner/group/route')).statusCode).toBe(200);
    expect(log).toEqual([
      'app1:in', 'app2:in', 'router-outer:in', 'router-inner:in', 'group:in', 'route1:in', 'route2:in',
      'handler',
      'route2:out', 'route1:out', 'group:out', 'router-inner:out', 'router-outer:out', 'app2:out', 'app1:out',
    ]);
  });

  it('lets app middleware see unmatched requests and which route matched', async () => {
    const seen: Array<string | undefined> = [];
    const app = new TernApp();
    app.addMiddleware(async (req, res, next) => {
      seen.push(req.route?.rawPath);
      return next();
    });
    app.get('/known/{id}', async () => ({}));
    await app.inject('/known/1');
    expect((await app.inject('/unknown')).statusCode).toBe(404);
    expect(seen).toEqual(['/known/{id}', undefined]);
  });

  it('short-circuits when a middleware returns a response', async () => {
    const handler = jest.fn(async () => ({ secret: true }));
    const app = new TernApp();
    const auth: Middleware = async (req, res, next) => {
      if (req.headers.get('authorization') !== 'Bearer good') return res.json({ error: 'unauthorized' }, 401);
      req.user = { id: 1 };
      return next();
    };
    app.get('/secret', { middleware: [auth] }, async (req) => ({ user: req.user }));
    app.get('/other', handler);
    const denied = await app.inject('/secret');
    expect(denied.statusCode).toBe(401);
    expect(denied.json()).toEqual({ error: 'unauthorized' });
    const allowed = await app.inject({ url: '/secret', headers: { authorization: 'Bearer good' } });
    expect(allowed.json()).toEqual({ user: { id: 1 } });
  });

  it('turns a throwing middleware into a 500 without details', async () => {
    const app = new TernApp({ logger: false });
    app.addMiddleware(async () => {
      throw new Error('database password is hunter2');
    });
    app.get('/x', async () => ({}));
    const response = await app.inject('/x');
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('hunter2');
    expect(response.json()).toMatchObject({ status: 500, title: 'Internal Server Error', detail: 'Internal Server Error' });
  });

  it('accepts middleware and handlers that are not async, throwing or returning', async () => {
    const app = new TernApp({ logger: false });
    const plain = ((req: any, res: any, next: any) => next()) as unknown as Middleware;
    const throwing = (() => {
      throw new Error('sync failure');
    }) as unknown as Middleware;
    app.get('/sync', { middleware: [plain] }, ((req: any, res: any) => res.json({ sync: true })) as any);
    app.get('/value', { middleware: [plain] }, (() => ({ plain: 'value' })) as any);
    app.get('/throws', { middleware: [throwing] }, async () => ({}));
    app.get('/handler-throws', (() => {
      throw new Error('sync handler failure');
    }) as any);
    expect((await app.inject('/sync')).json()).toEqual({ sync: true });
    expect((await app.inject('/value')).json()).toEqual({ plain: 'value' });
    expect((await app.inject('/throws')).statusCode).toBe(500);
    expect((await app.inject('/handler-throws')).statusCode).toBe(500);
  });

  it('lets middleware change headers after the handler ran', async () => {
    const app = new TernApp();
    app.addMiddleware(async (req, res, next) => (await next()).setHeader('x-powered-by', 'tern'));
    app.get('/x', async () => ({}));
    expect((await app.inject('/x')).headers['x-powered-by']).toBe('tern');
    expect((await app.inject('/missing')).headers['x-powered-by']).toBeUndefined();
  });

  it('reports a middleware that forgets to return next()', async () => {
    const app = new TernApp({ logger: false, config: new MakeConfig({ debug: true }) });
    app.addMiddleware((async (req: any, res: any, next: any) => {
      await next();
    }) as unknown as Middleware);
    app.get('/x', async () => ({}));
    const response = await app.inject('/x');
    expect(response.statusCode).toBe(500);
    expect(response.json().detail).toMatch(/return next\(\)/);
  });

  it('rejects a second next() with a coded error instead of running the handler twice', async () => {
    let handlerRuns = 0;
    let secondCall: unknown;
    const app = new TernApp({ logger: false });
    app.addMiddleware(async (req, res, next) => {
      const first = await next();
      secondCall = await next().catch((err: unknown) => err);
      return first;
    });
    app.get('/once', async () => ({ runs: ++handlerRuns }));
    const response = await app.inject('/once');
    expect(response.json()).toEqual({ runs: 1 });
    expect(handlerRuns).toBe(1);
    expect(secondCall).toMatchObject({ code: 'TERN_NEXT_CALLED_TWICE' });
  });

  it('answers 500 when a middleware lets the second next() rejection through', async () => {
    const app = new TernApp({ logger: false });
    app.addMiddleware(async (req, res, next) => {
      await next();
      return next();
    });
    app.get('/twice', async () => ({ ok: true }));
    expect((await app.inject('/twice')).statusCode).toBe(500);
  });
});
