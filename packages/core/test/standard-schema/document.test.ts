/**
 * How Standard Schemas land in `components.schemas`: named definitions become components, local
 * references are pointed at them, recursive schemas stay valid, a request reading that differs
 * from the response one is `Name-Input`, and a class model of the same name is not overwritten.
 */
import { z } from 'zod';
import { IsString } from 'class-validator';
import { TernApp } from '@tern/core';
import { validate as validateOpenApi } from '@readme/openapi-parser';

interface Category {
  name: string;
  children: Category[];
}
const Category: z.ZodType<Category> = z.object({
  name: z.string(),
  get children() {
    return z.array(Category);
  },
});
const Tree = z.object({ root: Category }).meta({ id: 'Tree' });

class Item {
  @IsString() name: string;
}
const ZodItem = z.object({ name: z.string(), note: z.string().default('') }).meta({ id: 'Item' });

async function doc() {
  const app = new TernApp({ logger: false });
  app.get('/tree', { responses: { 200: Tree } }, async () => ({ root: { name: 'a', children: [{ name: 'b', children: [], secret: 1 }] }, extra: true }));
  app.post('/tree', { requestModel: Tree }, async (req) => req.body);
  app.post('/items', { requestModel: Item, responses: { 200: Item } }, async (req) => req.body as object);
  app.post('/zod-items', { requestModel: ZodItem, responses: { 200: ZodItem } }, async (req) => req.body);
  await app.ready();
  return { app, doc: (await app.inject('/openapi.json')).json() };
}

describe('Standard Schemas in components', () => {
  it('turns $defs into components and points every $ref at them, recursion included', async () => {
    const { doc: d } = await doc();
    expect(d.paths['/tree'].get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Tree' });
    const text = JSON.stringify(d);
    for (const ref of text.match(/"\$ref":"[^"]+"/g) ?? []) expect(ref).toMatch(/"\$ref":"#\/components\/schemas\/[^"/]+"/);
    const names = new Set(Object.keys(d.components.schemas));
    for (const ref of text.match(/#\/components\/schemas\/[^"]+/g) ?? []) expect(names.has(ref.slice('#/components/schemas/'.length))).toBe(true);
    expect(await validateOpenApi(structuredClone(d))).toMatchObject({ valid: true });
  });

  it('filters a recursive response at every level', async () => {
    const { app } = await doc();
    expect((await app.inject('/tree')).json()).toEqual({ root: { name: 'a', children: [{ name: 'b', children: [] }] } });
  });

  it('keeps a class model and a zod schema of the same name apart, and names a differing request reading Name-Input', async () => {
    const { doc: d } = await doc();
    const schemas = d.components.schemas;
    expect(schemas.Item).toMatchObject({ properties: { name: { type: 'string' } } });
    expect(schemas.Item.properties.note).toBeUndefined();
    const zodRequest = d.paths['/zod-items'].post.requestBody.content['application/json'].schema.$ref as string;
    const zodResponse = d.paths['/zod-items'].post.responses['200'].content['application/json'].schema.$ref as string;
    expect(zodRequest).not.toBe('#/components/schemas/Item');
    expect(zodResponse).not.toBe('#/components/schemas/Item');
    expect(zodRequest).not.toBe(zodResponse);
    const request = schemas[zodRequest.split('/').pop() as string];
    const response = schemas[zodResponse.split('/').pop() as string];
    expect(request.required).toEqual(['name']);
    expect(response.required).toEqual(['name', 'note']);
  });
});
