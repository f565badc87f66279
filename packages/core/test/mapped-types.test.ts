/**
 * Mapped types: classes derived from a DTO with PartialType, PickType, OmitType and
 * IntersectionType validate, transform, default and document as the DTO they come from says.
 */
import fc from 'fast-check';
import { Exclude, Expose, plainToInstance, Transform, Type } from 'class-transformer';
import {
  Contains,
  IsArray,
  IsEmail,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { Body, Controller, Get, Param, Patch, Query, TernApp, TernError } from '@tern/core';
import { defaultModelCompiler } from '../src/validation';
import { createClassValidatorCompiler } from '../src/validation/class-validator/compiler';
import { compileFallback } from '../src/validation/class-validator/fallback';
import { resolveOptions, type CompileOptions, type ValidationResult } from '../src/validation/types';
import { IntersectionType } from '../src/mapped-types/intersection-type';
import { OmitType } from '../src/mapped-types/omit-type';
import { PartialType } from '../src/mapped-types/partial-type';
import { PickType } from '../src/mapped-types/pick-type';

// ---------------------------------------------------------------------------------------------
// Models
// ---------------------------------------------------------------------------------------------

class Address {
  @IsString() @Length(1, 30) city!: string;
  @IsOptional() @Matches(/^\d{5}$/) zip?: string;
}

class CreateUser {
  @IsString() @Length(1, 20) name!: string;
  @IsEmail() email!: string;
  @IsInt() @Min(0) age!: number;
  @IsObject() @ValidateNested() @Type(() => Address) address!: Address;
  @IsOptional() @IsArray() @IsString({ each: true }) tags?: string[];
}

/** Inherits its rules: Omit must carry inherited rules too. */
class User extends CreateUser {
  @IsInt() @Min(1) id!: number;
}

class UpdateUser extends PartialType(CreateUser) {}
class StrictUpdateUser extends PartialType(CreateUser, { skipNullProperties: false }) {}
class Credentials extends PickType(CreateUser, ['name', 'email'] as const) {}
class NewUser extends OmitType(User, ['id', 'tags']) {}
class Contact extends IntersectionType(PickType(CreateUser, ['name']), Address) {}

class ListUsers {
  @Type(() => Number) @IsInt() @Min(1) page = 1;
  @Type(() => Number) @IsInt() @Max(100) limit = 20;
  @IsOptional() @IsString() q?: string;
  @IsOptional() @IsIn(['name', 'age']) sort?: string;
  /** Only TypeScript's declared type says this is a number. */
  @IsOptional() @Min(0) offset?: number;
  @IsArray() @IsString({ each: true }) fields: string[] = ['name'];
}
class SearchUsers extends PartialType(ListUsers) {}
class PageOnly extends PickType(ListUsers, ['page', 'q']) {}

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
class Profile {
  @Transform(trim) @IsString() @Length(2, 20) nick!: string;
  @Expose({ name: 'display_name' }) @IsString() displayName!: string;
  @Exclude() @IsOptional() @IsString() role?: string;
}
class UpdateProfile extends PartialType(Profile) {}
class NickOnly extends OmitType(Profile, ['displayName', 'role']) {}

// ---------------------------------------------------------------------------------------------
// App
// ---------------------------------------------------------------------------------------------

const ADA = { name: 'Ada', email: 'ada@example.com', age: 36, address: { city: 'London' } };

@Controller('/users')
class Users {
  readonly store = new Map<number, User>();

  constructor() {
    this.store.set(1, Object.assign(new User(), { id: 1, ...ADA, address: Object.assign(new Address(), ADA.address), tags: ['math'] }));
  }

  @Patch('/{id:int}')
  async update(@Param('id') id: number, @Body() changes: UpdateUser) {
    const user = this.store.get(id)!;
    Object.assign(user, changes);
    return { user, sent: Object.keys(changes), addressIsInstance: changes.address === undefined || changes.address instanceof Address };
  }

  @Get('/')
  async list(@Query() query: SearchUsers) {
    return { query, isInstance: query instanceof SearchUsers };
  }
}

async function makeApp(): Promise<TernApp> {
  const app = new TernApp({ logger: false, openapi: { title: 'Mapped', version: '1' } });
  app.registerControllers([Users]);
  const echo = async (req: { body?: unknown }) => ({ body: req.body, keys: Object.keys(req.body as object) });
  app.post('/users', { requestModel: CreateUser }, echo);
  app.post('/users/strict', { requestModel: StrictUpdateUser }, echo);
  app.post('/login', { requestModel: Credentials }, echo);
  app.post('/new-users', { requestModel: NewUser }, echo);
  app.post('/contacts', { requestModel: Contact }, echo);
  app.post('/search', { requestModel: SearchUsers }, echo);
  app.post('/page', { requestModel: PageOnly }, echo);
  app.post('/profiles', { requestModel: UpdateProfile }, echo);
  app.post('/nicks', { requestModel: NickOnly }, echo);
  await app.ready();
  return app;
}

let app: TernApp;
beforeEach(async () => {
  app = await makeApp();
});

function send(method: 'POST' | 'PATCH', url: string, payload: unknown) {
  return app.inject({ method, url, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
}

// ---------------------------------------------------------------------------------------------
// Behaviour seen through requests
// ---------------------------------------------------------------------------------------------

describe('PartialType', () => {
  it('accepts a body with any field missing, even an empty one', async () => {
    const response = await send('PATCH', '/users/1', {});
    expect(response.statusCode).toBe(200);
    expect(response.json().sent).toEqual([]);
    expect((await send('PATCH', '/users/1', { age: 37 })).json().sent).toEqual(['age']);
  });

  it('keeps every rule of a field that is sent: the same 422 messages as the original', async () => {
    const bad = { name: '', email: 'nope', age: -1, address: { city: '' }, tags: [1] };
    const original = await send('POST', '/users', bad);
    const partial = await send('PATCH', '/users/1', bad);
    expect(partial.statusCode).toBe(422);
    expect(partial.json().errors).toEqual(original.json().errors);
    expect(partial.json().errors).toEqual([
      { path: 'name', message: 'name must be longer than or equal to 1 characters' },
      { path: 'email', message: 'email must be an email' },
      { path: 'age', message: 'age must not be less than 0' },
      { path: 'address.city', message: 'city must be longer than or equal to 1 characters' },
      { path: 'tags', message: 'each value in tags must be a string' },
    ]);
  });

  it('builds nested @Type models, whose own required fields stay required', async () => {
    const ok = await send('PATCH', '/users/1', { address: { city: 'Paris' } });
    expect(ok.json()).toMatchObject({ sent: ['address'], addressIsInstance: true });
    const missing = await send('PATCH', '/users/1', { address: {} });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors.map((e: { path: string }) => e.path)).toEqual(['address.city', 'address.city']);
  });

  it('never wipes fields the client did not send when the handler does Object.assign(entity, dto)', async () => {
    // The premise: with ES2022 class fields the original class does give every field an own
    // `undefined`, so merging an instance of it would erase them.
    expect(Object.keys(plainToInstance(CreateUser, { age: 1 }))).toEqual(expect.arrayContaining(['name', 'email', 'age']));

    const response = await send('PATCH', '/users/1', { age: 37, unknown: 'x' });
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toEqual({ id: 1, ...ADA, age: 37, tags: ['math'] });
  });

  it('lets null through like @IsOptional(), or checks it with skipNullProperties: false', async () => {
    expect((await send('PATCH', '/users/1', { name: null })).statusCode).toBe(200);
    const strict = await send('POST', '/users/strict', { name: null });
    expect(strict.statusCode).toBe(422);
    expect(strict.json().errors).toEqual([
      { path: 'name', message: 'name must be longer than or equal to 1 characters' },
      { path: 'name', message: 'name must be a string' },
    ]);
    expect((await send('POST', '/users/strict', {})).statusCode).toBe(200);
  });

  it('keeps constructor defaults, and sets nothing else the client did not send', async () => {
    const response = await send('POST', '/search', { q: 'ada' });
    expect(response.json()).toEqual({ body: { page: 1, limit: 20, fields: ['name'], q: 'ada' }, keys: ['page', 'limit', 'fields', 'q'] });
    // A default object is made per instance, never shared between requests.
    expect(new SearchUsers().fields).not.toBe(new SearchUsers().fields);
  });

  it('serves @Query() models, converting by the declared types it carries', async () => {
    const response = await app.inject('/users?page=3&sort=age&fields=id');
    expect(response.json()).toEqual({ query: { page: 3, limit: 20, fields: ['id'], sort: 'age' }, isInstance: true });
    const bad = await app.inject('/users?page=zero');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors[0].path).toBe('page');
  });

  it('carries @Transform, @Expose and @Exclude', async () => {
    const response = await send('POST', '/profiles', { nick: '  tern  ', display_name: 'Tern', role: 'admin' });
    expect(response.json().body).toEqual({ nick: 'tern', displayName: 'Tern' });
    const bad = await send('POST', '/profiles', { nick: ' x ' });
    expect(bad.json().errors).toEqual([{ path: 'nick', message: 'nick must be longer than or equal to 2 characters' }]);
  });
});

describe('PickType', () => {
  it('requires the picked fields with their rules and strips the rest', async () => {
    const ok = await send('POST', '/login', { name: 'Ada', email: 'ada@example.com', age: 'not checked' });
    expect(ok.json()).toEqual({ body: { name: 'Ada', email: 'ada@example.com' }, keys: ['name', 'email'] });
    const bad = await send('POST', '/login', { name: 'Ada', age: 3 });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual([{ path: 'email', message: 'email must be an email' }]);
  });

  it('refuses the fields it left out when unknown fields are forbidden', async () => {
    const validate = defaultModelCompiler.compile(Credentials, { forbidNonWhitelisted: true });
    expect(await validate({ name: 'Ada', email: 'ada@example.com', age: 3 })).toEqual({
      ok: false,
      errors: [{ path: 'age', message: 'property age should not exist' }],
    });
  });

  it('keeps only the picked defaults', async () => {
    expect((await send('POST', '/page', {})).json()).toEqual({ body: { page: 1 }, keys: ['page'] });
    expect((await send('POST', '/page', { page: '4', limit: 5 })).json().body).toEqual({ page: 4 });
  });
});

describe('OmitType', () => {
  it('drops the omitted fields, inherited rules kept for the others', async () => {
    const ok = await send('POST', '/new-users', { ...ADA, id: 9, tags: ['x'] });
    expect(ok.json().keys).toEqual(['name', 'email', 'age', 'address']);
    const bad = await send('POST', '/new-users', { name: 'Ada', email: 'ada@example.com', age: 1.5 });
    expect(bad.json().errors).toEqual([
      { path: 'age', message: 'age must be an integer number' },
      { path: 'address', message: 'address must be an object' },
    ]);
  });

  it('carries @Transform on what is kept', async () => {
    expect((await send('POST', '/nicks', { nick: ' ab ', display_name: 'x' })).json().body).toEqual({ nick: 'ab' });
  });
});

describe('IntersectionType', () => {
  it('requires the fields of every class', async () => {
    const ok = await send('POST', '/contacts', { name: 'Ada', city: 'London', email: 'stripped' });
    expect(ok.json().body).toEqual({ name: 'Ada', city: 'London' });
    const bad = await send('POST', '/contacts', { zip: '1' });
    expect(bad.json().errors.map((e: { path: string }) => e.path)).toEqual(['name', 'name', 'city', 'city', 'zip']);
  });

  it('is typed as the intersection of its classes', () => {
    const contact: { name: string; city: string; zip?: string } = new Contact();
    expect(contact).toBeInstanceOf(Contact);
  });
});

// ---------------------------------------------------------------------------------------------
// OpenAPI
// ---------------------------------------------------------------------------------------------

describe('the OpenAPI schemas of derived classes', () => {
  async function schemas(): Promise<Record<string, { properties: Record<string, unknown>; required?: string[] }>> {
    const response = await app.inject('/openapi.json');
    return response.json().components.schemas;
  }

  it('Partial: the same properties, none required', async () => {
    const all = await schemas();
    const update = all.UpdateUser;
    expect(Object.keys(update.properties)).toEqual(Object.keys(all.CreateUser.properties));
    expect(update.required).toBeUndefined();
    expect(update.properties.name).toEqual({ type: ['string', 'null'], minLength: 1, maxLength: 20 });
    expect(update.properties.address).toEqual({ anyOf: [{ $ref: '#/components/schemas/Address' }, { type: 'null' }] });
    expect(all.StrictUpdateUser.properties.name).toEqual({ type: 'string', minLength: 1, maxLength: 20 });
    expect(all.StrictUpdateUser.required).toBeUndefined();
  });

  it('Pick and Omit: only the chosen properties, as the original describes them', async () => {
    const all = await schemas();
    expect(all.Credentials).toEqual({
      type: 'object',
      properties: { name: all.CreateUser.properties.name, email: all.CreateUser.properties.email },
      required: ['name', 'email'],
    });
    expect(Object.keys(all.NewUser.properties).sort()).toEqual(['address', 'age', 'email', 'name']);
    expect(all.NewUser.required?.sort()).toEqual(['address', 'age', 'email', 'name']);
  });

  it('Intersection: the properties of both', async () => {
    const all = await schemas();
    expect(all.Contact).toEqual({
      type: 'object',
      properties: { name: all.CreateUser.properties.name, city: all.Address.properties.city, zip: all.Address.properties.zip },
      required: ['name', 'city'],
    });
  });

  it('documents each field of a derived query model, typed by what the original declares', async () => {
    const response = await app.inject('/openapi.json');
    const parameters = response.json().paths['/users'].get.parameters as Array<{ name: string; required: boolean; schema: unknown }>;
    expect(parameters.map((p) => [p.name, p.required])).toEqual([
      ['page', false],
      ['limit', false],
      ['q', false],
      ['sort', false],
      ['offset', false],
      ['fields', false],
    ]);
    // Optional, but never null: a query string cannot carry null.
    expect(parameters.find((p) => p.name === 'offset')?.schema).toEqual({ type: 'number', minimum: 0 });
  });
});

// ---------------------------------------------------------------------------------------------
// Native path against the class-validator fallback
// ---------------------------------------------------------------------------------------------

const edge = fc.constantFrom<unknown>(null, '', 'x', 'ada@example.com', -1, 0, 1.5, 7, '3', [], ['a', 2], {}, { city: '' }, { city: 'Oslo', zip: '1' });
const KEYS = ['name', 'email', 'age', 'address', 'tags', 'id', 'city', 'zip', 'page', 'limit', 'q', 'sort', 'offset', 'fields', 'unknown'];
const validUser = fc.record(
  {
    name: fc.string({ minLength: 1, maxLength: 20 }),
    email: fc.emailAddress(),
    age: fc.nat(120),
    address: fc.record({ city: fc.string({ minLength: 1, maxLength: 8 }), zip: fc.stringMatching(/^\d{5}$/) }, { requiredKeys: ['city'] }),
    tags: fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 }),
    id: fc.integer({ min: 1, max: 9 }),
    city: fc.string({ minLength: 1, maxLength: 8 }),
    page: fc.integer({ min: 1, max: 9 }),
    limit: fc.integer({ min: 0, max: 100 }),
    offset: fc.nat(9),
    fields: fc.array(fc.constantFrom('id', 'name'), { maxLength: 2 }),
  },
  { requiredKeys: [] },
);
/** A body with up to three fields changed, removed or added (nested ones included). */
const input = fc
  .tuple(validUser, fc.array(fc.tuple(fc.constantFrom(...KEYS), fc.option(edge, { nil: undefined }), fc.boolean()), { maxLength: 3 }))
  .map(([valid, changes]) => {
    const body: Record<string, unknown> = structuredClone(valid);
    for (const [key, value, nested] of changes) {
      const target = nested && typeof body.address === 'object' && body.address !== null ? (body.address as Record<string, unknown>) : body;
      if (value === undefined) delete target[key];
      else target[key] = structuredClone(value);
    }
    return JSON.parse(JSON.stringify(body)) as unknown;
  });

