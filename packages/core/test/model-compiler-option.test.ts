import { IsInt, IsString, Min, Validate, ValidatorConstraint, type ValidatorConstraintInterface } from 'class-validator';
import { defaultModelCompiler, MakeConfig, TernApp, type ModelClass, type ModelCompiler, type ModelValidator } from '@tern/core';

class CreateItem {
  @IsString() name!: string;
  @IsInt() @Min(1) qty!: number;
}

@ValidatorConstraint({ name: 'evenNumber' })
class EvenNumber implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'number' && value % 2 === 0;
  }
}

class PairOfSocks {
  @Validate(EvenNumber) socks!: number;
}

/** The seam: the app asks its ModelCompiler, never class-validator directly. */
describe('new TernApp({ modelCompiler })', () => {
  it('compiles request models with the app’s compiler, once per route at ready()', async () => {
    const compiled: string[] = [];
    const counting: ModelCompiler = {
      compile<T extends object>(model: ModelClass<T>, options?: Parameters<ModelCompiler['compile']>[1]): ModelValidator<T> {
        compiled.push(model.name);
        return defaultModelCompiler.compile(model, options);
      },
      describe: (model) => defaultModelCompiler.describe(model),
    };
    const app = new TernApp({ modelCompiler: counting });
    app.post('/items', { requestModel: CreateItem }, async (req) => req.body as object);
    await app.ready();
    expect(compiled).toEqual(['CreateItem']);
    const bad = await app.inject({ method: 'POST', url: '/items', payload: { name: 'x', qty: 0 } });
    expect(bad.statusCode).toBe(422);
    expect((await app.inject({ method: 'POST', url: '/items', payload: { name: 'x', qty: 2 } })).json()).toEqual({ name: 'x', qty: 2 });
    expect(compiled).toEqual(['CreateItem']);
  });

  it('checks declared responses (validateResponses) with the same compiler, one validator per model for the app', async () => {
    const compiled: string[] = [];
    const counting: ModelCompiler = {
      compile: (model, options) => {
        compiled.push(model.name);
        return defaultModelCompiler.compile(model, options);
      },
      describe: (model) => defaultModelCompiler.describe(model),
    };
    const logger = { error: jest.fn(), warn: jest.fn() };
    const app = new TernApp({ modelCompiler: counting, config: new MakeConfig({ validateResponses: true }), logger });
    app.get('/a', { responses: { 200: CreateItem } }, async () => ({ name: 'a', qty: 1 }));
    app.get('/b', { responses: { 200: CreateItem } }, async () => ({ name: 'b', qty: 0 }));
    await app.ready();
    expect(compiled).toEqual(['CreateItem']);
    expect((await app.inject({ method: 'GET', url: '/a' })).statusCode).toBe(200);
    const broken = await app.inject({ method: 'GET', url: '/b' });
    expect(broken.statusCode).toBe(500);
    expect(logger.error.mock.calls[0][1]).toMatchObject({ code: 'TERN_RESPONSE_CONTRACT_VIOLATED' });
  });

  it('can replace validation entirely (the compiler decides what is valid)', async () => {
    const refuseAll: ModelCompiler = {
      compile: <T extends object>() =>
        Object.assign(() => ({ ok: false as const, errors: [{ path: 'x', message: 'refused by policy' }] }), { native: true, fallbackReasons: [] }) as unknown as ModelValidator<T>,
      describe: (model) => defaultModelCompiler.describe(model),
    };
    const app = new TernApp({ modelCompiler: refuseAll });
    app.post('/items', { requestModel: CreateItem }, async () => ({ ok: true }));
    const response = await app.inject({ method: 'POST', url: '/items', payload: { name: 'x', qty: 2 } });
    expect(response.json().errors).toEqual([{ path: 'x', message: 'refused by policy' }]);
  });
});

