/**
 * Declaring routes with the app's method helpers: the shortest way to write Tern.
 * Run: `npm run build && node examples/dist/method-helpers/main.js`.
 */
import { HTTPException, MakeConfig, TernApp } from '@tern/core';
import { exampleOpenAPI } from '../shared/openapi';

interface Todo {
  id: number;
  title: string;
  done: boolean;
}

/** How a todo is documented (the handlers return plain objects of this shape). */
const TODO = { id: Number, title: String, done: Boolean };
const NOT_FOUND = { 404: 'No such todo' };

export function buildApp(options: { debug?: boolean } = {}): TernApp {
  const app = new TernApp({
    config: new MakeConfig({ debug: options.debug ?? false }),
    openapi: exampleOpenAPI({
      title: 'Todos (method helpers)',
      description: 'A todo list declared with `app.get`, `app.post`, `app.patch` and `app.delete`.',
      tags: [{ name: 'todos', description: 'Things to do.' }],
    }),
  });
  const todos = new Map<number, Todo>([[1, { id: 1, title: 'Try Tern', done: false }]]);
  let nextId = 2;

  app.get('/todos', {
      summary: 'List todos',
      description: 'Every todo, or only the done (`?done=true`) or open (`?done=false`) ones.',
      tags: ['todos'],
      name: 'todos.list',
      parameters: [{ name: 'done', in: 'query', description: 'Filter by state.', schema: { type: 'string', enum: ['true', 'false'] } }],
      // `parameters` only documents: the handler enforces the enum it declares.
      problems: { 422: 'done is neither true nor false' },
    }, async (req) => {
    const done = req.queryParams.get('done');
    if (done !== undefined && done !== 'true' && done !== 'false') throw new HTTPException(422, `done must be true or false, not '${done}'`);
    const all = [...todos.values()];
    return done === undefined ? all : all.filter((todo) => String(todo.done) === done);
  });

  app.get('/todos/{id:int}', { summary: 'Get a todo', description: 'One todo by its id.', tags: ['todos'], name: 'todos.get', responses: { 200: TODO }, problems: NOT_FOUND }, async (req, res, { id }) => {
    const todo = todos.get(id);
    if (!todo) throw new HTTPException(404, `No todo ${id}`);
    return todo;
  });

  app.post('/todos', {
      summary: 'Create a todo',
      description: 'Adds an open todo; the body is `{ "title": "…" }`. `Location` names the new todo.',
      tags: ['todos'],
      consumes: ['application/json'],
      statusCode: 201,
      responses: { 201: TODO },
      problems: { 422: 'title is missing or empty' },
    }, async (req, res) => {
    const { title } = await req.json<{ title?: unknown }>();
    if (typeof title !== 'string' || title.trim() === '') throw new HTTPException(422, 'title must be a non-empty string');
    const todo = { id: nextId++, title, done: false };
    todos.set(todo.id, todo);
    return res.setHeader('Location', app.urlFor('todos.get', { id: todo.id })).json(todo, 201);
  });

  app.patch('/todos/{id:int}', { summary: 'Mark a todo done', description: 'Sets `done` to true.', tags: ['todos'], responses: { 200: TODO }, problems: NOT_FOUND }, async (req, res, { id }) => {
    const todo = todos.get(id);
    if (!todo) throw new HTTPException(404, `No todo ${id}`);
    todo.done = true;
    return todo;
  });

  app.delete('/todos/{id:int}', { summary: 'Delete a todo', description: 'Removes the todo for good.', tags: ['todos'], statusCode: 204, responses: { 204: { description: 'Deleted' } }, problems: NOT_FOUND }, async (req, res, { id }) => {
    if (!todos.delete(id)) throw new HTTPException(404, `No todo ${id}`);
    return res.json(null, 204);
  });

  return app;
}
