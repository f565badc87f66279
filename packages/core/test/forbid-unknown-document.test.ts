/**
 * `forbidUnknownProperties` in the document: a route that answers 422 to a property its model does
 * not declare documents its body closed (`additionalProperties: false`, on `Name-Strict`
 * components), while the same model read by a route that strips unknown properties, or written
 * by a response, stays open. `checkContract` holds both readings to what the app does.
 */
import { IsInt, IsObject, IsOptional, IsString, Min, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { Body, Controller, MakeConfig, Post, TernApp, type TernAppOptions } from '@tern/core';
import { checkContract } from '@tern/core/testing';

class Address {
  @IsString() city!: string;
}

class Tag {
  @IsString() label!: string;
}

class Note {
  @IsString() text!: string;
}

class CreateUser {
  @IsString() name!: string;
  @IsInt() @Min(0) age!: number;
  @IsOptional() @ValidateNested() @Type(() => Address) address?: Address;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => Tag) tags?: Tag[];
  /** Not validated inside (no @ValidateNested): its properties are not checked, so not refused. */
  @IsOptional() @IsObject() note?: Note;
}

const USER = { name: 'Ada', age: 36 };

function usersApp(options: TernAppOptions = {}): TernApp {
  const app = new TernApp({ logger: false, ...options });
  app.post('/plain', { requestModel: CreateUser, responses: { 200: CreateUser } }, async (req) => req.body as object);
  app.post('/forbid', { requestModel: CreateUser, forbidUnknownProperties: true, responses: { 200: CreateUser } }, async (req) => req.body as object);
  app.post('/allow', { requestModel: CreateUser, forbidUnknownProperties: false }, async (req) => req.body as object);
  return app;
}

type Schema = Record<string, unknown>;
interface Doc {
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Schema }> }; responses: Record<string, { content?: Record<string, { schema: Schema }> }> }>>;
  components: { schemas: Record<string, Schema> };
}

async function documentOf(app: TernApp): Promise<Doc> {
  return (await app.inject('/openapi.json')).json() as Doc;
}

function bodyRef(document: Doc, path: string): string {
  return document.paths[path].post.requestBody?.content['application/json'].schema.$ref as string;
}

describe('forbidUnknownProperties in the document', () => {
  test('the route option closes its body and the models validated inside it; other readings stay open', async () => {
    const app = usersApp();
    const document = await documentOf(app);
    const schemas = document.components.schemas;
    expect(bodyRef(document, '/forbid')).toBe('#/components/schemas/CreateUser-Strict');
    expect(bodyRef(document, '/plain')).toBe('#/components/schemas/CreateUser');
    expect(bodyRef(document, '/allow')).toBe('#/components/schemas/CreateUser');
    expect(document.paths['/forbid'].post.responses['200'].content?.['application/json'].schema).toEqual({ $ref: '#/components/schemas/CreateUser' });

    const strict = schemas['CreateUser-Strict'] as { additionalProperties?: unknown; properties: Record<string, Schema> };
    expect(strict.additionalProperties).toBe(false);
    // Optional properties accept null too (`@IsOptional()`).
    const orNull = (schema: Schema) => ({ anyOf: [schema, { type: 'null' }] });
    expect(strict.properties.address).toEqual(orNull({ $ref: '#/components/schemas/Address-Strict' }));
    expect(strict.properties.tags).toEqual({ type: ['array', 'null'], items: { $ref: '#/components/schemas/Tag-Strict' } });
    expect(strict.properties.note).toEqual(orNull({ $ref: '#/components/schemas/Note' }));
    expect(schemas['Address-Strict'].additionalProperties).toBe(false);
    expect(schemas['Tag-Strict'].additionalProperties).toBe(false);
    for (const open of ['CreateUser', 'Address', 'Tag', 'Note']) expect(schemas[open].additionalProperties).toBeUndefined();

    // What the document says is what the app does.
    const refused = async (payload: object) => (await app.inject({ method: 'POST', url: '/forbid', payload })).statusCode;
    expect(await refused({ ...USER, admin: true })).toBe(422);
    expect(await refused({ ...USER, address: { city: 'London', zip: 'NW1' } })).toBe(422);
    expect(await refused({ ...USER, tags: [{ label: 'a', colour: 'red' }] })).toBe(422);
    expect(await refused({ ...USER, note: { text: 'hi', extra: 1 } })).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/plain', payload: { ...USER, admin: true } })).statusCode).toBe(200);
  });

  test('the app setting closes every body but those of routes that opt out', async () => {
    const document = await documentOf(usersApp({ config: new MakeConfig({ forbidUnknownProperties: true }) }));
    expect(bodyRef(document, '/plain')).toBe('#/components/schemas/CreateUser-Strict');
    expect(bodyRef(document, '/forbid')).toBe('#/components/schemas/CreateUser-Strict');
    expect(bodyRef(document, '/allow')).toBe('#/components/schemas/CreateUser');
  });

  test('a controller option closes its @Body() models; a route option overrides it', async () => {
    @Controller('/users', { forbidUnknownProperties: true })
    class Users {
      @Post('/')
      async create(@Body() dto: CreateUser) {
        return dto;
      }
      @Post('/lenient', { forbidUnknownProperties: false })
      async lenient(@Body() dto: CreateUser) {
        return dto;
      }
    }
    const app = new TernApp({ logger: false });
    app.registerControllers([Users]);
    const document = await documentOf(app);
    expect(bodyRef(document, '/users')).toBe('#/components/schemas/CreateUser-Strict');
    expect(bodyRef(document, '/users/lenient')).toBe('#/components/schemas/CreateUser');
    expect((await app.inject({ method: 'POST', url: '/users', payload: { ...USER, admin: true } })).statusCode).toBe(422);
  });

  test('checkContract finds nothing: closed bodies refuse extras, open ones accept them', async () => {
    await expect(checkContract(usersApp(), { seed: 24, runs: 40 })).resolves.toBeDefined();
    await expect(checkContract(usersApp({ config: new MakeConfig({ forbidUnknownProperties: true }) }), { seed: 7, runs: 40 })).resolves.toBeDefined();
  });
});
