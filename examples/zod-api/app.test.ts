import { checkContract } from '@tern/core/testing';
import { buildApp } from './app';

function post(app: ReturnType<typeof buildApp>, url: string, payload: unknown, method: 'POST' | 'PATCH' = 'POST') {
  return app.inject({ method, url, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
}

describe('zod-api example', () => {
  it("creates a task from zod's output and answers it as Task declares it", async () => {
    const app = buildApp();
    const created = await post(app, '/tasks', { title: '  Buy milk  ', tags: ['home'], owner: 'mallory' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ id: 1, title: 'Buy milk', priority: 'normal', tags: ['home'], done: false });
    expect(created.body).not.toMatch(/privateNotes|mallory/);
  });

  it('answers 422 naming each field zod refused', async () => {
    const res = await post(buildApp(), '/tasks', { title: '', priority: 'urgent', tags: ['a', 3] });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.map((e: { path: string }) => e.path).sort()).toEqual(['priority', 'tags.1', 'title']);
  });

  it('updates, lists with a typed query string, and 404s', async () => {
    const app = buildApp();
    await post(app, '/tasks', { title: 'one', tags: ['home'] });
    await post(app, '/tasks', { title: 'two' });
    expect((await post(app, '/tasks/1', { done: true }, 'PATCH')).json()).toMatchObject({ id: 1, done: true });
    expect((await app.inject('/tasks?done=true&tag=home')).json().map((t: { id: number }) => t.id)).toEqual([1]);
    expect((await app.inject('/tasks?limit=1')).json()).toHaveLength(1);
    expect((await app.inject('/tasks?limit=0')).statusCode).toBe(422);
    expect((await app.inject('/tasks/9')).statusCode).toBe(404);
  });

  it('documents the zod schemas as named components', async () => {
    const doc = (await buildApp().inject('/openapi.json')).json();
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(['CreateTask', 'UpdateTask', 'Task']));
    expect(doc.paths['/tasks'].post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/CreateTask' });
    expect(doc.paths['/tasks'].get.parameters.map((p: { name: string }) => p.name)).toEqual(['done', 'tag', 'limit']);
  });

  it('keeps the contract its document states', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => {});
    await expect(checkContract(buildApp(), { runs: 30 })).resolves.toHaveLength(4);
    jest.restoreAllMocks();
  });
});
