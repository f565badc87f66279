/**
 * `@Body(schema)` and `@Query(schema)` with Standard Schemas in controllers: validated by the
 * library (its output is the argument), 422 with dotted paths, query values shaped by the
 * schema's JSON Schema, body and query parameters in the document.
 */
import { z } from 'zod';
import { Body, Controller, Get, Post, Query, TernApp } from '@tern/core';

const CreateNote = z.object({ title: z.string().min(1), tags: z.array(z.string()).default([]), meta: z.object({ pinned: z.boolean() }).optional() });
const ListNotes = z.object({
  page: z.number().int().min(1).default(1),
  tag: z.array(z.string()).optional(),
  done: z.boolean().optional(),
  q: z.string().min(2).optional(),
});

@Controller('/notes')
class Notes {
  @Post('/', { statusCode: 201 })
  async create(@Body(CreateNote) note: z.output<typeof CreateNote>) {
    return { note };
  }

  @Get('/')
  async list(@Query(ListNotes) query: z.output<typeof ListNotes>) {
    return { query };
  }
}

async function app(): Promise<TernApp> {
  const a = new TernApp({ logger: false });
  a.registerControllers([Notes]);
  await a.ready();
  return a;
}

describe('Standard Schemas in controllers', () => {
  it("@Body(schema) hands the method zod's output", async () => {
    const a = await app();
    const response = await a.inject({ method: 'POST', url: '/notes', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ title: 'x', extra: 1 }) });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ note: { title: 'x', tags: [] } });
  });

  it('@Body(schema) answers 422 with dotted paths', async () => {
    const a = await app();
    const response = await a.inject({ method: 'POST', url: '/notes', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ title: '', tags: ['a', 2], meta: { pinned: 'yes' } }) });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.map((e: { path: string }) => e.path).sort()).toEqual(['meta.pinned', 'tags.1', 'title']);
  });

  it('@Query(schema) converts values as its JSON Schema types them, lists included, and validates with the library', async () => {
    const a = await app();
    expect((await a.inject('/notes?page=2&tag=a&tag=b&done=true')).json()).toEqual({ query: { page: 2, tag: ['a', 'b'], done: true } });
    expect((await a.inject('/notes?tag=a')).json()).toEqual({ query: { page: 1, tag: ['a'] } });
    const bad = await a.inject('/notes?page=two&q=x');
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({ code: 'TERN_VALIDATION_FAILED' });
    expect(bad.json().errors.map((e: { path: string }) => e.path).sort()).toEqual(['page', 'q']);
  });

  it('documents the body schema and one query parameter per property', async () => {
    const a = await app();
    const doc = (await a.inject('/openapi.json')).json();
    const create = doc.paths['/notes'].post;
    expect(create.requestBody.content['application/json'].schema).toMatchObject({ type: 'object', properties: { title: { type: 'string', minLength: 1 } }, required: ['title'] });
    const params = doc.paths['/notes'].get.parameters;
    expect(params.map((p: { name: string }) => p.name)).toEqual(['page', 'tag', 'done', 'q']);
    expect(params[0]).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', default: 1 } });
    expect(params[1]).toMatchObject({ style: 'form', explode: true, schema: { type: 'array', items: { type: 'string' } } });
  });
});

describe('a query schema that cannot describe itself', () => {
  it('fails naming the controller method and the library reason', async () => {
    @Controller('/events')
    class Events {
      @Get('/')
      async list(@Query(z.object({ since: z.coerce.date() })) query: { since: Date }) {
        return { since: query.since };
      }
    }
    const a = new TernApp({ logger: false });
    let error: unknown;
    try {
      a.registerControllers([Events]);
      await a.ready();
    } catch (err) {
      error = err;
    }
    expect(error).toMatchObject({ code: 'TERN_CONTROLLER_UNSUPPORTED_TYPE' });
    expect((error as Error).message).toMatch(/Events\.list.*Date cannot be represented in JSON Schema/s);
  });
});