/** Class names and values of an instance tree. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (typeof value === 'object' && value !== null) {
    return { class: value.constructor?.name, entries: Object.entries(value).map(([k, v]) => [k, shape(v)]) };
  }
  return value;
}

/** What a handler would see: the instance's shape, or the issues (paths, messages, order). */
function outcome(result: ValidationResult<object>): unknown {
  return result.ok ? { ok: true, value: shape(result.value) } : result;
}

const DERIVED: Array<[string, new () => object]> = [
  ['PartialType', UpdateUser],
  ['PartialType, skipNullProperties: false', StrictUpdateUser],
  ['PickType', Credentials],
  ['OmitType of a subclass', NewUser],
  ['IntersectionType', Contact],
  ['PartialType with defaults', SearchUsers],
  ['PickType with defaults', PageOnly],
];
const OPTIONS: CompileOptions[] = [{}, { forbidNonWhitelisted: true }];

describe.each([
  ['generated code', createClassValidatorCompiler()],
  ['interpreter', createClassValidatorCompiler({ codegen: false })],
])('derived classes: the native path (%s) agrees with the class-validator fallback', (_engine, compiler) => {
  it.each(DERIVED)('%s', async (_name, model) => {
    for (const options of OPTIONS) {
      const native = compiler.compile(model, options);
      expect(native.fallbackReasons).toEqual([]);
      const fallback = compileFallback(model, resolveOptions(options), { keep: undefined });
      await fc.assert(
        fc.asyncProperty(input, async (body) => {
          expect(outcome(await native(body))).toEqual(outcome(await fallback(body)));
        }),
        { numRuns: 150 },
      );
    }
  });
});

