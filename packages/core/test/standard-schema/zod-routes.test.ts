/**
 * zod 4 schemas wherever a model class goes in function routes: the body validated by zod (its
 * output reaches the handler), issues as the 422 class-validator models give, the document built
 * from `~standard.jsonSchema`, responses filtered to what the output schema declares and checked
 * by zod under `validateResponses`.
 */
import { z } from 'zod';
import { IsString } from 'class-validator';
import { MakeConfig, TernApp } from '@tern/core';

const Address = z.object({ city: z.string().min(1), country: z.string().default('UK') });
const CreateOrder = z
  .object({
    customer: z.string().min(1),
    address: Address,
    items: z.array(z.object({ name: z.string(), quantity: z.number().int().min(1) })).max(50),
    note: z.string().transform((text) => text.trim()).optional(),
  })
  .meta({ id: 'CreateOrder' });
const Order = z.object({ id: z.number().int(), customer: z.string(), items: z.array(z.object({ name: z.string() })) }).meta({ id: 'Order' });

const valid = { customer: 'Ada', address: { city: 'London' }, items: [{ name: 'tea', quantity: 2 }] };

function post(app: TernApp, url: string, payload: unknown) {
  return app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: typeof payload === 'string' ? payload : JSON.stringify(payload) });
}

async function orders(config?: MakeConfig) {
  const app = new TernApp({ logger: false, config });
  app.post('/orders', { requestModel: CreateOrder, responses: { 201: Order }, statusCode: 201 }, async (req) => {
    const order = req.body;
    return { id: 1, customer: order.customer, items: order.items, secret: 'internal', seen: order };
  });
  app.post('/echo', { requestModel: CreateOrder }, async (req) => ({ body: req.body }));
  // A planted mismatch: the types would catch it, so it is hidden from them as a JavaScript app would be.
  const wrong: unknown = { id: 'one', customer: 'Ada', items: [] };
  app.get('/bad', { responses: { 200: Order } }, async () => wrong as z.output<typeof Order>);
  await app.ready();
  return app;
}

