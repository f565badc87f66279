/**
 * Issue 43 item 2: `checkContract` reaches the edges its document draws (arrays at `maxItems`,
 * strings at `maxLength`, numbers at their bounds, path integers where a 32-bit column ends),
 * warns about JSON no schema describes, and the `int32` converter keeps an id inside the column.
 */
import { ArrayMaxSize, IsArray, IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { HTTPException, TernApp } from '@tern/core';
import { checkContract, type ContractViolationError } from '@tern/core/testing';

async function violation(promise: Promise<unknown>): Promise<ContractViolationError> {
  const error = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(Error);
  return error as ContractViolationError;
}

describe('checkContract at the edges', () => {
  it('sends arrays of maxItems items: a handler that refuses 4 of a documented 10 is caught', async () => {
    class Order {
      @IsArray() @ArrayMaxSize(10) @IsString({ each: true }) @MaxLength(8, { each: true }) items: string[];
    }
    const app = new TernApp({ logger: false });
    app.post('/orders', { requestModel: Order, responses: { 200: { count: Number } }, problems: { 422: 'Too many' } }, async (req) => {
      const { items } = req.body as Order;
      if (items.length > 3) throw new HTTPException(422, 'at most 3 items');
      return { count: items.length };
    });
    const error = await violation(checkContract(app));
    expect(error.message).toContain('POST /orders refused a valid request with 422');
    expect((error.request.body as Order).items.length).toBeGreaterThan(3);
  });

  it('sends strings of exactly maxLength characters', async () => {
    class Label {
      @IsString() @MaxLength(40) name: string;
    }
    const app = new TernApp({ logger: false });
    app.post('/labels', { requestModel: Label, responses: { 200: { ok: Boolean } } }, async (req) => {
      // An off-by-one column: VARCHAR(39) behind a document that says 40.
      if ([...(req.body as Label).name].length === 40) throw new Error('value too long for type character varying(39)');
      return { ok: true };
    });
    const error = await violation(checkContract(app));
    expect(error.message).toContain('POST /labels answered 500');
    expect([...(error.request.body as Label).name]).toHaveLength(40);
  });

  it('sends numbers at their bounds: a handler that breaks only at the documented maximum is caught', async () => {
    class Rating {
      @IsInt() @Min(0) @Max(1_000_000) stars: number;
    }
    const app = new TernApp({ logger: false });
    app.post('/ratings', { requestModel: Rating, responses: { 200: { ok: Boolean } } }, async (req) => {
      if ((req.body as Rating).stars === 1_000_000) throw new Error("a million is one past the table's end");
      return { ok: true };
    });
    const error = await violation(checkContract(app));
    expect(error.request.body).toEqual({ stars: 1_000_000 });
  });

  it('sends path integers at 2^31-1 and 2^31, where a PostgreSQL integer ends; {id:int32} keeps them apart', async () => {
    const column = (converter: string) => {
      const app = new TernApp({ logger: false });
      app.get(`/comments/{id:${converter}}`, { responses: { 200: { id: Number } }, problems: { 404: 'No such comment' } }, async (_req, _res, { id }) => {
        // What pg says of a value past the column: a database error, a 500.
        if ((id as number) > 2 ** 31 - 1) throw new Error('value "2147483648" is out of range for type integer');
        throw new HTTPException(404, 'No such comment');
      });
      return app;
    };
    const error = await violation(checkContract(column('int')));
    expect(error.message).toContain('GET /comments/{id} answered 500');
    expect(Number(error.request.url.split('/').pop())).toBeGreaterThanOrEqual(2 ** 31);
    await expect(checkContract(column('int32'))).resolves.toEqual([{ operation: 'GET /comments/{id}', runs: 40 }]);
  });
});

describe('int32 converter', () => {
  it('takes 0 to 2^31-1, answers 422 beyond, and documents its range', async () => {
    const app = new TernApp();
    app.get('/comments/{id:int32}', { name: 'comment', responses: { 200: { id: Number } } }, async (_req, _res, { id }) => ({ id }));
    expect((await app.inject('/comments/2147483647')).json()).toEqual({ id: 2147483647 });
    const past = await app.inject('/comments/2147483648');
    expect(past.statusCode).toBe(422);
    expect(past.json().detail).toContain("'2147483648' is larger than 2147483647");
    expect((await app.inject('/comments/99999999999999999999999')).statusCode).toBe(422);
    expect((await app.inject('/comments/-1')).statusCode).toBe(422);
    const parameter = (await app.inject('/openapi.json')).json().paths['/comments/{id}'].get.parameters[0];
    expect(parameter.schema).toEqual({ type: 'integer', format: 'int32', minimum: 0, maximum: 2147483647 });
    expect(app.urlFor('comment', { id: 7 })).toBe('/comments/7');
    expect(() => app.urlFor('comment', { id: 2 ** 31 })).toThrow('not an integer from 0 to 2147483647');
  });
});

describe('JSON no schema describes', () => {
  function untyped(): TernApp {
    const app = new TernApp({ logger: false });
    app.get('/stats', async () => ({ users: 3 }));
    app.get('/typed', { responses: { 200: { users: Number } } }, async () => ({ users: 3 }));
    return app;
  }

  it('warns once per operation by default, fails with untypedJson: fail, and says nothing with ignore', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const reports = await checkContract(untyped());
      expect(reports[0]).toEqual({ operation: 'GET /stats', runs: 40, warnings: [expect.stringContaining('answered 200 with JSON its document gives no schema for')] });
      expect(reports[1]).toEqual({ operation: 'GET /typed', runs: 40 });
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn.mock.calls[0][0]).toContain('[tern] checkContract: GET /stats answered 200 with JSON');
      const error = await violation(checkContract(untyped(), { untypedJson: 'fail' }));
      expect(error.message).toContain('GET /stats answered 200 with JSON its document gives no schema for');
      warn.mockClear();
      expect((await checkContract(untyped(), { untypedJson: 'ignore' }))[0]).toEqual({ operation: 'GET /stats', runs: 40 });
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });
});
