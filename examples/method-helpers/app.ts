/**
 * Declaring routes with the app's method helpers: the shortest way to write Tern.
 * Run: `npm run build && node examples/dist/method-helpers/main.js`.
 */
import { HTTPException, MakeConfig, TernApp } from '@tern/core';

interface Todo {
  id: number;
  title: string;
  done: boolean;
}

export function buildApp(options: { debug?: boolean } = {}): TernApp {
  const app = new TernApp({
    config: new MakeConfig({ debug: options.debug ?? false }),
    openapi: { title: 'Todos (method helpers)', version: '1.0.0' },
  });
  const todos = new Map<number, Todo>([[1, { id: 1, title: 'Try Tern', done: false }]]);
  let nextId = 2;

  app.get('/todos', { summary: 'List todos', tags: ['todos'], name: 'todos.list' }, async (req) => {
    const done = req.queryParams.get('done');
    const all = [...todos.values()];
    return done === undefined ? all : all.filter((todo) => String(todo.done) === done);
  });

  app.get('/todos/{id:int}', { summary: 'Get a todo', tags: ['todos'], name: 'todos.get' }, async (req, res, { id }) => {
    const todo = todos.get(id);
    if (!todo) throw new HTTPException(404, `No todo ${id}`);
    return todo;
  });

  app.post('/todos', { summary: 'Create a todo', tags: ['todos'] }, async (req, res) => {
    const { title } = await req.json<{ title?: unknown }>();
    if (typeof title !== 'string' || title.trim() === '') throw new HTTPException(422, 'title must be a non-empty string');
    const todo = { id: nextId++, title, done: false };
    todos.set(todo.id, todo);
    return res.setHeader('Location', app.urlFor('todos.get', { id: todo.id })).json(todo, 201);
  });

  app.patch('/todos/{id:int}', { summary: 'Mark a todo done', tags: ['todos'] }, async (req, res, { id }) => {
    const todo = todos.get(id);
    if (!todo) throw new HTTPException(404, `No todo ${id}`);
    todo.done = true;
    return todo;
  });

  app.delete('/todos/{id:int}', { summary: 'Delete a todo', tags: ['todos'] }, async (req, res, { id }) => {
    if (!todos.delete(id)) throw new HTTPException(404, `No todo ${id}`);
    return res.json(null, 204);
  });

  return app;
}
