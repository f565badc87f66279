/**
 * Responses by contract: a route that declares a model for the status it answers with sends only
 * what the model declares, whatever the handler returned; opt-outs at route, controller and app
 * level; `validateResponses` turns a body that breaks its model into a 500.
 */
import { Exclude, Expose, Type } from 'class-transformer';
import {
  IsArray,
  IsDate,
  IsEmail,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Min,
  Validate,
  ValidateNested,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import {
  ApiResponse,
  Controller,
  Get,
  HTTPException,
  MakeConfig,
  Req,
  Routes,
  TernApp,
  type Middleware,
  type TernRequest,
} from '@tern/core';

class AddressDto {
  @IsString() city: string;
  @IsString() country: string;
}

class UserDto {
  @IsInt() @Min(1) id: number;
  @IsEmail() email: string;
  @IsDate() createdAt: Date;
  @IsObject() @ValidateNested() @Type(() => AddressDto) address: AddressDto;
  @IsArray() @IsString({ each: true }) tags: string[];
  @Exclude() @IsString() passwordHash: string;
  @Expose({ name: 'display_name' }) @IsString() displayName: string;
  @IsOptional() @IsString() nickname?: string;
}

/** What an ORM hands back: every column, secrets included, and fields the DTO never heard of. */
class UserEntity {
  id = 7;
  email = 'ada@example.com';
  createdAt = new Date(Date.UTC(2024, 0, 2, 3, 4, 5));
  address = { city: 'London', country: 'UK', geo: { lat: 51.5 } };
  tags = ['admin', 'math'];
  passwordHash = '$2b$10$secret';
  resetToken = 'reset-123';
  displayName = 'Ada';
  nickname: string | undefined = undefined;
}

const EXPECTED = {
  id: 7,
  email: 'ada@example.com',
  createdAt: '2024-01-02T03:04:05.000Z',
  address: { city: 'London', country: 'UK' },
  tags: ['admin', 'math'],
  display_name: 'Ada',
};

const plainUser = () => ({ ...new UserEntity(), address: { ...new UserEntity().address } });

function appWith(config: ConstructorParameters<typeof MakeConfig>[0] = {}, logger: { error: jest.Mock } | false = false): TernApp {
  return new TernApp({ config: new MakeConfig(config), logger });
}

async function get(app: TernApp, url: string, method: 'GET' | 'HEAD' = 'GET') {
  const response = await app.inject({ method, url });
  return { status: response.statusCode, type: response.headers['content-type'], text: response.body, body: /json/.test(String(response.headers['content-type'])) ? JSON.parse(response.body) : undefined };
}

describe('filtering by the declared model', () => {
  it('sends a plain object with only the declared fields: excluded, undeclared and nested extras dropped, Date as ISO, key renamed', async () => {
    const app = appWith();
    app.get('/me', { responses: { 200: UserDto } }, async () => plainUser());
    const res = await get(app, '/me');
    expect(res.status).toBe(200);
    expect(res.type).toBe('application/json; charset=utf-8');
    expect(res.body).toEqual(EXPECTED);
    expect(res.text).not.toMatch(/passwordHash|resetToken|geo|nickname/);
  });

  it('filters class instances (entities) and model instances alike', async () => {
    const app = appWith();
    app.get('/entity', { responses: { 200: UserDto } }, async () => new UserEntity());
    app.get('/dto', { responses: { 200: UserDto } }, async () => Object.assign(new UserDto(), new UserEntity()));
    expect((await get(app, '/entity')).body).toEqual(EXPECTED);
    expect((await get(app, '/dto')).body).toEqual(EXPECTED);
  });

  it('leaves undefined fields out and keeps declared optional ones that are set', async () => {
    const app = appWith();
    app.get('/me', { responses: { 200: UserDto } }, async () => Object.assign(new UserEntity(), { nickname: 'Countess' }));
    expect((await get(app, '/me')).body).toEqual({ ...EXPECTED, nickname: 'Countess' });
  });

  it('filters lists ([UserDto]) item by item, through res.json() as well as returned values', async () => {
    const app = appWith();
    app.get('/users', { responses: { 200: [UserDto] } }, async (_req, res) => res.json([new UserEntity(), plainUser()]));
    expect((await get(app, '/users')).body).toEqual([EXPECTED, EXPECTED]);
  });

  it('filters { field: Type } shapes: only the listed fields, each by its type', async () => {
    const app = appWith();
    app.get('/page', { responses: { 200: { items: [UserDto], total: Number } } }, async () => ({
      items: [new UserEntity()],
      total: 1,
      cursor: 'internal-cursor',
    }));
    expect((await get(app, '/page')).body).toEqual({ items: [EXPECTED], total: 1 });
  });

  it('uses the statusCode of the route, its range (2XX) and default', async () => {
    const app = appWith();
    app.post('/users', { statusCode: 201, responses: { 201: UserDto } }, async () => new UserEntity());
    app.get('/range', { responses: { '2XX': UserDto } as never }, async (_req, res) => res.json(new UserEntity(), 202));
    app.get('/default', { responses: { default: UserDto } as never }, async (_req, res) => res.json(new UserEntity(), 203));
    const created = await app.inject({ method: 'POST', url: '/users' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual(EXPECTED);
    expect((await get(app, '/range')).body).toEqual(EXPECTED);
    expect((await get(app, '/default')).body).toEqual(EXPECTED);
  });

  it('leaves error statuses without a model, { description } responses, text/send/html and strings untouched', async () => {
    const app = appWith();
    const responses = { 200: UserDto, 404: { description: 'No such user' } };
    app.get('/undeclared', { responses }, async (_req, res) => res.json(new UserEntity(), 202));
    app.get('/described', { responses }, async (_req, res) => res.json(new UserEntity(), 404));
    app.get('/send', { responses }, async (_req, res) => res.send(JSON.stringify(new UserEntity()), 'application/json'));
    app.get('/text', { responses }, async () => 'passwordHash stays in text');
    const whole = JSON.parse(JSON.stringify(new UserEntity()));
    // A success status no declaration covers fails closed (issue 24 item 3; response-fail-closed.test.ts).
    const undeclared = await get(app, '/undeclared');
    expect(undeclared.status).toBe(500);
    expect(JSON.stringify(undeclared.body)).not.toContain('secret');
    expect((await get(app, '/described')).body).toEqual(whole);
    expect((await get(app, '/send')).body).toEqual(whole);
    expect((await get(app, '/text')).text).toBe('passwordHash stays in text');
  });

  it('sends values whole where the declared class declares nothing (a plain TypeScript class, no decorators)', async () => {
    class PlainType {
      id: number;
    }
    const app = appWith();
    app.get('/plain', { responses: { 200: PlainType } }, async () => new UserEntity());
    expect((await get(app, '/plain')).body).toEqual(JSON.parse(JSON.stringify(new UserEntity())));
  });

  it('routes without declared models send what JSON.stringify writes', async () => {
    const app = appWith();
    app.get('/raw', async () => new UserEntity());
    expect((await get(app, '/raw')).body).toEqual(JSON.parse(JSON.stringify(new UserEntity())));
  });

  it('serializes again with the final status when the status is set after json()', async () => {
    const app = appWith();
    app.post('/users', { responses: { 201: UserDto } }, async (_req, res) => res.json(new UserEntity()).status(201));
    const created = await app.inject({ method: 'POST', url: '/users' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual(EXPECTED);
  });

  it('settles a status middleware sets after next() (and a direct statusCode assignment) with that status model', async () => {
    const app = appWith();
    const created: Middleware = async (_req, _res, next) => (await next()).status(201);
    app.post('/users', { responses: { 201: UserDto }, middleware: [created] }, async () => new UserEntity());
    app.post('/direct', { responses: { 201: UserDto } }, async (_req, res) => {
      res.json(new UserEntity());
      res.statusCode = 201;
      return res;
    });
    for (const url of ['/users', '/direct']) {
      const res = await app.inject({ method: 'POST', url });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual(EXPECTED);
    }
  });

  it('hands middleware the filtered body after next()', async () => {
    const app = appWith();
    let seen: unknown;
    const peek: Middleware = async (_req, _res, next) => {
      const response = await next();
      seen = JSON.parse(String(response.body));
      return response;
    };
    app.get('/me', { responses: { 200: UserDto }, middleware: [peek] }, async () => new UserEntity());
    await get(app, '/me');
    expect(seen).toEqual(EXPECTED);
  });

  it('never filters error answers (problem+json), even where default declares a model', async () => {
    const app = appWith();
    app.get('/missing', { responses: { 200: UserDto, default: UserDto } as never }, async () => {
      throw new HTTPException(404, 'No user 7');
    });
    const res = await get(app, '/missing');
    expect(res.status).toBe(404);
    expect(res.type).toBe('application/problem+json; charset=utf-8');
    expect(res.body).toMatchObject({ title: 'Not Found', status: 404, detail: 'No user 7' });
  });

  it('answers HEAD with the filtered length', async () => {
    const app = appWith();
    app.get('/me', { responses: { 200: UserDto } }, async () => new UserEntity());
    const head = await app.inject({ method: 'HEAD', url: '/me' });
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(JSON.stringify(EXPECTED))));
  });

  it('sends non-ASCII text and keys as UTF-8 with the byte length as Content-Length', async () => {
    class Greeting {
      @IsString() text: string;
      @Expose({ name: 'größe' }) @IsInt() size: number;
    }
    const app = appWith();
    const greeting = { text: 'Grüße, 世界 \ud83d\ude00 "quoted"', size: 3, secret: 'x' };
    app.get('/greeting', { responses: { 200: Greeting } }, async () => greeting);
    const response = await app.inject({ method: 'GET', url: '/greeting' });
    const expected = JSON.stringify({ text: greeting.text, größe: 3 });
    expect(response.body).toBe(expected);
    expect(response.headers['content-length']).toBe(String(Buffer.byteLength(expected)));
  });

  it('sends a body of several MiB whole, and the next, smaller answer exactly', async () => {
    const app = appWith();
    const many = Array.from({ length: 12_000 }, (_, i) => Object.assign(new UserEntity(), { id: i + 1, displayName: `User ${i} ${'x'.repeat(200)}` }));
    app.get('/many', { responses: { 200: [UserDto] } }, async () => many);
    app.get('/me', { responses: { 200: UserDto } }, async () => new UserEntity());
    const big = await app.inject({ method: 'GET', url: '/many' });
    expect(Number(big.headers['content-length'])).toBeGreaterThan(3 * 1024 * 1024);
    expect(Number(big.headers['content-length'])).toBe(Buffer.byteLength(big.body));
    const list = JSON.parse(big.body) as Array<Record<string, unknown>>;
    expect(list).toHaveLength(12_000);
    expect(list[11_999]).toEqual({ ...EXPECTED, id: 12_000, display_name: `User 11999 ${'x'.repeat(200)}` });
    expect(big.body).not.toMatch(/passwordHash|resetToken/);
    expect(JSON.parse((await app.inject({ method: 'GET', url: '/me' })).body)).toEqual(EXPECTED);
  });

  it('filters Routes objects declared with a route-level responseModel option', async () => {
    const app = appWith();
    app.addRoute(new Routes({ path: '/me', responseModel: UserDto, handler: async () => new UserEntity() }));
    expect((await get(app, '/me')).body).toEqual(EXPECTED);
  });
});

describe('NestJS port: /auth/me declares MeDto', () => {
  class MeDto {
    @IsInt() id: number;
    @IsEmail() email: string;
    @IsString() name: string;
  }

  const users = [{ id: 1, email: 'ada@example.com', name: 'Ada', passwordHash: '$2b$10$abc', roles: ['admin'] }];

  @Controller('/auth')
  class AuthController {
    @Get('/me')
    @ApiResponse(200, MeDto)
    async me(@Req() req: TernRequest) {
      return users.find((u) => u.id === Number(req.headers.get('x-user') ?? 1));
    }

    @Get('/me-option', { responses: { 200: MeDto } })
    async meOption() {
      return users[0];
    }
  }

  it('sends MeDto, not the passwordHash the service returned', async () => {
    const app = appWith();
    app.registerControllers([AuthController]);
    for (const url of ['/auth/me', '/auth/me-option']) {
      const res = await get(app, url);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ id: 1, email: 'ada@example.com', name: 'Ada' });
      expect(res.text).not.toContain('passwordHash');
    }
  });
});

describe('opting out', () => {
  const entity = () => JSON.parse(JSON.stringify(new UserEntity()));

  it('per route: responseFiltering: false', async () => {
    const app = appWith();
    app.get('/raw', { responses: { 200: UserDto }, responseFiltering: false }, async () => new UserEntity());
    app.get('/filtered', { responses: { 200: UserDto } }, async () => new UserEntity());
    expect((await get(app, '/raw')).body).toEqual(entity());
    expect((await get(app, '/filtered')).body).toEqual(EXPECTED);
    expect(app.getAllRoutes().find((r) => r.rawPath === '/raw')?.extra).not.toHaveProperty('responseFiltering');
  });

  it('per controller: @Controller(path, { responseFiltering: false }); a route can turn it back on', async () => {
    @Controller('/legacy', { responseFiltering: false })
    class LegacyController {
      @Get('/me', { responses: { 200: UserDto } })
      async me() {
        return new UserEntity();
      }

      @Get('/strict', { responses: { 200: UserDto }, responseFiltering: true })
      async strict() {
        return new UserEntity();
      }
    }
    @Controller('/modern')
    class ModernController {
      @Get('/me', { responses: { 200: UserDto } })
      async me() {
        return new UserEntity();
      }
    }
    const app = appWith();
    app.registerControllers([LegacyController, ModernController]);
    expect((await get(app, '/legacy/me')).body).toEqual(entity());
    expect((await get(app, '/legacy/strict')).body).toEqual(EXPECTED);
    expect((await get(app, '/modern/me')).body).toEqual(EXPECTED);
  });

  it('for the app: new MakeConfig({ responseFiltering: false }); a route can turn it back on', async () => {
    const app = appWith({ responseFiltering: false });
    app.get('/raw', { responses: { 200: UserDto } }, async () => new UserEntity());
    app.get('/strict', { responses: { 200: UserDto }, responseFiltering: true }, async () => new UserEntity());
    expect((await get(app, '/raw')).body).toEqual(entity());
    expect((await get(app, '/strict')).body).toEqual(EXPECTED);
  });

  it('for one answer: res.serializers = undefined', async () => {
    const app = appWith();
    app.get('/me', { responses: { 200: UserDto } }, async (_req, res) => {
      res.serializers = undefined;
      return res.json(new UserEntity());
    });
    expect((await get(app, '/me')).body).toEqual(entity());
  });

  it('MakeConfig defaults: filtering on, validateResponses following debug', () => {
    expect(new MakeConfig()).toMatchObject({ responseFiltering: true, validateResponses: false });
    expect(new MakeConfig({ debug: true })).toMatchObject({ validateResponses: true });
    expect(new MakeConfig({ debug: true, validateResponses: false })).toMatchObject({ validateResponses: false });
  });
});

describe('validateResponses', () => {
  const broken = () => Object.assign(new UserEntity(), { id: 0, email: 'not-an-email' });

  it('turns a body that breaks its model into a 500 naming the route and the fields in debug, and reports it', async () => {
    const logger = { error: jest.fn() };
    const app = appWith({ debug: true }, logger);
    app.get('/me', { responses: { 200: UserDto } }, async () => broken());
    const res = await get(app, '/me');
    expect(res.status).toBe(500);
    expect(res.type).toBe('application/problem+json; charset=utf-8');
    expect(res.body.detail).toContain('GET /me');
    expect(res.body.detail).toContain('id: id must not be less than 1');
    expect(res.body.detail).toContain('email: email must be an email');
    expect(res.text).not.toContain('passwordHash');
    expect(res.text).not.toContain('not-an-email"');
    expect(logger.error).toHaveBeenCalledTimes(1);
    expect(logger.error.mock.calls[0][1]).toMatchObject({ code: 'TERN_RESPONSE_CONTRACT_VIOLATED' });
  });

  it('says only "Internal Server Error" without debug', async () => {
    const logger = { error: jest.fn() };
    const app = appWith({ validateResponses: true }, logger);
    app.get('/me', { responses: { 200: UserDto } }, async () => broken());
    const res = await get(app, '/me');
    expect(res.status).toBe(500);
    expect(res.body.detail).toBe('Internal Server Error');
    expect(res.text).not.toMatch(/email|GET \/me/);
    expect(logger.error.mock.calls[0][1]).toMatchObject({ code: 'TERN_RESPONSE_CONTRACT_VIOLATED' });
  });

  it('names nested and list fields by their path, @Expose names as written', async () => {
    const app = appWith({ debug: true });
    app.get('/users', { responses: { 200: [UserDto] } }, async () => [
      new UserEntity(),
      Object.assign(new UserEntity(), { address: { city: 42 }, displayName: 5 }),
    ]);
    const res = await get(app, '/users');
    expect(res.status).toBe(500);
    expect(res.body.detail).toContain('1.address.city: city must be a string');
    expect(res.body.detail).toContain('1.address.country');
    expect(res.body.detail).toContain('1.displayName');
  });

  it('accepts a body that keeps its contract, Dates and renamed keys included', async () => {
    const app = appWith({ debug: true });
    app.get('/me', { responses: { 200: UserDto } }, async () => new UserEntity());
    app.get('/page', { responses: { 200: { items: [UserDto], total: Number } } }, async () => ({ items: [new UserEntity()], total: 1 }));
    expect(await get(app, '/me')).toMatchObject({ status: 200, body: EXPECTED });
    expect(await get(app, '/page')).toMatchObject({ status: 200, body: { items: [EXPECTED], total: 1 } });
  });

  it('checks shape fields of built-in types', async () => {
    const app = appWith({ debug: true });
    app.get('/page', { responses: { 200: { items: [UserDto], total: Number } } }, async () => ({ items: [], total: '1' }));
    const res = await get(app, '/page');
    expect(res.status).toBe(500);
    expect(res.body.detail).toContain('total: must be a number');
  });

  it('requires every field of a shape, as its OpenAPI schema does', async () => {
    const app = appWith({ debug: true });
    app.get('/partial', { responses: { 200: { items: [UserDto], total: Number } } }, async () => ({ items: [] }));
    const res = await get(app, '/partial');
    expect(res.status).toBe(500);
    expect(res.body.detail).toContain('total: total is required');
  });

  it('does not check when off (the default without debug), nor statuses without a model', async () => {
    const app = appWith();
    app.get('/me', { responses: { 200: UserDto } }, async () => broken());
    expect(await get(app, '/me')).toMatchObject({ status: 200, body: { ...EXPECTED, id: 0, email: 'not-an-email' } });
    const debugApp = appWith({ debug: true });
    debugApp.get('/other', { responses: { 200: UserDto, 202: { description: 'Accepted, sent as written' } } }, async (_req, res) => res.json(broken(), 202));
    expect((await get(debugApp, '/other')).status).toBe(202);
  });

  it('checks models that class-validator validates itself (custom async constraints), in lists too', async () => {
    @ValidatorConstraint({ name: 'isKnownSku', async: true })
    class IsKnownSku implements ValidatorConstraintInterface {
      async validate(value: unknown) {
        return value === 'SKU-1';
      }
      defaultMessage() {
        return '$property is not a known SKU';
      }
    }
    class ProductDto {
      @Validate(IsKnownSku) sku: string;
    }
    const app = appWith({ debug: true });
    app.get('/ok', { responses: { 200: [ProductDto] } }, async () => [{ sku: 'SKU-1', cost: 3 }]);
    app.get('/bad', { responses: { 200: [ProductDto] } }, async () => [{ sku: 'SKU-1' }, { sku: 'SKU-9' }]);
    expect(await get(app, '/ok')).toMatchObject({ status: 200, body: [{ sku: 'SKU-1' }] });
    const res = await get(app, '/bad');
    expect(res.status).toBe(500);
    expect(res.body.detail).toContain('1.sku: sku is not a known SKU');
  });

  it('checks controller routes too', async () => {
    @Controller('/c')
    class C {
      @Get('/me')
      @ApiResponse(200, UserDto)
      async me() {
        return broken();
      }
    }
    const app = appWith({ debug: true });
    app.registerControllers([C]);
    const res = await get(app, '/c/me');
    expect(res.status).toBe(500);
    expect(res.body.detail).toContain('C.me');
  });
});

describe('startup', () => {
  it('refuses a responseFiltering option that is not a boolean', async () => {
    const app = appWith();
    app.get('/x', { responses: { 200: UserDto }, responseFiltering: 'no' as never }, async () => ({}));
    await expect(app.ready()).rejects.toMatchObject({ code: 'TERN_INVALID_ROUTE_OPTION', message: expect.stringContaining('GET /x') });
    expect(() => Controller('/c', { responseFiltering: 'no' as never })).toThrow('responseFiltering must be true or false');
  });

  it('names the route whose declared response cannot be compiled', async () => {
    class Clash {
      @Expose({ name: 'x' }) @IsString() a: string;
      @Expose({ name: 'x' }) @IsString() b: string;
    }
    const app = appWith();
    app.get('/bad', { responses: { 200: Clash } }, async () => ({}));
    await expect(app.ready()).rejects.toMatchObject({ code: 'TERN_INVALID_RESPONSE_MODEL', message: expect.stringContaining('GET /bad') });
  });

  describe('a list property whose items have no declared type (issue 42 item 10)', () => {
    class Line {
      @IsInt() count: number;
    }
    class Order {
      @IsString() id: string;
      @IsArray() @ValidateNested() lines: Line[];
    }
    class Untyped {
      @IsArray() things: unknown[];
    }
    class Shipment {
      @ValidateNested() @Type(() => Order) order: Order;
    }
    class Typed {
      @IsArray() @ValidateNested({ each: true }) @Type(() => Line) lines: Line[];
      @IsArray() @IsString({ each: true }) tags: string[];
      @IsOptional() @Exclude() @IsArray() hidden?: unknown[];
    }

    it.each([
      ['a list of models without @Type', Order, 'Order.lines'],
      ['a list of anything', Untyped, 'Untyped.things'],
      ['such a model met under another', Shipment, 'Order.lines'],
      ['such a model in a list', [Order], 'Order.lines'],
    ])('refuses %s at ready(), naming the property and the route', async (_name, model, property) => {
      const app = appWith();
      app.get('/orders', { responses: { 200: model } }, async () => ({ id: '1', lines: [{ count: 1, secret: 'x' }] }));
      const failure = app.ready();
      await expect(failure).rejects.toMatchObject({ code: 'TERN_INVALID_RESPONSE_MODEL' });
      await expect(failure).rejects.toThrow(property);
      await expect(failure).rejects.toThrow('GET /orders');
      await expect(failure).rejects.toThrow('@Type(() => ItemClass)');
    });

    it('accepts typed items, excluded lists, and untyped lists in request models', async () => {
      const app = appWith();
      app.get('/typed', { responses: { 200: Typed } }, async () => ({ lines: [{ count: 1, secret: 'x' }], tags: ['a'], hidden: [{ secret: 'y' }] }));
      app.post('/orders', { requestModel: Order }, async () => ({ ok: true }));
      const typed = await app.inject('/typed');
      expect(typed.json()).toEqual({ lines: [{ count: 1 }], tags: ['a'] });
      const posted = await app.inject({ method: 'POST', url: '/orders', payload: { id: '1', lines: [{ count: 1 }] } });
      expect(posted.statusCode).toBe(200);
    });
  });
});
