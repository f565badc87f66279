/**
 * NestJS habit: `Object.assign(entity, dto)` in a PATCH handler must never wipe fields the client
 * did not send. A property missing from the body is not an own property of the validated instance
 * (unless the class gives it a default), whichever class-field semantics the model was compiled
 * with: `[[Set]]` (ES2021, NestJS's default) or `[[Define]]` (ES2022 class fields).
 */
import * as ts from 'typescript';
import * as classTransformer from 'class-transformer';
import * as classValidator from 'class-validator';
import { Body, Controller, Param, Patch, PartialType, TernApp } from '@tern/core';

const MODELS = `
const { IsInt, IsObject, IsOptional, IsString, Length, Min, ValidateNested } = require('class-validator');
const { Transform, Type } = require('class-transformer');
class Address {
  @IsString() city: string;
  @IsOptional() @IsString() street?: string;
}
class CreateUser {
  @IsString() @Length(1, 20) name: string;
  @IsInt() @Min(0) age: number;
  @IsString() role: string = 'user';
  @IsObject() @ValidateNested() @Type(() => Address) address: Address;
}
class PatchUser {
  @IsOptional() @IsString() name?: string;
  @IsOptional() @IsInt() age?: number;
  @IsOptional() @IsObject() @ValidateNested() @Type(() => Address) address?: Address;
}
/** @Transform makes this model use class-transformer + class-validator (the fallback path). */
class PatchTrimmed {
  @IsOptional() @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value)) @IsString() name?: string;
  @IsOptional() @IsInt() age?: number;
}
module.exports = { Address, CreateUser, PatchUser, PatchTrimmed };
`;

type Ctor = new () => object;
interface Models {
  CreateUser: Ctor;
  PatchUser: Ctor;
  PatchTrimmed: Ctor;
}

/** The models as `tsc` emits them with the given class-field semantics. */
function compileModels(useDefineForClassFields: boolean): Models {
  const { outputText } = ts.transpileModule(MODELS, {
    compilerOptions: {
      target: useDefineForClassFields ? ts.ScriptTarget.ES2022 : ts.ScriptTarget.ES2021,
      module: ts.ModuleKind.CommonJS,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
      useDefineForClassFields,
    },
  });
  const libraries: Record<string, unknown> = { 'class-validator': classValidator, 'class-transformer': classTransformer };
  const module = { exports: {} as Models };
  new Function('require', 'module', 'exports', outputText)((name: string) => libraries[name], module, module.exports);
  return module.exports;
}

function usersApp(models: Models) {
  const stored = { id: 1, name: 'Ada', age: 36, role: 'admin', address: { city: 'London', street: 'Baker St' } };
  const Patched = PartialType(models.CreateUser as new () => { name: string });

  @Controller('/users')
  class Users {
    @Patch('/{id:int}', { requestModel: models.PatchUser })
    async patch(@Param('id') id: number, @Body(models.PatchUser) dto: object) {
      return { ...Object.assign({ ...stored, id }, dto), ownKeys: Object.keys(dto) };
    }

    @Patch('/{id:int}/partial')
    async partial(@Body(Patched) dto: object) {
      return { merged: Object.assign({ ...stored }, dto), ownKeys: Object.keys(dto) };
    }

    @Patch('/{id:int}/trimmed')
    async trimmed(@Body(models.PatchTrimmed) dto: object) {
      return { merged: Object.assign({ ...stored }, dto), ownKeys: Object.keys(dto) };
    }
  }
  const app = new TernApp();
  app.post('/users', { requestModel: models.CreateUser }, async (req) => ({ ownKeys: Object.keys(req.body as object), body: req.body }));
  app.registerControllers([Users]);
  return app;
}

describe.each([
  ['[[Set]] fields (ES2021, useDefineForClassFields: false)', false],
  ['ES2022 class fields (useDefineForClassFields: true)', true],
])('%s', (_label, define) => {
  const models = compileModels(define);

  test('the compiled classes use the expected field semantics', () => {
    expect(Object.keys(new models.PatchUser())).toEqual(define ? ['name', 'age', 'address'] : []);
  });

  test('PATCH with one field changes that field only (Object.assign keeps the rest)', async () => {
    const res = await usersApp(models).inject({ method: 'PATCH', url: '/users/1', payload: { age: 37 } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: 1,
      name: 'Ada',
      age: 37,
      role: 'admin',
      address: { city: 'London', street: 'Baker St' },
      ownKeys: ['age'],
    });
  });

  test('nested instances hold only what was sent too', async () => {
    const res = await usersApp(models).inject({ method: 'PATCH', url: '/users/1', payload: { address: { city: 'Paris' } } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Ada', age: 36, address: { city: 'Paris' }, ownKeys: ['address'] });
    expect(res.json().address).not.toHaveProperty('street');
  });

  test('a PartialType of a model with a default keeps the default and nothing else', async () => {
    const res = await usersApp(models).inject({ method: 'PATCH', url: '/users/1/partial', payload: { name: 'Grace' } });
    expect(res.statusCode).toBe(200);
    // `role = 'user'` is the class's default: class-transformer keeps it, so does Tern.
    expect(res.json()).toEqual({
      merged: { id: 1, name: 'Grace', age: 36, role: 'user', address: { city: 'London', street: 'Baker St' } },
      ownKeys: expect.arrayContaining(['name', 'role']),
    });
    expect(res.json().ownKeys).toHaveLength(2);
  });

  test('the class-transformer fallback path behaves the same', async () => {
    const res = await usersApp(models).inject({ method: 'PATCH', url: '/users/1/trimmed', payload: { name: '  Lin  ' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ merged: { id: 1, name: 'Lin', age: 36, role: 'admin', address: { city: 'London', street: 'Baker St' } }, ownKeys: ['name'] });
  });

  test('a full body is still required where the model says so, and sent values are kept', async () => {
    const app = usersApp(models);
    const missing = await app.inject({ method: 'POST', url: '/users', payload: { name: 'Ada' } });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors.map((e: { path: string }) => e.path)).toEqual(expect.arrayContaining(['age', 'address']));
    const full = await app.inject({ method: 'POST', url: '/users', payload: { name: 'Ada', age: 36, address: { city: 'London' } } });
    expect(full.statusCode).toBe(200);
    expect(full.json().body).toEqual({ name: 'Ada', age: 36, role: 'user', address: { city: 'London' } });
    expect(full.json().ownKeys.sort()).toEqual(['address', 'age', 'name', 'role']);
  });
});
