import { validate as validateOpenApi } from '@readme/openapi-parser';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { Body, Controller, Get, Post, Query, TernApp } from '@tern/core';

class Address {
  @IsString() @Length(1, 50) city!: string;
}

class Item {
  @IsString() name!: string;
  @IsInt() @Min(1) quantity!: number;
}

class CreateOrder {
  @IsString() @Length(1, 20) customer!: string;
  @IsObject() @ValidateNested() @Type(() => Address) address!: Address;
  @IsArray() @ValidateNested({ each: true }) @Type(() => Item) items!: Item[];
  @IsOptional() @IsString() note?: string;
}

class ListOrders {
  @IsOptional() @IsInt() @Min(1) page?: number;
  @IsOptional() @IsInt() @Max(100) limit?: number;
  @IsOptional() @IsBoolean() shipped?: boolean;
  @IsOptional() @IsIn(['new', 'old']) sort?: string;
  @IsOptional() @IsArray() @IsString({ each: true }) @ArrayMaxSize(3) tag?: string[];
  @IsOptional() @Type(() => Number) @IsInt() explicit?: number;
}

/** No rule checks the type: the declared type alone must keep strings out. */
class Untyped {
  @IsOptional() count?: number;
}

/** `@Transform` makes the model fall back to class-transformer + class-validator (asynchronous). */
class Search {
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value)) @IsString() @Length(2, 20) q!: string;
  @IsOptional() @IsInt() page?: number;
}

interface OrderShape {
  customer: string;
}

@Controller('/orders', { tags: ['orders'] })
class Orders {
  @Post('/', { statusCode: 201 })
  async create(@Body() order: CreateOrder) {
    return { order, isInstance: order instanceof CreateOrder, addressIsInstance: order.address instanceof Address };
  }

  @Post('/explicit')
  async explicit(@Body(CreateOrder) order: OrderShape) {
    return { customer: order.customer };
  }

  @Get('/')
  async list(@Query() query: ListOrders, @Query('extra') extra?: string) {
    return { query, isInstance: query instanceof ListOrders, extra };
  }

  @Get('/untyped')
  async untyped(@Query() query: Untyped) {
    return query;
  }

  @Get('/search')
  async search(@Query(Search) query: Search) {
    return query;
  }
}

const valid = { customer: 'Ada', address: { city: 'London' }, items: [{ name: 'tea', quantity: 2 }] };

async function app(): Promise<TernApp> {
  const a = new TernApp({ logger: false });
  a.registerControllers([Orders]);
  await a.ready();
  return a;
}

function post(a: TernApp, payload: unknown, url = '/orders') {
  return a.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
}

