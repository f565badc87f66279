/**
 * Habits a NestJS user brings: unknown fields refused on request (forbidUnknownProperties), a
 * container building controllers (resolve), and startup errors that teach Tern's way when the
 * NestJS way is written (`:id` paths, `import type` DTOs, models without rules).
 */
import { Allow, IsInt, IsOptional, IsString, Min, ValidateNested, IsObject } from 'class-validator';
import { Type } from 'class-transformer';
import { Body, Controller, Get, MakeConfig, Param, Patch, Post, Query, TernApp, TernError, type TernAppOptions } from '@tern/core';

class Address {
  @IsString() city!: string;
}

class CreateUser {
  @IsString() name!: string;
  @IsInt() @Min(0) age!: number;
  @IsOptional() @IsObject() @ValidateNested() @Type(() => Address) address?: Address;
}

class ListQuery {
  @IsOptional() @IsInt() page?: number;
}

/** No class-validator rule at all: whitelist would strip everything. */
class Bare {
  name!: string;
}

async function startupError(app: TernApp): Promise<TernError> {
  const error = await app.ready().then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(TernError);
  return error as TernError;
}

describe('forbidUnknownProperties', () => {
  const body = { name: 'Ada', age: 36, admin: true, address: { city: 'London', zip: 'NW1' } };

  function app(options: TernAppOptions = {}) {
    const created = new TernApp({ logger: false, ...options });
    created.post('/plain', { requestModel: CreateUser }, async (req) => req.body as object);
    created.post('/forbid', { requestModel: CreateUser, forbidUnknownProperties: true }, async (req) => req.body as object);
    created.post('/allow', { requestModel: CreateUser, forbidUnknownProperties: false }, async (req) => req.body as object);
    return created;
  }

  test('unknown fields are stripped by default', async () => {
    const res = await app().inject({ method: 'POST', url: '/plain', payload: body });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ name: 'Ada', age: 36, address: { city: 'London' } });
  });

  test('a route option answers 422 naming every unknown field, nested ones by their path', async () => {
    const res = await app().inject({ method: 'POST', url: '/forbid', payload: body });
    expect(res.statusCode).toBe(422);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.json().errors).toEqual(
      expect.arrayContaining([
        { path: 'admin', message: 'property admin should not exist' },
        { path: 'address.zip', message: 'property zip should not exist' },
      ]),
    );
    const clean = await app().inject({ method: 'POST', url: '/forbid', payload: { name: 'Ada', age: 36 } });
    expect(clean.statusCode).toBe(200);
  });

  test('the app setting applies to every route; a route can opt out', async () => {
    const strict = app({ config: new MakeConfig({ forbidUnknownProperties: true }) });
    expect((await strict.inject({ method: 'POST', url: '/plain', payload: body })).statusCode).toBe(422);
    const optedOut = await strict.inject({ method: 'POST', url: '/allow', payload: body });
    expect(optedOut.statusCode).toBe(200);
    expect(optedOut.json()).toEqual({ name: 'Ada', age: 36, address: { city: 'London' } });
  });

  test('a controller option applies to its @Body() and @Query() models; a route option overrides it', async () => {
    @Controller('/users', { forbidUnknownProperties: true })
    class Users {
      @Post('/')
      async create(@Body() dto: CreateUser) {
        return dto;
      }
      @Get('/')
      async list(@Query() query: ListQuery) {
        return query;
      }
      @Post('/lenient', { forbidUnknownProperties: false })
      async lenient(@Body() dto: CreateUser) {
        return dto;
      }
    }
    const created = new TernApp({ logger: false });
    created.registerControllers([Users]);
    const res = await created.inject({ method: 'POST', url: '/users', payload: { name: 'Ada', age: 36, admin: true } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual([{ path: 'admin', message: 'property admin should not exist' }]);
    const query = await created.inject({ method: 'GET', url: '/users?page=2&sort=name' });
    expect(query.statusCode).toBe(422);
    expect(query.json().errors).toEqual([{ path: 'sort', message: 'property sort should not exist' }]);
    expect((await created.inject({ method: 'GET', url: '/users?page=2' })).json()).toEqual({ page: 2 });
    const lenient = await created.inject({ method: 'POST', url: '/users/lenient', payload: { name: 'Ada', age: 36, admin: true } });
    expect(lenient.statusCode).toBe(200);
    expect(lenient.json()).toEqual({ name: 'Ada', age: 36 });
  });
});

