/**
 * A task API whose models are zod schemas instead of class-validator classes: every schema goes
 * where a model class would (`requestModel`, `responses`, `@Query()`), zod validates the input
 * and hands the handler its output (defaults filled, text trimmed), and the OpenAPI document is
 * built from zod's own JSON Schema. `req.body` and what a handler returns are typed from the
 * schemas, without a cast. See docs/schemas.md.
 */
import 'reflect-metadata';
import { z } from 'zod';
import { Controller, Get, HTTPException, MakeConfig, Query, TernApp } from '@tern/core';
import { exampleOpenAPI } from '../shared/openapi';

/** What a client sends to create a task: zod fills `priority` and trims the title. */
export const CreateTask = z
  .object({
    title: z.string().trim().min(1).max(120).describe('What to do'),
    priority: z.enum(['low', 'normal', 'high']).default('normal'),
    tags: z.array(z.string().max(20)).max(10).default([]),
  })
  .meta({ id: 'CreateTask', title: 'CreateTask' });

/** A partial update: every field optional, none defaulted. */
export const UpdateTask = z
  .object({
    title: z.string().trim().min(1).max(120).optional(),
    priority: z.enum(['low', 'normal', 'high']).optional(),
    done: z.boolean().optional(),
  })
  .meta({ id: 'UpdateTask' });

/** What the API answers: a stored task, never the owner's private notes. */
export const Task = z
  .object({
    id: z.number().int().min(1),
    title: z.string(),
    priority: z.enum(['low', 'normal', 'high']),
    tags: z.array(z.string()),
    done: z.boolean(),
  })
  .meta({ id: 'Task' });

/** The list's query string: `?done=true&tag=home&limit=20`, values typed by the schema. */
export const ListTasks = z.object({
  done: z.boolean().optional().describe('Only tasks done (true) or open (false)'),
  tag: z.string().max(20).optional().describe('Only tasks with this tag'),
  limit: z.number().int().min(1).max(100).default(20).describe('At most this many tasks'),
});

export type TaskRow = z.output<typeof Task> & { privateNotes: string };

/** The in-memory store; a row has a column the API never shows. */
export class TaskStore {
  private readonly rows = new Map<number, TaskRow>();

  add(task: z.output<typeof CreateTask>): TaskRow {
    const row: TaskRow = { id: this.rows.size + 1, done: false, privateNotes: 'owner only', ...task };
    this.rows.set(row.id, row);
    return row;
  }

  get(id: number): TaskRow | undefined {
    return this.rows.get(id);
  }

  list(query: z.output<typeof ListTasks>): TaskRow[] {
    return [...this.rows.values()]
      .filter((row) => query.done === undefined || row.done === query.done)
      .filter((row) => query.tag === undefined || row.tags.includes(query.tag))
      .slice(0, query.limit);
  }
}

function tasksController(store: TaskStore) {
  @Controller('/tasks', { tags: ['tasks'] })
  class TasksController {
    @Get('/', { summary: 'List tasks', description: 'Tasks filtered by the query string, as Task declares them.', responses: { 200: [Task] } })
    async list(@Query(ListTasks) query: z.output<typeof ListTasks>) {
      return store.list(query);
    }
  }
  return TasksController;
}

export function buildApp(config: ConstructorParameters<typeof MakeConfig>[0] = {}): TernApp {
  const store = new TaskStore();
  const app = new TernApp({
    config: new MakeConfig(config),
    openapi: exampleOpenAPI({
      title: 'Tasks (zod schemas)',
      description: 'Models written with zod: validated by zod, documented from its JSON Schema.',
      tags: [{ name: 'tasks', description: 'Things to do.' }],
    }),
  });
  app.post(
    '/tasks',
    { summary: 'Create a task', description: 'Validates the body with CreateTask; answers the stored task.', tags: ['tasks'], requestModel: CreateTask, responses: { 201: Task }, statusCode: 201 },
    // req.body is CreateTask's output: title trimmed, priority and tags filled in.
    async (req) => store.add(req.body),
  );
  app.get(
    '/tasks/{id:int}',
    { summary: 'Get a task', description: 'One task, as Task declares it.', tags: ['tasks'], responses: { 200: Task }, problems: { 404: 'No such task' } },
    async (_req, _res, { id }) => store.get(id) ?? notFound(id),
  );
  app.patch(
    '/tasks/{id:int}',
    { summary: 'Update a task', description: 'Changes the fields sent.', tags: ['tasks'], requestModel: UpdateTask, responses: { 200: Task }, problems: { 404: 'No such task' } },
    async (req, _res, { id }) => Object.assign(store.get(id) ?? notFound(id), withoutUndefined(req.body)),
  );
  app.registerControllers([tasksController(store)]);
  return app;
}

function notFound(id: number): never {
  throw new HTTPException(404, `No task ${id}`);
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
