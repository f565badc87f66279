import { IsEmail, IsInt, IsOptional, IsString, Min, ValidateNested, IsObject } from 'class-validator';
import { Type } from 'class-transformer';
import { MakeConfig, TernApp } from '@tern/core';

class Address {
  @IsString() city: string;
}

class CreateUser {
  @IsString() name: string;
  @IsInt() @Min(0) age: number;
  @IsOptional() @IsEmail() email?: string;
  @IsOptional() @IsObject() @ValidateNested() @Type(() => Address) address?: Address;
}

function echoApp(config?: MakeConfig) {
  const app = new TernApp({ config });
  app.post('/echo', async (req) => ({ got: await req.json() }));
  app.post('/users', { requestModel: CreateUser, statusCode: 201 }, async (req) => ({
    isInstance: req.body instanceof CreateUser,
    body: req.body,
  }));
  return app;
}

const json = { 'content-type': 'application/json' };

describe('JSON bodies', () => {
  it('parses the same body whether or not middleware read its text first, for every spelling of the JSON type', async () => {
    const app = new TernApp();
    const texts: string[] = [];
    app.post('/plain', { requestModel: CreateUser, statusCode: 201 }, async (req) => ({ body: req.body }));
    app.post(
      '/read-first',
      {
        requestModel: CreateUser,
        statusCode: 201,
        middleware: [
          async (req, _res, next) => {
            texts.push(await req.text());
            return next();
          },
        ],
      },
      async (req) => ({ body: req.body, again: await req.text() }),
    );
    const payload = '{"name":"Zoë \\"Z\\"","age":3,"extra":true}';
    for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON', 'application/json;charset=UTF-8', 'application/vnd.api+json']) {
      const plain = await app.inject({ method: 'POST', url: '/plain', headers: { 'content-type': type }, payload });
      expect(plain.statusCode).toBe(201);
      expect(plain.json()).toEqual({ body: { name: 'Zoë "Z"', age: 3 } });
      const first = await app.inject({ method: 'POST', url: '/read-first', headers: { 'content-type': type }, payload });
      expect(first.json()).toEqual({ body: { name: 'Zoë "Z"', age: 3 }, again: payload });
    }
    expect(texts).toHaveLength(5);
    for (const type of ['text/plain', 'application/jsonx', 'application/json-patch']) {
      const refused = await app.inject({ method: 'POST', url: '/plain', headers: { 'content-type': type }, payload });
      expect(refused.statusCode).toBe(415);
    }
  });

  it('answers 400 for invalid JSON', async () => {
    const response = await echoApp().inject({ method: 'POST', url: '/echo', headers: json, payload: '{"a":' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ status: 400, code: 'TERN_INVALID_JSON' });
  });

  it.each(['{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"admin":true}}}'])('answers 400 for %s', async (payload) => {
    const response = await echoApp().inject({ method: 'POST', url: '/echo', headers: json, payload });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('TERN_JSON_FORBIDDEN_KEY');
    expect(({} as any).admin).toBeUndefined();
  });

  it.each([
    ['an escaped __proto__', String.raw`{"a":1,"\u005f_proto__":{"admin":true}}`],
    ['an escaped constructor', String.raw`{"\u0063onstructor":{"prototype":{"admin":true}}}`],
    ['a nested __proto__ after a byte-order mark', '\ufeff{"a":{"__proto__":{"admin":true}}}'],
  ])('answers 400 for %s key, however it is spelt', async (_what, payload) => {
    const response = await echoApp().inject({ method: 'POST', url: '/echo', headers: json, payload });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('TERN_JSON_FORBIDDEN_KEY');
    expect(({} as any).admin).toBeUndefined();
  });

  it('accepts the words __proto__ and constructor as values, escapes elsewhere and a leading byte-order mark', async () => {
    const payload = '\ufeff{"note":"__proto__ and constructor","e":"caf\\u00e9","list":["constructor"]}';
    const response = await echoApp().inject({ method: 'POST', url: '/echo', headers: json, payload });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ got: { note: '__proto__ and constructor', e: 'café', list: ['constructor'] } });
  });

  it('answers 415 for a JSON body sent with another content type', async () => {
    const response = await echoApp().inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'text/plain' }, payload: '{"a":1}' });
    expect(response.statusCode).toBe(415);
  });

  it('accepts +json media types and charset parameters', async () => {
    const response = await echoApp().inject({
      method: 'POST', url: '/echo', headers: { 'content-type': 'application/merge-patch+json; charset=utf-8' }, payload: '{"a":1}',
    });
    expect(response.json()).toEqual({ got: { a: 1 } });
  });

  it('answers 413 for a body over the limit, before the handler runs', async () => {
    const handler = jest.fn(async () => ({}));
    const app = new TernApp({ config: new MakeConfig({ bodyLimit: 100 }) });
    app.post('/upload', handler);
    app.post('/echo', async (req) => ({ got: await req.json() }));
    const big = JSON.stringify({ data: 'x'.repeat(200) });
    const declared = await app.inject({ method: 'POST', url: '/upload', headers: json, payload: big });
    expect(declared.statusCode).toBe(413);
    expect(declared.headers.connection).toBe('close');
    expect(handler).not.toHaveBeenCalled();
    const read = await app.inject({ method: 'POST', url: '/echo', headers: json, payload: big });
    expect(read.statusCode).toBe(413);
  });

  it('answers 400 for JSON nested deeper than the limit', async () => {
    const app = echoApp(new MakeConfig({ jsonDepthLimit: 5 }));
    const payload = '['.repeat(6) + ']'.repeat(6);
    expect((await app.inject({ method: 'POST', url: '/echo', headers: json, payload })).statusCode).toBe(400);
    const nested = '{"a":"[[[[[[[[[["}';
    expect((await app.inject({ method: 'POST', url: '/echo', headers: json, payload: nested })).statusCode).toBe(200);
  });
});

describe('requestModel validation', () => {
  it('validates into an instance, strips unknown fields and answers with the route status', async () => {
    const response = await echoApp().inject({
      method: 'POST', url: '/users', payload: { name: 'Ada', age: 36, admin: true, address: { city: 'London', zip: 'x' } },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ isInstance: true, body: { name: 'Ada', age: 36, address: { city: 'London' } } });
  });

  it('answers 422 naming every failing field by dotted path', async () => {
    const response = await echoApp().inject({
      method: 'POST', url: '/users', payload: { name: 5, age: -1, email: 'nope', address: { city: 7 } },
    });
    expect(response.statusCode).toBe(422);
    const body = response.json();
    expect(body).toMatchObject({ status: 422, code: 'TERN_VALIDATION_FAILED' });
    expect(body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['address.city', 'age', 'email', 'name']);
    expect(body.errors.find((e: { path: string }) => e.path === 'age').message).toBe('age must not be less than 0');
  });

  it.each([['null'], ['[]'], ['"text"'], ['42']])('answers 422, not 500, for a top-level %s', async (payload) => {
    const response = await echoApp().inject({ method: 'POST', url: '/users', headers: json, payload });
    expect(response.statusCode).toBe(422);
  });

  it('answers 422 for a missing body', async () => {
    const response = await echoApp().inject({ method: 'POST', url: '/users' });
    expect(response.statusCode).toBe(422);
  });
});