it('carries rules the native path does not compile (custom constraints), which then fall back', async () => {
  class Note {
    @IsString() @Contains('tern', { message: '$property must mention $constraint1' }) text!: string;
    @IsInt() stars!: number;
  }
  class NoteText extends PartialType(PickType(Note, ['text'])) {}
  const validate = defaultModelCompiler.compile(NoteText);
  expect(validate.native).toBe(false);
  expect(await validate({ text: 'hello' })).toEqual({ ok: false, errors: [{ path: 'text', message: 'text must mention tern' }] });
  expect(await validate({ text: 'hello tern', stars: 'x' })).toMatchObject({ ok: true, value: { text: 'hello tern' } });
  expect(await validate({})).toMatchObject({ ok: true });
});

it('a model carrying @Transform falls back, with the same answers', async () => {
  const validate = defaultModelCompiler.compile(UpdateProfile);
  expect(validate.native).toBe(false);
  expect(await validate({ nick: ' ab ', display_name: 'x', role: 'r' })).toMatchObject({ ok: true, value: { nick: 'ab', displayName: 'x' } });
});

// ---------------------------------------------------------------------------------------------
// Misuse
// ---------------------------------------------------------------------------------------------

describe('misuse', () => {
  it('names a class left undefined by a circular import', () => {
    const missing = undefined as unknown as typeof CreateUser;
    expect(() => PartialType(missing)).toThrow(TernError);
    expect(() => PartialType(missing)).toThrow('PartialType() needs a class, got undefined (is the class imported through a circular import?)');
    expect(() => IntersectionType(CreateUser, missing)).toThrow(expect.objectContaining({ code: 'TERN_INVALID_MAPPED_TYPE' }));
  });

  it('refuses keys that are not a list of property names', () => {
    const keys = 'name' as unknown as Array<keyof CreateUser>;
    expect(() => PickType(CreateUser, keys)).toThrow('PickType(CreateUser, keys): keys must be an array of property names, got "name"');
    expect(() => OmitType(CreateUser, [Symbol('x')] as unknown as Array<keyof CreateUser>)).toThrow(
      expect.objectContaining({ code: 'TERN_INVALID_MAPPED_TYPE' }),
    );
  });
});

