import { Group, RouteConflictError, Router, Routes, TernApp } from '@tern/core';

const ok = async () => ({ ok: true });

describe('route conflicts', () => {
  it('fail ready() naming both declarations for one method and path shape', async () => {
    const app = new TernApp();
    app.get('/users/{id:int}', ok);
    const router = new Router({ prefix: '/users' });
    router.get('/{userId:int}', ok);
    app.mountRouter(router);
    const error = await app.ready().catch((err) => err);
    expect(error).toBeInstanceOf(RouteConflictError);
    expect(error.code).toBe('TERN_ROUTE_CONFLICT');
    expect(error.message).toContain('GET /users/{id:int}');
    expect(error.message).toContain('GET /users/{userId:int}');
  });

  it('are found across declaration styles after prefixes compose', async () => {
    const app = new TernApp();
    app.addRoute(new Group({ path: '/api', routes: [new Routes({ path: '/x', methods: ['POST'], handler: ok })] }));
    app.route('/api/x', { methods: ['PUT', 'POST'] }, ok);
    await expect(app.ready()).rejects.toThrow(RouteConflictError);
  });

  it('name where each route was declared when it says so', async () => {
    const app = new TernApp();
    app.addRoute(new Routes({ path: '/x', handler: ok, declaredIn: 'routes/x/route.ts' }));
    app.addRoute(new Routes({ path: '/x', handler: ok, declaredIn: 'LegacyController.x' }));
    await expect(app.ready()).rejects.toThrow(/GET \/x in LegacyController\.x and GET \/x in routes\/x\/route\.ts/);
  });

  it('fail for two routes with one full name', async () => {
    const app = new TernApp();
    app.get('/a', { name: 'same' }, ok);
    app.get('/b', { name: 'same' }, ok);
    await expect(app.ready()).rejects.toThrow(/Route name conflict: 'same'.*GET \/a.*GET \/b/);
  });

  it('allow one path with different methods or different converters', async () => {
    const app = new TernApp();
    app.get('/x/{id:int}', ok);
    app.post('/x/{id:int}', ok);
    app.get('/x/{slug:slug}', ok);
    await expect(app.ready()).resolves.toBeUndefined();
  });
});