describe('which models fall back to class-validator, and why', () => {
  it('is readable from the route and listed at ready() in debug mode', async () => {
    const warnings: string[] = [];
    const app = new TernApp({ config: new MakeConfig({ debug: true }), logger: { error: () => undefined, warn: (m: string) => warnings.push(m) } });
    app.post('/items', { requestModel: CreateItem }, async () => ({ ok: true }));
    app.post('/socks', { requestModel: PairOfSocks }, async () => ({ ok: true }));
    await app.ready();
    const [items, socks] = app.getAllRoutes();
    expect(items.requestModel).toEqual({ name: 'CreateItem', native: true, fallbackReasons: [], forbidsUnknownProperties: false });
    expect(socks.requestModel).toMatchObject({ name: 'PairOfSocks', native: false });
    expect(socks.requestModel?.fallbackReasons.join()).toMatch(/evenNumber/);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/1 request model\(s\) are validated by class-validator per request/);
    expect(warnings[0]).toMatch(/POST \/socks: PairOfSocks \(.*evenNumber/);
  });

  it('says nothing outside debug mode', async () => {
    const warnings: string[] = [];
    const app = new TernApp({ logger: { error: () => undefined, warn: (m: string) => warnings.push(m) } });
    app.post('/socks', { requestModel: PairOfSocks }, async () => ({ ok: true }));
    await app.ready();
    expect(warnings).toEqual([]);
  });
});

/**
 * Models of another validation library: no class-validator or class-transformer decorator, only
 * what the app's compiler says of them. Here a static `fields` list stands for such a library.
 */
class Owner {
  static fields = { name: String };
}

class Account {
  static fields = { id: Number, email: String, owner: Owner, since: Date };
}

type Described = { fields: Record<string, Function> };

const fieldListCompiler: ModelCompiler = {
  compile: <T extends object>() =>
    Object.assign((value: unknown) => ({ ok: true as const, value: value as T }), { native: true, fallbackReasons: [] }) as unknown as ModelValidator<T>,
  describe: (model) => ({
    model,
    properties: Object.entries((model as unknown as Described).fields ?? {}).map(([name, type]) => ({
      name,
      rules: [],
      optional: false,
      nullable: false,
      designType: type,
      declaredType: type === Owner ? Owner : undefined,
    })),
  }),
};

describe('response models the app’s compiler describes', () => {
  const stored = {
    id: 7,
    email: 'ada@example.com',
    passwordHash: '$2b$10$secret',
    owner: { name: 'Ada', apiKey: 'sk-live-123' },
    since: new Date(Date.UTC(2026, 0, 2)),
  };

  it('filters by what describe() lists: undeclared fields stay on the server, nested ones too', async () => {
    const app = new TernApp({ modelCompiler: fieldListCompiler });
    app.get('/account', { responses: { 200: Account } }, async () => stored);
    app.get('/accounts', { responses: { 200: [Account] } }, async () => [stored, stored]);
    const one = await app.inject({ method: 'GET', url: '/account' });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual({ id: 7, email: 'ada@example.com', owner: { name: 'Ada' }, since: '2026-01-02T00:00:00.000Z' });
    expect(one.body).not.toMatch(/secret|sk-live/);
    const list = await app.inject({ method: 'GET', url: '/accounts' });
    expect(list.json()).toEqual([one.json(), one.json()]);
  });

  it('documents the same properties it sends', async () => {
    const app = new TernApp({ modelCompiler: fieldListCompiler });
    app.get('/account', { responses: { 200: Account } }, async () => stored);
    const sent = (await app.inject({ method: 'GET', url: '/account' })).json();
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(doc.components.schemas.Account.properties)).toEqual(Object.keys(sent));
  });

  it('keeps the default filtering for class-validator models under a wrapping compiler', async () => {
    class Me {
      @IsString() name!: string;
    }
    const wrapping: ModelCompiler = { compile: (model, options) => defaultModelCompiler.compile(model, options), describe: (model) => defaultModelCompiler.describe(model) };
    const app = new TernApp({ modelCompiler: wrapping });
    app.get('/me', { responses: { 200: Me } }, async () => ({ name: 'Ada', passwordHash: 'x' }));
    expect((await app.inject({ method: 'GET', url: '/me' })).json()).toEqual({ name: 'Ada' });
  });
});
