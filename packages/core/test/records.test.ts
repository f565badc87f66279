/**
 * `@IsRecord(() => X)`: maps (`Record<string, string[]>`, `Record<string, Stock>`) read the same
 * way by the validator, the request transformation, the response filter and the document
 * (issue 24 item 5). Checked through `app.inject()` and the served document, and on both
 * validation paths (native, and class-transformer + class-validator for models that fall back).
 */
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Min } from 'class-validator';
import { createClassValidatorCompiler, defaultModelCompiler, IsRecord, TernApp, type ModelValidator, type ValidationIssue } from '@tern/core';
import { compileResponseSerializer } from '../src/serialization/compile';

async function documentOf(app: TernApp) {
  return (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
}

class ErrorModel {
  @IsRecord(() => [String]) errors: Record<string, string[]>;
}

class Stock {
  @IsInt() @Min(0) count: number;
  @IsOptional() @IsString() note?: string;
}

class Inventory {
  @IsString() name: string;
  @IsRecord(() => Stock) stock: Record<string, Stock>;
  @IsOptional() @IsRecord(() => [Stock]) batches?: Record<string, Stock[]>;
  @IsOptional() @IsRecord(() => Number) prices?: Record<string, number>;
  @IsOptional() @IsRecord(() => Boolean, { message: '$property must map names to true or false' }) flags?: Record<string, boolean>;
}

/** The same model, made to take the class-transformer + class-validator path by a `@Transform` of another field. */
class FallbackInventory {
  @Transform(({ value }) => value) @IsString() name: string;
  @IsRecord(() => Stock) stock: Record<string, Stock>;
  @IsOptional() @IsRecord(() => [Stock]) batches?: Record<string, Stock[]>;
  @IsOptional() @IsRecord(() => Number) prices?: Record<string, number>;
  @IsOptional() @IsRecord(() => Boolean, { message: '$property must map names to true or false' }) flags?: Record<string, boolean>;
}

const compilers = [
  ['generated', createClassValidatorCompiler({ codegen: true })],
  ['interpreted', createClassValidatorCompiler({ codegen: false })],
] as const;

async function issues(validate: ModelValidator<object>, body: unknown): Promise<ValidationIssue[]> {
  const result = await validate(body);
  return result.ok ? [] : result.errors;
}

describe('@IsRecord: validation', () => {
  it('runs natively, and falls back with the model that needs it', () => {
    const compiler = compilers[0][1];
    expect(compiler.compile(Inventory).native).toBe(true);
    expect(compiler.compile(ErrorModel).native).toBe(true);
    expect(compiler.compile(FallbackInventory).native).toBe(false);
  });

  const cases: Array<[string, unknown, ValidationIssue[]]> = [
    ['a valid inventory', { name: 'shop', stock: { apples: { count: 3 } }, batches: { pears: [{ count: 1 }] }, prices: { apples: 2.5 }, flags: { open: true } }, []],
    ['an empty map', { name: 'shop', stock: {} }, []],
    ['a missing map', { name: 'shop' }, [{ path: 'stock', message: 'stock must be an object whose values are Stock objects' }]],
    ['a list where a map is declared', { name: 'shop', stock: [{ count: 1 }] }, [{ path: 'stock', message: 'stock must be an object whose values are Stock objects' }]],
    [
      'a model value failing its own rules',
      { name: 'shop', stock: { apples: { count: -1 }, pears: { count: 'many' } } },
      [
        { path: 'stock.apples.count', message: 'count must not be less than 0' },
        { path: 'stock.pears.count', message: 'count must not be less than 0' },
        { path: 'stock.pears.count', message: 'count must be an integer number' },
      ],
    ],
    ['a scalar where a model value is declared', { name: 'shop', stock: { apples: 3 } }, [{ path: 'stock.apples', message: 'apples must be an object' }]],
    [
      'lists of models',
      { name: 'shop', stock: {}, batches: { pears: [{ count: 1 }, { count: -2 }], plums: { count: 1 }, figs: [7] } },
      [
        { path: 'batches.pears.1.count', message: 'count must not be less than 0' },
        { path: 'batches.plums', message: 'plums must be an array' },
        { path: 'batches.figs', message: 'each value in figs must be an object' },
      ],
    ],
    ['scalar values', { name: 'shop', stock: {}, prices: { apples: '2', pears: 1 } }, [{ path: 'prices.apples', message: 'apples must be a number' }]],
    ['the decorator\'s own message', { name: 'shop', stock: {}, flags: { open: 'yes' } }, [{ path: 'flags.open', message: 'flags must map names to true or false' }]],
  ];

  for (const [name, compiler] of compilers) {
    for (const model of [Inventory, FallbackInventory]) {
      it.each(cases)(`${name}, ${model.name}: %s`, async (_label, body, expected) => {
        expect(await issues(compiler.compile(model) as ModelValidator<object>, body)).toEqual(expected);
      });
    }
  }

  it('checks each value of Record<string, string[]>', async () => {
    for (const [, compiler] of compilers) {
      const validate = compiler.compile(ErrorModel) as ModelValidator<object>;
      expect(await issues(validate, { errors: { email: ['is taken'], password: [] } })).toEqual([]);
      expect(await issues(validate, { errors: { email: 'is taken', name: ['ok', 3] } })).toEqual([
        { path: 'errors.email', message: 'email must be an array' },
        { path: 'errors.name', message: 'each value in name must be a string' },
      ]);
    }
  });

  it('builds each model value as an instance of its class, and strips or refuses its unknown fields', async () => {
    for (const [, compiler] of compilers) {
      for (const model of [Inventory, FallbackInventory]) {
        const result = await compiler.compile(model)({ name: 'shop', stock: { apples: { count: 3, secret: 'x' } }, batches: { pears: [{ count: 1 }] } });
        expect(result.ok).toBe(true);
        const value = (result as { value: Inventory }).value;
        expect(value.stock.apples).toBeInstanceOf(Stock);
        expect(value.stock.apples).toEqual({ count: 3 });
        expect(value.batches!.pears[0]).toBeInstanceOf(Stock);
        const strict = compiler.compile(model, { forbidNonWhitelisted: true });
        expect(await issues(strict as ModelValidator<object>, { name: 'shop', stock: { apples: { count: 3, secret: 'x' } } })).toEqual([
          { path: 'stock.apples.secret', message: 'property secret should not exist' },
        ]);
      }
    }
  });

  it('drops __proto__ and refuses a truthy constructor key, on both paths, polluting nothing', async () => {
    for (const [, compiler] of compilers) {
      for (const model of [Inventory, FallbackInventory]) {
        const body = JSON.parse('{"name":"shop","stock":{"__proto__":{"count":1,"polluted":true},"apples":{"count":2}}}');
        const result = await compiler.compile(model)(body);
        expect(result.ok).toBe(true);
        const stock = (result as { value: Inventory }).value.stock;
        expect(Object.keys(stock)).toEqual(['apples']);
        expect(Object.getPrototypeOf(stock)).toBe(Object.prototype);
        expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
        const withConstructor = await compiler.compile(model)({ name: 'shop', stock: { constructor: { count: 1 } } });
        expect(withConstructor.ok).toBe(false);
      }
    }
  });
});

describe('@IsRecord: keys named like Object.prototype methods (issue 42 item 7)', () => {
  const NAMES = ['toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', 'toLocaleString', '__defineGetter__'];

  it('keeps them as own keys, validated, built and in order, on both paths', async () => {
    for (const [, compiler] of compilers) {
      for (const model of [Inventory, FallbackInventory]) {
        const stock = Object.fromEntries([...NAMES.map((name, i) => [name, { count: i }]), ['apples', { count: 9 }]]);
        const prices = Object.fromEntries(NAMES.map((name, i) => [name, i]));
        const result = await compiler.compile(model)({ name: 'shop', stock, prices, batches: { valueOf: [{ count: 1 }] } });
        expect(result.ok).toBe(true);
        const value = (result as { value: Inventory }).value;
        expect(Object.keys(value.stock)).toEqual([...NAMES, 'apples']);
        expect(value.stock['toString']).toBeInstanceOf(Stock);
        expect(value.stock['hasOwnProperty']).toEqual({ count: 1 });
        expect(value.prices).toEqual(prices);
        const batches = value.batches as Record<string, Stock[]>;
        expect(batches['valueOf'][0]).toBeInstanceOf(Stock);
        expect(await issues(compiler.compile(model) as ModelValidator<object>, { name: 'shop', stock: { toString: { count: -1 } }, prices: { valueOf: 'x' } })).toEqual([
          { path: 'stock.toString.count', message: 'count must not be less than 0' },
          { path: 'prices.valueOf', message: 'valueOf must be a number' },
        ]);
      }
    }
  });

  it('reach the handler and the answer through an app', async () => {
    const app = new TernApp();
    app.post('/words', { requestModel: Inventory, responses: { 200: Inventory } }, async (req) => req.body as Inventory);
    const payload = { name: 'words', stock: { toString: { count: 2, secret: 'x' }, valueOf: { count: 1 } }, prices: { hasOwnProperty: 3 } };
    const res = await app.inject({ method: 'POST', url: '/words', payload });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ name: 'words', stock: { toString: { count: 2 }, valueOf: { count: 1 } }, prices: { hasOwnProperty: 3 } });
  });
});