describe('loading', () => {
  const LIBRARIES = ['class-validator', 'class-transformer', 'class-transformer/cjs/storage'];
  afterEach(() => {
    for (const name of LIBRARIES) jest.dontMock(name);
  });

  it('loads class-validator and class-transformer when a helper is called, not when it is imported', () => {
    const loaded: string[] = [];
    let afterImport: string[] = [];
    jest.isolateModules(() => {
      for (const name of LIBRARIES) {
        jest.doMock(name, () => {
          loaded.push(name);
          return jest.requireActual(name);
        });
      }
      /* eslint-disable @typescript-eslint/no-require-imports */
      const helpers = [
        require('../src/mapped-types/partial-type') as typeof import('../src/mapped-types/partial-type'),
        require('../src/mapped-types/pick-type'),
        require('../src/mapped-types/omit-type'),
        require('../src/mapped-types/intersection-type'),
      ] as const;
      /* eslint-enable @typescript-eslint/no-require-imports */
      afterImport = [...loaded];
      class Plain {
        page = 1;
      }
      expect(new (helpers[0].PartialType(Plain))()).toEqual({ page: 1 });
    });
    expect(afterImport).toEqual([]);
    expect(loaded).toEqual(expect.arrayContaining(['class-validator', 'class-transformer/cjs/storage']));
  });
});
