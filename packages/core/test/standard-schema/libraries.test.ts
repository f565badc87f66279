/**
 * The same model written with each Standard Schema library Tern is tested with (zod 4, valibot 1
 * with `@valibot/to-json-schema`, arktype 2) and by hand: each is validated by its own library
 * (422 with dotted paths), documented from its Standard JSON Schema, and filters responses.
 * arktype is ESM-only: it is loaded with `import()`, which jest runs under
 * `--experimental-vm-modules` (`npm test` sets it); without the flag its cases are skipped, saying so.
 */
import { z } from 'zod';
import * as v from 'valibot';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { TernApp, type StandardSchemaV1 } from '@tern/core';

interface Library {
  name: string;
  /** `{ name: non-empty string, address: { city: string }, tags?: string[] }`, unknown keys stripped. */
  createUser: StandardSchemaV1;
  /** `{ id: number, name: string }`. */
  user: StandardSchemaV1;
}

/** A hand-made Standard Schema: what any library implementing the spec hands Tern. */
function handMade<T>(check: (value: unknown) => { value: T } | { issues: StandardSchemaV1.Issue[] }, jsonSchema: Record<string, unknown>, async = false): StandardSchemaV1<unknown, T> {
  return {
    '~standard': {
      version: 1,
      vendor: 'hand-made',
      validate: (value: unknown) => (async ? Promise.resolve(check(value)) : check(value)),
      jsonSchema: { input: () => structuredClone(jsonSchema), output: () => structuredClone(jsonSchema) },
    } as StandardSchemaV1.Props<unknown, T>,
  };
}

const handCreateUser = handMade(
  (value) => {
    const input = (value ?? {}) as Record<string, unknown>;
    const address = (input.address ?? {}) as Record<string, unknown>;
    const issues: StandardSchemaV1.Issue[] = [];
    if (typeof input.name !== 'string' || input.name === '') issues.push({ message: 'name is required', path: [{ key: 'name' }] });
    if (typeof address.city !== 'string') issues.push({ message: 'city must be text', path: ['address', 'city'] });
    return issues.length > 0 ? { issues } : { value: { name: input.name as string, address: { city: address.city as string }, ...(input.tags ? { tags: input.tags as string[] } : {}) } };
  },
  {
    type: 'object',
    properties: { name: { type: 'string', minLength: 1 }, address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }, tags: { type: 'array', items: { type: 'string' } } },
    required: ['name', 'address'],
  },
  true,
);
const handUser = handMade(
  (value) => {
    const input = value as { id?: unknown; name?: unknown };
    return typeof input?.id === 'number' && typeof input.name === 'string' ? { value: input } : { issues: [{ message: 'not a user' }] };
  },
  { type: 'object', properties: { id: { type: 'number' }, name: { type: 'string' } }, required: ['id', 'name'] },
);

const libraries: Array<() => Promise<Library | string>> = [
  async () => ({
    name: 'zod',
    createUser: z.object({ name: z.string().min(1), address: z.object({ city: z.string() }), tags: z.array(z.string()).optional() }),
    user: z.object({ id: z.number(), name: z.string() }),
  }),
  async () => ({
    name: 'valibot',
    createUser: toStandardJsonSchema(v.object({ name: v.pipe(v.string(), v.minLength(1)), address: v.object({ city: v.string() }), tags: v.optional(v.array(v.string())) })),
    user: toStandardJsonSchema(v.object({ id: v.number(), name: v.string() })),
  }),
  async () => {
    const ark = await import('arktype').catch((err: unknown) => (err instanceof Error ? err : new Error(String(err))));
    if (ark instanceof Error) return `arktype is ESM-only and jest loads it only under NODE_OPTIONS=--experimental-vm-modules (npm test sets it): ${ark.message}`;
    // `'+': 'delete'`: arktype keeps undeclared keys unless told to delete them.
    return {
      name: 'arktype',
      createUser: ark.type({ '+': 'delete', name: 'string > 0', address: { '+': 'delete', city: 'string' }, 'tags?': 'string[]' }),
      user: ark.type({ id: 'number', name: 'string' }),
    };
  },
  async () => ({ name: 'hand-made', createUser: handCreateUser, user: handUser }),
];

async function appFor(library: Library): Promise<TernApp> {
  const app = new TernApp({ logger: false });
  app.post('/echo', { requestModel: library.createUser }, async (req) => ({ received: req.body }));
  app.post('/users', { requestModel: library.createUser, responses: { 201: library.user }, statusCode: 201 }, async (req) => ({ received: req.body }));
  app.post('/users/create', { requestModel: library.createUser, responses: { 201: library.user }, statusCode: 201 }, async () => ({ id: 7, name: 'Ada', passwordHash: 'secret' }));
  await app.ready();
  return app;
}

