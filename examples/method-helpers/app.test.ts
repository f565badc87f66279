import { buildApp } from './app';

describe('todos example (method helpers)', () => {
  it('creates, reads, completes and deletes a todo', async () => {
    const app = buildApp();
    const created = await app.inject({ method: 'POST', url: '/todos', payload: { title: 'Write docs' } });
    expect(created.statusCode).toBe(201);
    expect(created.headers.location).toBe('/todos/2');
    expect((await app.inject('/todos/2')).json()).toEqual({ id: 2, title: 'Write docs', done: false });
    expect((await app.inject({ method: 'PATCH', url: '/todos/2' })).json().done).toBe(true);
    expect((await app.inject('/todos?done=true')).json()).toHaveLength(1);
    expect((await app.inject({ method: 'DELETE', url: '/todos/2' })).statusCode).toBe(204);
    expect((await app.inject('/todos/2')).statusCode).toBe(404);
  });

  it('answers 422 for a non-integer id and for an empty title', async () => {
    const app = buildApp();
    expect((await app.inject('/todos/abc')).statusCode).toBe(422);
    expect((await app.inject({ method: 'POST', url: '/todos', payload: { title: '' } })).statusCode).toBe(422);
  });
});
