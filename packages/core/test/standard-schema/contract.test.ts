/**
 * `checkContract` drives routes declared with zod schemas: it passes an app that keeps the
 * contract its schemas document, and catches a planted mismatch between a response schema and
 * what the handler answers (with response filtering off, as a misconfigured app would send it).
 */
import { z } from 'zod';
import { HTTPException, TernApp } from '@tern/core';
import { checkContract, ContractViolationError } from '@tern/core/testing';

const CreateItem = z.object({ name: z.string().min(1).max(20), quantity: z.number().int().min(0).max(100), tags: z.array(z.string().max(10)).max(5).optional() }).meta({ id: 'CreateItem' });
const Item = z.object({ id: z.number().int(), name: z.string(), quantity: z.number().int(), tags: z.array(z.string()) }).meta({ id: 'Item' });

function itemsApp(plant: (app: TernApp) => void = () => {}): TernApp {
  const app = new TernApp();
  const items = new Map<number, z.output<typeof Item>>();
  app.get('/items/{id:int}', { responses: { 200: Item }, problems: { 404: 'No such item' } }, async (_req, _res, { id }) => {
    const item = items.get(id);
    if (!item) throw new HTTPException(404, `No item ${id}`);
    return item;
  });
  app.post('/items', { requestModel: CreateItem, statusCode: 201, responses: { 201: Item } }, async (req) => {
    const item = { id: items.size + 1, tags: [], ...req.body };
    items.set(item.id, item);
    return item;
  });
  plant(app);
  return app;
}

describe('checkContract with zod schemas', () => {
  beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => {}));
  afterEach(() => jest.restoreAllMocks());

  it('passes an app that keeps the contract its schemas document', async () => {
    const reports = await checkContract(itemsApp(), { runs: 40 });
    expect(reports.map((r) => r.operation)).toEqual(['GET /items/{id}', 'POST /items']);
  });

  it('catches a response that breaks its schema', async () => {
    const app = itemsApp((a) => {
      // Declared as integers; the handler answers a text quantity, sent as is.
      const wrong: unknown = { id: 1, name: 'x', quantity: 'many', tags: [] };
      a.get('/broken', { responses: { 200: Item }, responseFiltering: false }, async () => wrong as z.output<typeof Item>);
    });
    const error = await checkContract(app, { runs: 20 }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(ContractViolationError);
    expect((error as Error).message).toMatch(/GET \/broken/);
    expect((error as Error).message).toMatch(/quantity/);
  });

  it('catches a handler that fails on input its request schema documents as valid', async () => {
    const app = itemsApp((a) => {
      a.post('/fragile', { requestModel: CreateItem, responses: { 200: Item } }, async (req) => {
        // The schema allows names up to 20 characters; this handler breaks past 3.
        if (req.body.name.length > 3) throw new Error('name too long for the legacy store');
        return { id: 1, tags: [], ...req.body };
      });
    });
    const error = await checkContract(app, { runs: 40 }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(ContractViolationError);
    expect((error as Error).message).toMatch(/POST \/fragile/);
    expect((error as Error).message).toMatch(/500/);
  });
});
