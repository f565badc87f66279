/**
 * Type-level checks (run by `tsc -p tsconfig.test.json`): in function routes, `req.body` and the
 * handler's return are typed by Standard Schemas (their output), without a cast; Tern's copy of
 * the Standard Schema interfaces stays interchangeable with `@standard-schema/spec`'s.
 */
import { z } from 'zod';
import * as v from 'valibot';
import type { StandardJSONSchemaV1 as SpecJSONSchema, StandardSchemaV1 as SpecSchema } from '@standard-schema/spec' with { 'resolution-mode': 'require' };
import { TernApp, type StandardSchemaV1 } from '@tern/core';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const assert = <T extends true>(): T => true as T;

const CreateItem = z.object({ name: z.string(), qty: z.coerce.number().int().default(1) });
const Item = z.object({ id: z.number(), name: z.string(), qty: z.number() });
const app = new TernApp();

app.post('/items', { requestModel: CreateItem, responses: { 201: Item }, statusCode: 201 }, async (req) => {
  assert<Equal<typeof req.body, { name: string; qty: number }>>();
  return { id: 1, ...req.body };
});

app.put('/items/{id:int}', { requestModel: v.object({ name: v.string() }), responseModel: Item }, async (req, res, { id }) => {
  assert<Equal<typeof req.body, { name: string }>>();
  assert<Equal<typeof id, number>>();
  return { id, name: req.body.name, qty: 1 };
});

app.get('/search', { query: z.object({ q: z.string(), page: z.coerce.number().default(1) }) }, async (req) => {
  assert<Equal<typeof req.query, { q: string; page: number }>>();
  return { page: req.query.page };
});

// @ts-expect-error -- the success response's schema says id is a number
app.get('/items/{id:int}', { responses: { 200: Item } }, async (req, res, { id }) => ({ id: String(id), name: 'x', qty: 1 }));

// The response object itself is always allowed.
app.get('/raw', { responseModel: Item }, async (_req, res) => res.status(204));

// Class models and shapes keep the plain handler: the body is unknown, any result goes.
class Legacy {}
app.post('/legacy', { requestModel: Legacy, responses: { 200: { id: Number } } }, async (req) => {
  assert<Equal<typeof req.body, unknown>>();
  return req.body === undefined ? 'anything' : null;
});

// Tern's copy of the spec and the spec's own types are interchangeable.
declare const fromSpec: SpecSchema<{ a: string }, { a: number }>;
const asTern: StandardSchemaV1<{ a: string }, { a: number }> = fromSpec;
const backToSpec: SpecSchema<{ a: string }, { a: number }> = asTern;
assert<Equal<StandardSchemaV1.InferOutput<typeof asTern>, SpecSchema.InferOutput<typeof backToSpec>>>();
void backToSpec;
declare const described: SpecJSONSchema<string>;
const converter: { '~standard': { jsonSchema: { input: (o: { target: 'draft-2020-12' }) => Record<string, unknown> } } } = described;
void converter;

// A socket route's `data` is its Standard Schema messageModel's output, without a cast.
app.ws('/rooms/{id:int}', { messageModel: z.object({ text: z.string().trim(), priority: z.number().default(0) }) }, {
  message(socket, data, req) {
    assert<Equal<typeof data, { text: string; priority: number }>>();
    assert<Equal<typeof req.pathParams.id, number>>();
    socket.send({ room: req.pathParams.id, text: data.text });
  },
});
app.ws('/valibot', { messageModel: v.object({ n: v.number() }) }, {
  message(socket, data) {
    assert<Equal<typeof data, { n: number }>>();
    socket.send(data.n + 1);
  },
});
