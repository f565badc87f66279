import { Group, MakeConfig, Router, Routes, TernApp } from '@tern/core';
import express from 'express';

const ok = async () => ({ ok: true });

describe('declaring routes', () => {
  it('serves every method helper with its method', async () => {
    const app = new TernApp();
    app.get('/items', async () => ({ method: 'GET' }));
    app.post('/items', async (req, res) => res.json({ method: 'POST' }, 201));
    app.put('/items', async () => ({ method: 'PUT' }));
    app.patch('/items', async () => ({ method: 'PATCH' }));
    app.delete('/items', async (req, res) => res.json(null, 204));
    app.options('/items', async (req, res) => res.setHeader('Allow', 'GET, POST').json(null));
    for (const [method, status] of [['GET', 200], ['POST', 201], ['PUT', 200], ['PATCH', 200], ['DELETE', 204], ['OPTIONS', 200]] as const) {
      expect((await app.inject({ method, url: '/items' })).statusCode).toBe(status);
    }
    for (const method of ['GET', 'POST', 'PUT', 'PATCH']) {
      expect((await app.inject({ method, url: '/items' })).json()).toEqual({ method });
    }
    const del = await app.inject({ method: 'DELETE', url: '/items' });
    expect(del.body).toBe('');
    const options = await app.inject({ method: 'OPTIONS', url: '/items' });
    expect(options.headers.allow).toBe('GET, POST');
  });

  it('passes converted params as the third argument and on req.pathParams', async () => {
    const app = new TernApp();
    app.get('/users/{id:int}/{slug}', async (req, res, { id, slug }) => ({ id, slug, fromReq: req.pathParams.id }));
    const response = await app.inject('/users/42/hello');
    expect(response.json()).toEqual({ id: 42, slug: 'hello', fromReq: 42 });
  });

  it('lets app.route serve several methods with one handler reading req.method', async () => {
    const app = new TernApp();
    app.route('/echo', { methods: ['GET', 'POST'] }, async (req) => ({ method: req.method }));
    expect((await app.inject({ method: 'POST', url: '/echo' })).json()).toEqual({ method: 'POST' });
    expect((await app.inject('/echo')).json()).toEqual({ method: 'GET' });
  });

  it('adds Routes objects, with GET as the default method', async () => {
    const app = new TernApp();
    const route = new Routes({ path: '/health', handler: async (req, res) => res.text('up') });
    expect(route.methods).toEqual(['GET']);
    app.addRoute(route);
    const response = await app.inject('/health');
    expect(response.body).toBe('up');
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('keeps `extra` and x-* extensions as route metadata, and types refuse a misspelt option', async () => {
    const route = new Routes({ path: '/x', extra: { rateLimit: 10 }, 'x-internal': true, summary: 'X' });
    expect(route.extra).toEqual({ rateLimit: 10, 'x-internal': true });
    expect(route.options.summary).toBe('X');
    // @ts-expect-error a typo is a compile error, not silent metadata
    const misspelt = new Routes({ path: '/y', summery: 'Y', handler: async () => ({}) });
    // Untyped code gets the same answer at startup: the unknown key is named, not kept silently.
    expect(misspelt.extra).toEqual({ summery: 'Y' });
    const app = new TernApp();
    app.addRoute(misspelt);
    await expect(app.ready()).rejects.toMatchObject({ code: 'TERN_INVALID_ROUTE_OPTION', message: expect.stringContaining("unknown option 'summery'") });
  });

  it('sends a plain returned object as JSON with the route status code', async () => {
    const app = new TernApp();
    app.post('/things', { statusCode: 201 }, async () => ({ id: 1 }));
    const response = await app.inject({ method: 'POST', url: '/things' });
    expect(response.statusCode).toBe(201);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.json()).toEqual({ id: 1 });
  });

  // Routes share a parameter written the same way ({id:int}); where it sits is still checked per route.
  it.each([
    ['/b/{id:int}/c/{id:int}', "parameter 'id' appears twice in '/b/{id:int}/c/{id:int}'"],
    ['/b/{rest:path}/c', "a {rest:path} parameter must be the last segment of '/b/{rest:path}/c'"],
  ])('fails ready() for %s even when an earlier route wrote the same parameter', async (path, message) => {
    const app = new TernApp();
    app.get('/a/{id:int}', ok);
    app.get('/a/x/{rest:path}', ok);
    app.get(path, ok);
    await expect(app.ready()).rejects.toMatchObject({ message: expect.stringContaining(message) });
  });

  it('converts a shared parameter for every route that writes it', async () => {
    const app = new TernApp();
    app.get('/a/{id:int}', async (req, res, { id }) => ({ a: id }));
    app.get('/b/{id:int}', async (req, res, { id }) => ({ b: id }));
    expect((await app.inject('/a/1')).json()).toEqual({ a: 1 });
    expect((await app.inject('/b/2')).json()).toEqual({ b: 2 });
    expect((await app.inject('/b/x')).statusCode).toBe(422);
  });

  it('treats /users and /users/ as different paths', async () => {
    const app = new TernApp();
    app.get('/users', ok);
    expect((await app.inject('/users')).statusCode).toBe(200);
    expect((await app.inject('/users/')).statusCode).toBe(404);
  });
});

describe('route.match', () => {
  it('returns [match, params, allowed] with converters applied, even without a handler', () => {
    const route = new Routes({ path: '/users/{id:int}', methods: ['GET'] });
    const [match, params, allowed] = route.match('/users/5', 'GET');
    expect(match).toBeTruthy();
    expect(params).toEqual({ id: 5 });
    expect(allowed).toBe(true);
    expect(route.match('/users/5', 'POST')).toEqual([route, { id: 5 }, false]);
  });

  it('gives [null, null, false] for another path or a rejected value', () => {
    const route = new Routes({ path: '/users/{id:int}' });
    expect(route.match('/posts/5', 'GET')).toEqual([null, null, false]);
    expect(route.match('/users/abc', 'GET')).toEqual([null, null, false]);
  });
});

describe('routers', () => {
  it('composes nested prefixes and merges tags, container first', async () => {
    const app = new TernApp();
    const users = new Router({ prefix: '/users', tags: ['users'] });
    users.get('/{id:int}', { tags: ['read', 'users'] }, async (req, res, { id }) => ({ id }));
    const v1 = new Router({ prefix: '/v1', tags: ['v1'] });
    v1.mountRouter(users);
    const api = new Router({ prefix: '/api' });
    api.mountRouter(v1);
    app.mountRouter(api);
    expect((await app.inject('/api/v1/users/3')).json()).toEqual({ id: 3 });
    const [route] = app.getAllRoutes();
    expect(route.rawPath).toBe('/api/v1/users/{id:int}');
    expect(route.tags).toEqual(['v1', 'users', 'read']);
  });

  it('mounts one router under several version routers', async () => {
    const app = new TernApp();
    const users = new Router({ prefix: '/users', name: 'users' });
    users.get('/', { name: 'list' }, async (req) => ({ path: req.url.path }));
    for (const version of ['v1', 'v2']) {
      const router = new Router({ prefix: `/api/${version}`, name: version });
      router.mountRouter(users);
      app.mountRouter(router);
    }
    expect((await app.inject('/api/v1/users')).json()).toEqual({ path: '/api/v1/users' });
    expect((await app.inject('/api/v2/users')).json()).toEqual({ path: '/api/v2/users' });
    expect(app.getAllRoutes().map((r) => r.name)).toEqual(['v1.users.list', 'v2.users.list']);
  });

  it('accepts initial routes and addRoute on a router', async () => {
    const app = new TernApp();
    const router = new Router({ prefix: '/r', routes: [new Routes({ path: '/a', handler: async () => ({ a: 1 }) })] });
    router.addRoute(new Routes({ path: '/b', handler: async () => ({ b: 1 }) }));
    app.mountRouter(router);
    expect((await app.inject('/r/a')).json()).toEqual({ a: 1 });
    expect((await app.inject('/r/b')).json()).toEqual({ b: 1 });
  });

  it('refuses a router mounted inside itself', async () => {
    const app = new TernApp();
    const router = new Router({ prefix: '/loop' });
    router.mountRouter(router);
    app.mountRouter(router);
    await expect(app.ready()).rejects.toMatchObject({ code: 'TERN_ROUTER_CYCLE' });
  });
});

describe('groups', () => {
  it('serves routes appended after construction, nested groups included', async () => {
    const app = new TernApp();
    const group = new Group({ path: '/admin', routes: [new Routes({ path: '/stats', handler: async () => ({ stats: true }) })] });
    group.routes.push(new Group({ path: '/reports', routes: [new Routes({ path: '/daily', handler: async () => ({ daily: true }) })] }));
    app.addRoute(group);
    expect((await app.inject('/admin/stats')).json()).toEqual({ stats: true });
    expect((await app.inject('/admin/reports/daily')).json()).toEqual({ daily: true });
  });

  it('builds [factory, args, options] middleware entries once', async () => {
    const factory = jest.fn((args: { header: string }, options: { value: string }) => async (req: any, res: any, next: any) => {
      const response = await next();
      return response.setHeader(args.header, options.value);
    });
    const app = new TernApp();
    app.addRoute(new Group({ path: '/g', middleware: [[factory, { header: 'x-group' }, { value: 'yes' }]], routes: [new Routes({ path: '/a', handler: ok })] }));
    await app.inject('/g/a');
    const response = await app.inject('/g/a');
    expect(response.headers['x-group']).toBe('yes');
    expect(factory).toHaveBeenCalledTimes(1);
  });

  it('forwards to a Node request listener (an Express app) with the prefix stripped', async () => {
    const legacy = express();
    legacy.get('/hello', (req, res) => {
      res.json({ url: req.url, query: req.query });
    });
    legacy.get('/', (req, res) => {
      res.send('legacy root');
    });
    const app = new TernApp();
    app.get('/native', ok);
    app.addRoute(new Group({ path: '/legacy', app: legacy }));
    const hello = await app.inject('/legacy/hello?x=1');
    expect(hello.statusCode).toBe(200);
    expect(hello.json()).toEqual({ url: '/hello?x=1', query: { x: '1' } });
    expect((await app.inject('/legacy')).body).toBe('legacy root');
    expect((await app.inject('/legacy/missing')).statusCode).toBe(404);
    expect((await app.inject('/native')).json()).toEqual({ ok: true });
  });

  it('forwards to another TernApp handler', async () => {
    const inner = new TernApp();
    inner.get('/ping', async () => ({ pong: true }));
    const app = new TernApp();
    app.addRoute(new Group({ path: '/inner', app: inner.handler }));
    expect((await app.inject('/inner/ping')).json()).toEqual({ pong: true });
  });
});

describe('getAllRoutes', () => {
  it('lists raw path, methods, name and tags of every declaration style', () => {
    const app = new TernApp({ config: new MakeConfig() });
    app.get('/a', { name: 'a', tags: ['t'] }, ok);
    app.addRoute(new Routes({ path: '/b', methods: ['POST', 'PUT'], handler: ok }));
    app.addRoute(new Group({ path: '/g', routes: [new Routes({ path: '/c', handler: ok })] }));
    const routes = app.getAllRoutes().map(({ rawPath, methods, name, tags }) => ({ rawPath, methods, name, tags }));
    expect(routes).toEqual([
      { rawPath: '/a', methods: ['GET'], name: 'a', tags: ['t'] },
      { rawPath: '/b', methods: ['POST', 'PUT'], name: undefined, tags: [] },
      { rawPath: '/g/c', methods: ['GET'], name: undefined, tags: [] },
    ]);
  });

  it('runs onReady hooks with the compiled routes; a throwing hook fails ready()', async () => {
    const seen: string[] = [];
    const app = new TernApp();
    app.get('/a', ok);
    app.onReady((routes) => seen.push(...routes.map((r) => r.rawPath)));
    await app.ready();
    expect(seen).toEqual(['/a']);

    const failing = new TernApp();
    failing.get('/a', ok);
    failing.onReady(() => {
      throw new Error('plugin check failed');
    });
    await expect(failing.ready()).rejects.toThrow('plugin check failed');
    await expect(failing.inject('/a')).rejects.toThrow('plugin check failed');
  });

  it('refuses declarations after ready()', async () => {
    const app = new TernApp();
    await app.ready();
    expect(() => app.get('/late', ok)).toThrow(expect.objectContaining({ code: 'TERN_APP_ALREADY_READY' }));
  });
});
