import { buildApp } from './app';

describe('model-compiler example', () => {
  it('validates request bodies with the custom compiler: 422 with its messages, unknown fields stripped', async () => {
    const app = buildApp();
    const bad = await app.inject({ method: 'POST', url: '/notes', payload: { title: '', body: 7 } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual([
      { path: 'title', message: 'title must have at least 1 character(s)' },
      { path: 'body', message: 'body must be a string' },
    ]);
    const created = await app.inject({ method: 'POST', url: '/notes', payload: { title: 'Groceries', body: 'eggs', ownerId: 1 } });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ id: 1, title: 'Groceries', body: 'eggs', pinned: false, labels: {} });
  });

  it('validates, sends and documents a map field key by key, as describe() says (record)', async () => {
    const app = buildApp();
    const bad = await app.inject({ method: 'POST', url: '/notes', payload: { title: 'T', body: 'b', labels: { colour: 'red', size: 3 } } });
    expect(bad.json().errors).toEqual([{ path: 'labels.size', message: 'size must be a string' }]);
    const created = await app.inject({ method: 'POST', url: '/notes', payload: { title: 'T', body: 'b', labels: { colour: 'red' } } });
    expect(created.json().labels).toEqual({ colour: 'red' });
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(doc.components.schemas.NoteDto.properties.labels).toEqual({ type: 'object', additionalProperties: { type: 'string' } });
  });

  it('sends only what NoteDto lists: the stored owner and moderation flags stay on the server', async () => {
    const app = buildApp();
    await app.inject({ method: 'POST', url: '/notes', payload: { title: 'Plan', body: 'ship it', pinned: true } });
    const note = await app.inject({ method: 'GET', url: '/notes/1' });
    expect(note.json()).toEqual({ id: 1, title: 'Plan', body: 'ship it', pinned: true, labels: {} });
    expect(note.body).not.toMatch(/ownerId|moderationFlags/);
    expect((await app.inject({ method: 'GET', url: '/notes/2' })).statusCode).toBe(404);
  });

  it('documents the models with what describe() says, the same properties it sends', async () => {
    const doc = (await buildApp().inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(doc.components.schemas.NoteDto.properties).toEqual({
      id: { type: 'number' },
      title: { type: 'string' },
      body: { type: 'string' },
      pinned: { type: 'boolean' },
      labels: { type: 'object', additionalProperties: { type: 'string' } },
    });
    expect(doc.components.schemas.CreateNote.properties.title).toEqual({ type: 'string', minLength: 1 });
    expect(doc.components.schemas.CreateNote.required).toEqual(['title', 'body']);
  });
});