describe('controller validation', () => {
  describe('@Body()', () => {
    it('validates the body into an instance of the class, stripping unknown properties', async () => {
      const a = await app();
      const response = await post(a, { ...valid, admin: true, address: { city: 'London', zip: 'x' } });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toEqual({
        order: { customer: 'Ada', address: { city: 'London' }, items: [{ name: 'tea', quantity: 2 }] },
        isInstance: true,
        addressIsInstance: true,
      });
    });

    it('answers 422 naming each failing field by its dotted path, nested objects and arrays included', async () => {
      const a = await app();
      const response = await post(a, { customer: '', address: { city: 7 }, items: [{ name: 'tea', quantity: 1 }, { name: 3, quantity: 0 }] });
      expect(response.statusCode).toBe(422);
      const body = response.json();
      expect(body).toMatchObject({ status: 422, code: 'TERN_VALIDATION_FAILED' });
      expect(body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['address.city', 'address.city', 'customer', 'items.1.name', 'items.1.quantity']);
      expect(body.errors).toContainEqual({ path: 'items.1.quantity', message: 'quantity must not be less than 1' });
    });

    it('answers 422, not 500, for a null, array or scalar body and for no body', async () => {
      const a = await app();
      for (const payload of [null, [valid], 'text', 42, true]) {
        const response = await post(a, payload);
        expect(response.statusCode).toBe(422);
        expect(response.json().errors).toEqual([{ path: '', message: 'body must be an object' }]);
      }
      const empty = await a.inject({ method: 'POST', url: '/orders' });
      expect(empty.statusCode).toBe(422);
    });

    it('answers 400 for a body that is not JSON', async () => {
      const a = await app();
      const response = await a.inject({ method: 'POST', url: '/orders', headers: { 'content-type': 'application/json' }, payload: '{"customer":' });
      expect(response.statusCode).toBe(400);
    });

    it('takes the model from @Body(Model) when the parameter type is an interface', async () => {
      const a = await app();
      expect((await post(a, valid, '/orders/explicit')).json()).toEqual({ customer: 'Ada' });
      expect((await post(a, { customer: 'Ada' }, '/orders/explicit')).statusCode).toBe(422);
    });

    it('makes the class the route requestModel', async () => {
      const a = await app();
      const route = a.getAllRoutes().find((r) => r.rawPath === '/orders' && r.methods.includes('POST'));
      expect(route?.options.requestModel).toBe(CreateOrder);
    });
  });

  describe('@Query() dto', () => {
    it('converts numbers and booleans by declared type and validates into an instance', async () => {
      const a = await app();
      const response = await a.inject('/orders?page=2&limit=50&shipped=false&sort=new&tag=a&tag=b&explicit=7&extra=x&unknown=1');
      expect(response.json()).toEqual({
        query: { page: 2, limit: 50, shipped: false, sort: 'new', tag: ['a', 'b'], explicit: 7 },
        isInstance: true,
        extra: 'x',
      });
      expect((await a.inject('/orders?tag=solo')).json().query).toEqual({ tag: ['solo'] });
      expect((await a.inject('/orders')).json().query).toEqual({});
    });

    it('answers 422 listing the failing fields with their rules\' messages', async () => {
      const a = await app();
      const response = await a.inject('/orders?page=0&limit=abc&shipped=maybe&sort=up&tag=1&tag=2&tag=3&tag=4');
      expect(response.statusCode).toBe(422);
      const body = response.json();
      expect(body).toMatchObject({ code: 'TERN_VALIDATION_FAILED', detail: 'Query parameters failed validation.' });
      expect(body.errors).toEqual(
        expect.arrayContaining([
          { path: 'page', message: 'page must not be less than 1' },
          { path: 'limit', message: 'limit must be an integer number' },
          { path: 'shipped', message: 'shipped must be a boolean value' },
          { path: 'sort', message: 'sort must be one of the following values: new, old' },
          { path: 'tag', message: 'tag must contain no more than 3 elements' },
        ]),
      );
    });

    it('reports a value that does not convert even when no rule checks its type', async () => {
      const a = await app();
      expect((await a.inject('/orders/untyped?count=3')).json()).toEqual({ count: 3 });
      const response = await a.inject('/orders/untyped?count=three');
      expect(response.statusCode).toBe(422);
      expect(response.json().errors).toEqual([{ path: 'count', message: 'count must be a number' }]);
    });

    it('works with models that need class-transformer (asynchronous validation)', async () => {
      const a = await app();
      expect((await a.inject('/orders/search?q=%20tern%20&page=2')).json()).toEqual({ q: 'tern', page: 2 });
      const response = await a.inject('/orders/search?q=x');
      expect(response.statusCode).toBe(422);
      expect(response.json().errors).toEqual([{ path: 'q', message: 'q must be longer than or equal to 2 characters' }]);
    });

    it('documents each field as a query parameter', async () => {
      const a = await app();
      const route = a.getAllRoutes().find((r) => r.rawPath === '/orders' && r.methods.includes('GET'));
      const parameters = route?.options.parameters ?? [];
      expect(parameters.map((p) => [p.name, p.in, p.required])).toEqual([
        ['page', 'query', false],
        ['limit', 'query', false],
        ['shipped', 'query', false],
        ['sort', 'query', false],
        ['tag', 'query', false],
        ['explicit', 'query', false],
        ['extra', 'query', false],
      ]);
      const search = a.getAllRoutes().find((r) => r.rawPath === '/orders/search');
      expect(search?.options.parameters?.find((p) => p.name === 'q')).toMatchObject({ in: 'query', required: true });
    });
  });

  it('produces a valid OpenAPI document with the request body and query parameters', async () => {
    const a = await app();
    const document = (await a.inject('/openapi.json')).json();
    const result = await validateOpenApi(structuredClone(document));
    expect(result).toMatchObject({ valid: true });
    const create = document.paths['/orders'].post;
    expect(create.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/CreateOrder' });
    expect(create.tags).toEqual(['orders']);
    expect(document.paths['/orders'].get.parameters.map((p: { name: string }) => p.name)).toContain('limit');
  });
});