describe('zod schemas in function routes', () => {
  it("hands the handler zod's output: defaults filled, transforms applied, unknown keys stripped", async () => {
    const app = await orders();
    const response = await post(app, '/echo', { ...valid, admin: true, note: '  hi  ' });
    expect(response.statusCode).toBe(200);
    expect(response.json().body).toEqual({ customer: 'Ada', address: { city: 'London', country: 'UK' }, items: [{ name: 'tea', quantity: 2 }], note: 'hi' });
  });

  it('answers 422 with the problem body class-validator models give, dotted paths included', async () => {
    const app = await orders();
    const response = await post(app, '/echo', { customer: '', address: { city: 7 }, items: [{ name: 'tea', quantity: 1 }, { name: 3, quantity: 0 }] });
    expect(response.statusCode).toBe(422);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    const body = response.json();
    expect(body).toMatchObject({ status: 422, code: 'TERN_VALIDATION_FAILED' });
    expect(body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['address.city', 'customer', 'items.1.name', 'items.1.quantity']);
    expect(body.errors.every((e: { message: unknown }) => typeof e.message === 'string' && e.message !== '')).toBe(true);
  });

  it('reads the body with the same JSON reader: invalid JSON is a 400, __proto__ keys are refused', async () => {
    const app = await orders();
    expect((await post(app, '/echo', '{"customer":')).statusCode).toBe(400);
    const polluted = await post(app, '/echo', '{"customer":"Ada","__proto__":{"admin":true},"address":{"city":"x"},"items":[]}');
    expect(polluted.statusCode).toBe(400);
  });

  it('lists at most maxIssues issues and counts the rest', async () => {
    const app = new TernApp({ logger: false });
    app.post('/many', { requestModel: z.object({ items: z.array(z.object({ name: z.string(), quantity: z.number().min(1) })) }) }, async () => ({}));
    // 60 items with two bad fields each: 120 issues.
    const items = Array.from({ length: 60 }, () => ({ name: 1, quantity: 0 }));
    const body = (await post(app, '/many', { items })).json();
    expect(body.errors).toHaveLength(100);
    expect(body.errors[99].path).toBe('items.49.quantity');
    expect(body.errorsOmitted).toBe(20);
  });

  it('sends only what the response schema declares', async () => {
    const app = await orders();
    const response = await post(app, '/orders', { ...valid, note: 'x' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ id: 1, customer: 'Ada', items: [{ name: 'tea' }] });
  });

  it('validateResponses checks the written body with zod', async () => {
    const app = await orders(new MakeConfig({ validateResponses: true }));
    const response = await app.inject('/bad');
    expect(response.statusCode).toBe(500);
    const relaxed = await orders(new MakeConfig({ validateResponses: false }));
    expect((await relaxed.inject('/bad')).json()).toEqual({ id: 'one', customer: 'Ada', items: [] });
  });

  it('documents the request from the input schema and the response from the output schema, as named components', async () => {
    const app = await orders();
    const doc = (await app.inject('/openapi.json')).json();
    const op = doc.paths['/orders'].post;
    expect(op.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/CreateOrder' });
    expect(op.responses['201'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Order' });
    const created = doc.components.schemas.CreateOrder;
    expect(created.required).toEqual(['customer', 'address', 'items']);
    expect(created.properties.address.properties.country).toMatchObject({ type: 'string', default: 'UK' });
    expect(created.properties.address.required).toEqual(['city']);
    expect(doc.components.schemas.Order).toMatchObject({ type: 'object', additionalProperties: false, required: ['id', 'customer', 'items'] });
    expect(op.responses['422']).toBeDefined();
  });

  it('refuses at ready() a schema that cannot describe itself, naming the route, unless it is left out of the document', async () => {
    const app = new TernApp({ logger: false });
    app.post('/dates', { requestModel: z.object({ when: z.date() }) }, async (req) => ({ body: req.body }));
    await expect(app.ready()).rejects.toThrow(/POST \/dates.*requestModel.*Date cannot be represented in JSON Schema/s);
    const hidden = new TernApp({ logger: false });
    hidden.post('/dates', { requestModel: z.object({ when: z.coerce.date() }), excludeFromSchema: true }, async (req) => ({ isDate: (req.body as { when: unknown }).when instanceof Date }));
    await hidden.ready();
    expect((await post(hidden, '/dates', { when: '2024-01-02T00:00:00Z' })).json()).toEqual({ isDate: true });
  });

  it('leaves class-validator models as they were beside zod schemas', async () => {
    class Named {
      @IsString() name: string;
    }
    const app = new TernApp({ logger: false });
    app.post('/named', { requestModel: Named }, async (req) => ({ isInstance: req.body instanceof Named, body: req.body }));
    app.post('/zod', { requestModel: z.object({ name: z.string() }) }, async (req) => ({ body: req.body }));
    await app.ready();
    expect((await post(app, '/named', { name: 'a', x: 1 })).json()).toEqual({ isInstance: true, body: { name: 'a' } });
    expect((await post(app, '/named', { name: 1 })).json().errors).toEqual([{ path: 'name', message: 'name must be a string' }]);
    expect((await post(app, '/zod', { name: 'a', x: 1 })).json()).toEqual({ body: { name: 'a' } });
  });
});

describe('a query schema on a function route', () => {
  const Search = z.object({ q: z.string().min(2), page: z.number().int().min(1).default(1), tag: z.array(z.string()).optional(), exact: z.boolean().optional() });

  async function searchApp() {
    const app = new TernApp({ logger: false });
    app.get('/search', { query: Search }, async (req) => ({ query: req.query, page: req.query.page + 0 }));
    app.post('/notes', { query: z.object({ draft: z.boolean().default(false) }), requestModel: z.object({ text: z.string() }) }, async (req) => ({ draft: req.query.draft, text: req.body.text }));
    await app.ready();
    return app;
  }

  it('validates the query string into req.query, typed by the schema', async () => {
    const app = await searchApp();
    expect((await app.inject('/search?q=tern&page=2&tag=a&exact=true')).json()).toEqual({ query: { q: 'tern', page: 2, tag: ['a'], exact: true }, page: 2 });
    expect((await app.inject('/search?q=tern')).json()).toEqual({ query: { q: 'tern', page: 1 }, page: 1 });
    expect((await post(app, '/notes?draft=true', { text: 'x' })).json()).toEqual({ draft: true, text: 'x' });
  });

  it('answers 422 naming each refused parameter, before reading the body', async () => {
    const app = await searchApp();
    const response = await app.inject('/search?q=t&page=zero');
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ code: 'TERN_VALIDATION_FAILED', detail: 'Query parameters failed validation.' });
    expect(response.json().errors.map((e: { path: string }) => e.path).sort()).toEqual(['page', 'q']);
    expect((await post(app, '/notes?draft=maybe', { text: 'x' })).json().errors.map((e: { path: string }) => e.path)).toEqual(['draft']);
  });

  it('documents one query parameter per property', async () => {
    const app = await searchApp();
    const doc = (await app.inject('/openapi.json')).json();
    const params = doc.paths['/search'].get.parameters;
    expect(params.map((p: { name: string; required: boolean }) => [p.name, p.required])).toEqual([['q', true], ['page', false], ['tag', false], ['exact', false]]);
    expect(doc.paths['/search'].get.responses['422']).toBeDefined();
  });

  it('refuses a class or a plain object as query, pointing at controllers for class query models', async () => {
    class ListQuery {}
    const app = new TernApp({ logger: false });
    app.get('/list', { query: ListQuery as never }, async () => ({}));
    await expect(app.ready()).rejects.toThrow(/query takes a Standard Schema.*@Query\(Model\)/);
  });
});
