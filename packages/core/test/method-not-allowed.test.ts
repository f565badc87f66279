import { Routes, TernApp } from '@tern/core';

describe('405 and HEAD', () => {
  it('answers 405 with an Allow header listing the accepted methods', async () => {
    const app = new TernApp();
    app.get('/things', async () => ({ list: [] }));
    app.post('/things', async () => ({ created: true }));
    const response = await app.inject({ method: 'DELETE', url: '/things' });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD, POST');
    expect(response.json()).toMatchObject({ status: 405, title: 'Method Not Allowed', detail: expect.stringContaining('DELETE') });
  });

  it('answers 404 naming the path when nothing matches', async () => {
    const app = new TernApp();
    app.get('/things', async () => ({}));
    const response = await app.inject('/nothing');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ status: 404, detail: 'No route matches /nothing.', instance: '/nothing' });
    expect(response.json().reasons).toBeUndefined();
  });

  it('serves HEAD for every GET with the same headers and no body', async () => {
    const app = new TernApp();
    app.get('/doc', async (req, res) => res.setHeader('x-doc', '1').json({ hello: 'world' }));
    const get = await app.inject('/doc');
    const head = await app.inject({ method: 'HEAD', url: '/doc' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['x-doc']).toBe('1');
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
  });

  it('lets a declared HEAD route take precedence over the implicit one', async () => {
    const app = new TernApp();
    app.get('/doc', async () => ({ body: true }));
    app.addRoute(new Routes({ path: '/doc', methods: ['HEAD'], handler: async (req, res) => res.setHeader('x-head', 'own').json(null) }));
    const head = await app.inject({ method: 'HEAD', url: '/doc' });
    expect(head.headers['x-head']).toBe('own');
  });

  it('tries a parameter route when the static one lacks the method', async () => {
    const app = new TernApp();
    app.get('/users/me', async () => ({ me: true }));
    app.delete('/users/{id}', async (req, res, { id }) => ({ deleted: id }));
    expect((await app.inject({ method: 'DELETE', url: '/users/me' })).json()).toEqual({ deleted: 'me' });
  });

  it('lists in Allow only the methods whose routes accept this path, converters included', async () => {
    const app = new TernApp();
    app.get('/notes/export', async () => ({ export: true }));
    app.delete('/notes/{id:int}', async (req, res, { id }) => ({ deleted: id }));
    const onExport = await app.inject({ method: 'PUT', url: '/notes/export' });
    expect(onExport.statusCode).toBe(405);
    expect(onExport.headers.allow).toBe('GET, HEAD');
    const onId = await app.inject({ method: 'PUT', url: '/notes/7' });
    expect(onId.statusCode).toBe(405);
    expect(onId.headers.allow).toBe('DELETE');
    expect((await app.inject({ method: 'PUT', url: '/notes/x7' })).statusCode).toBe(404);
  });

  it('never takes an empty trailing segment for a parameter value (404, trailing slashes are strict)', async () => {
    const app = new TernApp();
    app.get('/items', async () => ({ list: [] }));
    app.get('/items/{id:int}', async (req, res, { id }) => ({ id }));
    app.get('/tags/{name}/posts', async (req, res, { name }) => ({ name }));
    expect((await app.inject('/items/')).statusCode).toBe(404);
    expect((await app.inject('/tags//posts')).statusCode).toBe(404);
    expect((await app.inject({ method: 'POST', url: '/items/' })).statusCode).toBe(404);
    expect((await app.inject('/items/3')).json()).toEqual({ id: 3 });
  });
});