describe('@IsRecord: through an app', () => {
  function inventoryApp() {
    const app = new TernApp();
    app.post('/inventories', { requestModel: Inventory, statusCode: 201, responses: { 201: Inventory } }, async (req) => {
      const input = req.body as Inventory;
      const classes = Object.values(input.stock).map((value) => value.constructor.name);
      // An entity's values carry more than Stock declares; the filter must keep only Stock's fields.
      const stock = Object.fromEntries(Object.entries(input.stock).map(([key, value]) => [key, { ...value, costPrice: 1.25, supplier: { id: 7 } }]));
      return { name: `${input.name} (${classes.join(',')})`, stock, prices: { apples: { cents: 250 }, pears: 3 }, internal: 'x' };
    });
    return app;
  }

  it('hands the handler instances and filters each value of the answer by its declared type', async () => {
    const res = await inventoryApp().inject({ method: 'POST', url: '/inventories', payload: { name: 'shop', stock: { apples: { count: 3 } } } });
    expect(res.statusCode).toBe(201);
    // Number values never carry an object: the price object is left out, the number kept.
    expect(res.json()).toEqual({ name: 'shop (Stock)', stock: { apples: { count: 3 } }, prices: { pears: 3 } });
  });

  it('answers 422 naming field.key.… and 400 for a __proto__ key', async () => {
    const app = inventoryApp();
    const bad = await app.inject({ method: 'POST', url: '/inventories', payload: { name: 'shop', stock: { apples: { count: -1 } } } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual([{ path: 'stock.apples.count', message: 'count must not be less than 0' }]);
    const proto = await app.inject({ method: 'POST', url: '/inventories', headers: { 'content-type': 'application/json' }, payload: '{"name":"shop","stock":{"__proto__":{"count":1}}}' });
    expect(proto.statusCode).toBe(400);
  });

  it('keeps every key of a declared Record<string, string[]> error body (it used to send {"errors":{}})', async () => {
    const app = new TernApp();
    app.post('/signup', { responses: { 422: ErrorModel } }, async (_req, res) =>
      res.json({ errors: { email: ['has already been taken'], username: ['is too short', { secret: 1 }], extra: { secret: 2 } }, stack: 'at …' }, 422),
    );
    const res = await app.inject({ method: 'POST', url: '/signup', payload: {} });
    expect(res.statusCode).toBe(422);
    // A String item never carries an object: written as null in its list, left out as a value.
    expect(res.body).toBe('{"errors":{"email":["has already been taken"],"username":["is too short",null]}}');
  });

  it('fails closed on a map of models that holds a list, or a string where a model is declared (issue 42 item 6)', async () => {
    const app = new TernApp();
    app.get('/as-list', { responses: { 200: Inventory } }, async () => ({ name: 'shop', stock: [{ count: 7, secret: 's1' }] }));
    app.get('/as-strings', { responses: { 200: Inventory } }, async () => ({ name: 'shop', stock: { apples: 'token=s2', pears: { count: 2, secret: 's3' } }, batches: { figs: ['s4', { count: 1, secret: 's5' }] } }));
    const asList = await app.inject('/as-list');
    expect(asList.body).not.toContain('secret');
    // The list is a map of its indexes, each value filtered as a Stock.
    expect(asList.json()).toEqual({ name: 'shop', stock: { 0: { count: 7 } } });
    const asStrings = await app.inject('/as-strings');
    expect(asStrings.body).not.toMatch(/s[1-5]/);
    expect(asStrings.json()).toEqual({ name: 'shop', stock: { pears: { count: 2 } }, batches: { figs: [null, { count: 1 }] } });
  });

  it('writes the same text with generated code and with closures, and filters() the same data', () => {
    const entity = {
      name: 'shop',
      stock: { apples: { count: 3, costPrice: 1 }, pears: [{ count: 1, secret: 2 }], plums: 'x', nothing: undefined },
      batches: { figs: [{ count: 1, secret: 2 }, 'odd'], kiwis: { count: 4, secret: 5 } },
      prices: { apples: new Number(2), pears: { cents: 3 }, dates: new Date(0) },
      flags: { open: true, shut: [false] },
    };
    const generated = compileResponseSerializer(Inventory, { modelCompiler: defaultModelCompiler })!;
    const closures = compileResponseSerializer(Inventory, { modelCompiler: defaultModelCompiler, codegen: false })!;
    expect(generated.generated).toBe(true);
    const expected = {
      name: 'shop',
      // A string where a Stock is declared is no Stock: left out as a value, null as a list item.
      stock: { apples: { count: 3 }, pears: [{ count: 1 }] },
      batches: { figs: [{ count: 1 }, null], kiwis: { count: 4 } },
      prices: { apples: 2, dates: '1970-01-01T00:00:00.000Z' },
      flags: { open: true },
    };
    expect(JSON.parse(generated.serialize(entity)!)).toEqual(expected);
    expect(closures.serialize(entity)).toBe(generated.serialize(entity));
    expect(JSON.stringify(generated.filter(entity))).toBe(generated.serialize(entity));
  });

  it('documents maps with additionalProperties, in request and response schemas', async () => {
    const app = inventoryApp();
    app.get('/errors', { responses: { 200: ErrorModel } }, async () => ({ errors: {} }));
    const doc = await documentOf(app);
    expect(doc.components.schemas.ErrorModel).toEqual({
      type: 'object',
      properties: { errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } } },
      required: ['errors'],
    });
    expect(doc.components.schemas.Inventory.properties).toEqual({
      name: { type: 'string' },
      stock: { type: 'object', additionalProperties: { $ref: '#/components/schemas/Stock' } },
      batches: { type: ['object', 'null'], additionalProperties: { type: 'array', items: { $ref: '#/components/schemas/Stock' } } },
      prices: { type: ['object', 'null'], additionalProperties: { type: 'number' } },
      flags: { type: ['object', 'null'], additionalProperties: { type: 'boolean' } },
    });
    expect(doc.components.schemas.Inventory.required).toEqual(['name', 'stock']);
  });

  it('refuses a values function that names no type', async () => {
    class Broken {
      @IsRecord(() => [String, Number] as never) bad: Record<string, unknown>;
    }
    const app = new TernApp();
    app.post('/broken', { requestModel: Broken }, async () => ({}));
    await expect(app.ready()).rejects.toMatchObject({ code: 'TERN_INVALID_ARGUMENT' });
  });
});
