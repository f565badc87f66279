/**
 * Compile-time checks, run by `tsc -p tsconfig.test.json` as part of `npm test`: each
 * `@ts-expect-error` line must be an error, and every other line must compile.
 */
import { TernApp, type PathParams } from '@tern/core';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const assert = <T extends true>(): T => true as T;

assert<Equal<PathParams<'/users/{id:int}/{slug}'>, { id: number; slug: string }>>();
assert<Equal<PathParams<'/f/{x:float}/{u:uuid}/{rest:path}'>, { x: number; u: string; rest: string }>>();
assert<Equal<PathParams<'/static'>, {}>>();

const app = new TernApp();
app.get('/users/{id:int}/{slug}', async (req, res, { id, slug }) => {
  const n: number = id;
  const s: string = slug;
  const fromReq: number = req.pathParams.id;
  // @ts-expect-error id is a number, not a string
  const wrong: string = id;
  // @ts-expect-error no such parameter
  void req.pathParams.other;
  return { n, s, fromReq, wrong };
});

app.post('/items/{sku}', { statusCode: 201 }, async (req, res, params) => {
  // @ts-expect-error sku is a string
  const sku: number = params.sku;
  return res.json({ sku }, 201);
});

// @ts-expect-error a handler must return a response or a value
app.get('/nothing', async () => {});