describe('resolve: a dependency container builds controllers', () => {
  class Db {
    users = new Map([[1, 'Ada']]);
  }

  @Controller('/users')
  class Users {
    constructor(private readonly db: Db) {}
    @Get('/{id:int}')
    async get(@Param('id') id: number) {
      return { name: this.db.users.get(id) };
    }
  }

  test('registerControllers(list, { resolve }) builds each class once, at startup', async () => {
    const resolve = jest.fn((Class: Function) => (Class === Users ? new Users(new Db()) : undefined) as object);
    const app = new TernApp();
    app.registerControllers([Users], { resolve });
    await app.ready();
    expect(resolve).toHaveBeenCalledTimes(1);
    expect((await app.inject('/users/1')).json()).toEqual({ name: 'Ada' });
    await app.inject('/users/1');
    expect(resolve).toHaveBeenCalledTimes(1);
  });

  test('new TernApp({ resolve }) is the default for every registerControllers call', async () => {
    const app = new TernApp({ resolve: () => new Users(new Db()) });
    app.registerControllers([Users]);
    expect((await app.inject('/users/1')).json()).toEqual({ name: 'Ada' });
  });

  test('without resolve, a constructor with parameters says how to plug a container in', async () => {
    const app = new TernApp({ logger: false });
    app.registerControllers([Users]);
    const error = await startupError(app);
    expect(error.code).toBe('TERN_CONTROLLER_INSTANTIATION');
    expect(error.message).toMatch(/resolve: \(C\) => container\.resolve\(C\)/);
  });

  test('a resolve that throws or returns no object fails ready() naming the class', async () => {
    const throwing = new TernApp({ resolve: () => { throw new Error('no provider for Db'); } });
    throwing.registerControllers([Users]);
    const error = await startupError(throwing);
    expect(error.code).toBe('TERN_CONTROLLER_INSTANTIATION');
    expect(error.message).toMatch(/resolve\(Users\) failed: no provider for Db/);

    const empty = new TernApp({ resolve: () => Promise.resolve(new Users(new Db())) });
    empty.registerControllers([Users]);
    expect((await startupError(empty)).message).toMatch(/resolve\(Users\) returned a Promise/);
  });
});

describe('startup errors that teach', () => {
  test("a NestJS-style ':id' segment fails ready() with the brace form to write", async () => {
    @Controller('/users')
    class Users {
      @Get('/:id')
      async get(@Param('id') id: string) {
        return { id };
      }
    }
    const controllers = new TernApp({ logger: false });
    controllers.registerControllers([Users]);
    const error = await startupError(controllers);
    expect(error.code).toBe('TERN_INVALID_ROUTE');
    expect(error.message).toMatch(/'\/users\/:id' uses Express\/NestJS parameter syntax/);
    expect(error.message).toMatch(/'\/users\/\{id\}'/);
    expect(error.message).toMatch(/\{id:int\}/);

    const plain = new TernApp({ logger: false });
    let declared: unknown;
    try {
      plain.get('/orgs/:org/repos/:repo?', async () => ({}));
      await plain.ready();
    } catch (err) {
      declared = err;
    }
    expect(declared).toBeInstanceOf(TernError);
    expect((declared as TernError).message).toMatch(/'\/orgs\/\{org\}\/repos\/\{repo\}'/);
  });

  test('a body that reflects as Function (import type) gets the same explanation as Object', async () => {
    @Controller('/users')
    class Users {
      @Post('/')
      // What `import type { CreateUser }` can reflect as.
      async create(@Body() dto: Function) {
        return dto;
      }
    }
    const app = new TernApp({ logger: false });
    app.registerControllers([Users]);
    const error = await startupError(app);
    expect(error.code).toBe('TERN_CONTROLLER_UNRESOLVED_TYPE');
    expect(error.message).toMatch(/reflects as Function/);
    expect(error.message).toMatch(/import type/);
    expect(error.message).toMatch(/@Body\(CreateUserDto\)/);
  });

  test('a request model without rules warns through the app logger instead of handing the handler {} silently', async () => {
    const warn = jest.fn();
    const app = new TernApp({ logger: { error: jest.fn(), warn } as unknown as Console });
    app.post('/bare', { requestModel: Bare }, async (req) => req.body as object);
    @Controller('/c')
    class WithBare {
      @Patch('/')
      async patch(@Body() dto: Bare) {
        return dto;
      }
    }
    app.registerControllers([WithBare]);
    await app.ready();
    expect(warn).toHaveBeenCalledTimes(1); // once per model
    expect(warn.mock.calls[0][0]).toMatch(/request model Bare has no property its model compiler accepts \(for class-validator: no rule\)/);
    expect(warn.mock.calls[0][0]).toMatch(/strictModels/);
  });

  test('with strictModels, a model without rules fails ready(); @Allow() counts as a rule', async () => {
    const app = new TernApp({ logger: false, config: new MakeConfig({ strictModels: true }) });
    app.post('/bare', { requestModel: Bare }, async (req) => req.body as object);
    const error = await startupError(app);
    expect(error.code).toBe('TERN_EMPTY_MODEL');
    expect(error.message).toMatch(/POST \/bare|\/bare/);

    class Loose {
      @Allow() anything!: unknown;
    }
    const fine = new TernApp({ config: new MakeConfig({ strictModels: true }) });
    fine.post('/loose', { requestModel: Loose }, async (req) => req.body as object);
    expect((await fine.inject({ method: 'POST', url: '/loose', payload: { anything: [1] } })).json()).toEqual({ anything: [1] });
  });
});
