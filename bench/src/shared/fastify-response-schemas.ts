/**
 * Response schemas for the `fastify-schemas` server: Fastify as its guide tells users to write
 * it, with a response schema on every route, so fast-json-stringify (compiled at startup) writes
 * every JSON answer instead of JSON.stringify. Each schema describes exactly what the route
 * answers, so both Fastify servers send the same JSON (checked before the load).
 */
import { itemSchema } from './item-schema';

/** GET / → {"hello":"world"} */
export const helloResponseSchema = {
  type: 'object',
  required: ['hello'],
  properties: { hello: { type: 'string' } },
} as const;

/** GET /users/:id/posts/:slug → {"id":42,"slug":"…"} */
export const routeResponseSchema = {
  type: 'object',
  required: ['id', 'slug'],
  properties: { id: { type: 'integer' }, slug: { type: 'string' } },
} as const;

/** POST /items → 201 with the validated item and its new id. */
export const createdItemResponseSchema = {
  type: 'object',
  required: ['id', ...itemSchema.required],
  properties: { id: { type: 'integer' }, ...itemSchema.properties },
} as const;

/** GET /mw → {"user":7} */
export const mwResponseSchema = {
  type: 'object',
  required: ['user'],
  properties: { user: { type: 'integer' } },
} as const;

/** Every filler route → {"route":i} */
export const fillerResponseSchema = {
  type: 'object',
  required: ['route'],
  properties: { route: { type: 'integer' } },
} as const;