function post(app: TernApp, url: string, payload: unknown) {
  return app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
}

describe.each(libraries.map((load, index) => [['zod', 'valibot', 'arktype', 'hand-made'][index], load] as const))('%s schemas', (_name, load) => {
  let library: Library | undefined;
  beforeAll(async () => {
    const loaded = await load();
    if (typeof loaded === 'string') console.warn(`skipped: ${loaded}`);
    else library = loaded;
  });

  it("validates the body with the library, handing the handler the library's output", async () => {
    if (!library) return;
    const app = await appFor(library);
    const response = await post(app, '/echo', { name: 'Ada', address: { city: 'London', zip: 'x' }, admin: true });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ received: { name: 'Ada', address: { city: 'London' } } });
  });

  it('answers 422 with each issue at its dotted path', async () => {
    if (!library) return;
    const app = await appFor(library);
    const response = await post(app, '/users', { name: '', address: { city: 3 } });
    expect(response.statusCode).toBe(422);
    const body = response.json();
    expect(body).toMatchObject({ status: 422, code: 'TERN_VALIDATION_FAILED' });
    expect(body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['address.city', 'name']);
  });

  it('filters a response to what the output schema declares', async () => {
    if (!library) return;
    const app = await appFor(library);
    const response = await post(app, '/users/create', { name: 'Ada', address: { city: 'London' } });
    expect(response.json()).toEqual({ id: 7, name: 'Ada' });
  });

  it('documents the request body and the response from its JSON Schema', async () => {
    if (!library) return;
    const app = await appFor(library);
    const doc = (await app.inject('/openapi.json')).json();
    const op = doc.paths['/users'].post;
    const request = op.requestBody.content['application/json'].schema;
    expect(request).toMatchObject({ type: 'object', properties: { name: { type: 'string', minLength: 1 }, address: { type: 'object', properties: { city: { type: 'string' } } } } });
    expect([...request.required].sort()).toEqual(['address', 'name']);
    expect(op.responses['201'].content['application/json'].schema).toMatchObject({ type: 'object', properties: { id: { type: 'number' }, name: { type: 'string' } } });
    expect(JSON.stringify(doc)).not.toContain('$schema');
  });
});

describe('schemas that cannot describe themselves', () => {
  it('refuses a valibot schema not wrapped by toStandardJsonSchema at ready(), naming the route and the fix', async () => {
    const app = new TernApp({ logger: false });
    app.post('/plain', { requestModel: v.object({ name: v.string() }) }, async (req) => req.body as object);
    await expect(app.ready()).rejects.toThrow(/POST \/plain.*requestModel.*toStandardJsonSchema/s);
  });

  it('serves it when the route is left out of the document', async () => {
    const app = new TernApp({ logger: false });
    app.post('/plain', { requestModel: v.object({ name: v.string() }), excludeFromSchema: true }, async (req) => ({ body: req.body }));
    await app.ready();
    expect((await post(app, '/plain', { name: 'a', x: 1 })).json()).toEqual({ body: { name: 'a' } });
    expect((await post(app, '/plain', { name: 1 })).json().errors[0].path).toBe('name');
  });
});

describe('a schema whose library misbehaves', () => {
  const broken = (validate: () => unknown): StandardSchemaV1 => ({
    '~standard': { version: 1, vendor: 'broken', validate: validate as StandardSchemaV1.Props['validate'] },
  });

  beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => {}));
  afterEach(() => jest.restoreAllMocks());

  it('answers 500 without a stack when validate throws or rejects, and keeps serving', async () => {
    const app = new TernApp({ logger: false });
    app.post('/throws', { requestModel: broken(() => { throw new Error('schema bug'); }), excludeFromSchema: true }, async () => ({}));
    app.post('/rejects', { requestModel: broken(() => Promise.reject(new Error('async schema bug'))), excludeFromSchema: true }, async () => ({}));
    app.post('/empty', { requestModel: broken(() => ({ issues: [] })), excludeFromSchema: true }, async () => ({}));
    app.get('/ok', async () => ({ ok: true }));
    await app.ready();
    for (const url of ['/throws', '/rejects']) {
      const response = await post(app, url, { a: 1 });
      expect(response.statusCode).toBe(500);
      expect(response.body).not.toMatch(/schema bug|at /);
    }
    // A failure without issues is still a failure: a 422 saying the body is invalid, never a pass.
    expect((await post(app, '/empty', { a: 1 })).json()).toMatchObject({ status: 422, errors: [{ path: '', message: 'body is invalid' }] });
    expect((await app.inject('/ok')).json()).toEqual({ ok: true });
  });
});
