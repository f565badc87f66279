import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Min, ValidateNested } from 'class-validator';
import { Controller, Get, HTTPBearer, OAuth2, PartialType, PickType, Put, Query, Req, TernApp, enforceSecurity, type Handler, type TernRequest } from '@tern/core';
import { ApiProperty } from '../src/openapi/api-property';

/**
 * The document tells the whole truth: the problem answers Tern gives by itself, property
 * documentation and defaults, content types, and the info, tags and servers of the options.
 */
const ok: Handler = async () => ({ ok: true });

async function documentOf(app: TernApp): Promise<any> {
  const response = await app.inject('/openapi.json');
  expect(response.statusCode).toBe(200);
  return response.json();
}

const problemRef = { $ref: '#/components/schemas/Problem' };
const statuses = (operation: any) => Object.keys(operation.responses);

class CreateNote {
  @ApiProperty({ description: 'Shown as the heading', example: 'Groceries', title: 'Title' })
  @IsString()
  title: string;

  @ApiProperty({ examples: [['home'], ['work', 'urgent']] })
  @IsOptional()
  @IsString({ each: true })
  tags?: string[];

  @ApiProperty({ writeOnly: true, format: 'password', deprecated: true })
  @IsOptional()
  @IsString()
  secret?: string;
}

class Note {
  @ApiProperty({ readOnly: true, description: 'Given by the server' })
  @IsInt()
  id: number;
}

class ListQuery {
  @ApiProperty({ description: 'Page number, from 1' })
  @IsOptional()
  @IsInt()
  @Min(1)
  page: number = 1;

  @IsOptional()
  @IsString()
  q?: string;
}

describe('automatic problem responses', () => {
  it('documents 400, 413, 415 and 422 on an operation with a JSON body, against one Problem schema', async () => {
    const app = new TernApp();
    app.post('/notes', { requestModel: CreateNote, statusCode: 201, responses: { 201: Note } }, ok);
    const document = await documentOf(app);
    const operation = document.paths['/notes'].post;
    expect(statuses(operation)).toEqual(['201', '400', '413', '415', '422']);
    expect(operation.responses[400].content['application/problem+json'].schema).toEqual(problemRef);
    expect(operation.responses[422].content['application/problem+json'].schema).toEqual({ $ref: '#/components/schemas/ValidationProblem' });
    expect(document.components.schemas.Problem).toMatchObject({ type: 'object', required: ['type', 'title', 'status', 'instance'] });
    expect(Object.keys(document.components.schemas.Problem.properties)).toEqual(['type', 'title', 'status', 'detail', 'instance', 'code']);
    expect(document.components.schemas.ValidationProblem.properties.errors.type).toBe('array');
  });

  it('documents only 413 on an operation that reads no input, 414 where it has a path parameter, and 422 where a converter can refuse', async () => {
    const app = new TernApp();
    app.get('/ping', ok);
    app.get('/items/{id:int}', ok);
    const { paths } = await documentOf(app);
    expect(statuses(paths['/ping'].get)).toEqual(['200', '413']);
    expect(statuses(paths['/items/{id}'].get)).toEqual(['200', '413', '414', '422']);
  });

  it('keeps a declared response for any of those statuses; one without a model keeps the problem body and takes the description', async () => {
    const app = new TernApp();
    app.post('/notes', { requestModel: CreateNote, responses: { 200: Note, 400: { description: 'Mine' }, 413: Note } }, ok);
    const { paths } = await documentOf(app);
    expect(paths['/notes'].post.responses[400]).toEqual({ description: 'Mine', content: { 'application/problem+json': { schema: problemRef } } });
    expect(paths['/notes'].post.responses[413].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Note' });
  });

  it('documents the errors a handler throws, from the problems option, as problems (what HTTPException sends)', async () => {
    const app = new TernApp();
    app.get('/notes/{id:int}', { responses: { 200: Note, 409: { description: 'Mine' } }, problems: { 404: 'No such note', 409: 'Taken' } }, ok);
    const { paths } = await documentOf(app);
    expect(paths['/notes/{id}'].get.responses[404]).toEqual({ description: 'No such note', content: { 'application/problem+json': { schema: problemRef } } });
    // `responses` names 409 without a model: the problem the handler throws, with the declared description.
    expect(paths['/notes/{id}'].get.responses[409]).toEqual({ description: 'Mine', content: { 'application/problem+json': { schema: problemRef } } });
    const bad = new TernApp();
    bad.get('/x', { problems: { 200: 'Fine' } }, ok);
    await expect(bad.ready()).rejects.toThrow(/problems must map 4xx\/5xx status codes to descriptions/);
  });

  it('is switched off with problemResponses: false', async () => {
    const app = new TernApp({ openapi: { problemResponses: false } });
    app.post('/notes', { requestModel: CreateNote }, ok);
    const document = await documentOf(app);
    expect(statuses(document.paths['/notes'].post)).toEqual(['200']);
    expect(document.components.schemas.Problem).toBeUndefined();
  });

  it("documents every error answer with the app's own error body, once declared as problemResponses: { schema } (issue 24 item 6)", async () => {
    class ErrorMessages {
      @IsString({ each: true }) body: string[];
    }
    class AppError {
      @ValidateNested() @Type(() => ErrorMessages) errors: ErrorMessages;
    }
    const app = new TernApp({ openapi: { problemResponses: { schema: AppError } } });
    app.openapiConfig.addSecurityScheme('bearer', new HTTPBearer());
    app.addMiddleware(enforceSecurity(app, { bearer: async () => 'user' }));
    app.post('/notes/{id:int}', { requestModel: CreateNote, security: [{ bearer: [] }], problems: { 404: 'No such note' } }, ok);
    const document = await documentOf(app);
    const responses = document.paths['/notes/{id}'].post.responses;
    expect(statuses(document.paths['/notes/{id}'].post).sort()).toEqual(['200', '400', '401', '404', '413', '414', '415', '422']);
    for (const status of ['400', '401', '404', '413', '414', '415', '422']) {
      expect(responses[status].content).toEqual({ 'application/json': { schema: { $ref: '#/components/schemas/AppError' } } });
    }
    expect(responses['401'].headers['WWW-Authenticate']).toBeDefined();
    expect(document.components.schemas.Problem).toBeUndefined();
    expect(document.components.schemas.AppError.properties.errors).toEqual({ $ref: '#/components/schemas/ErrorMessages' });

    const custom = new TernApp({ openapi: { problemResponses: { schema: { message: String }, mediaType: 'application/vnd.error+json' } } });
    custom.get('/items/{id:int}', ok);
    const item = (await documentOf(custom)).paths['/items/{id}'].get.responses;
    expect(item['422'].content['application/vnd.error+json'].schema).toMatchObject({ type: 'object', properties: { message: { type: 'string' } } });
    expect(() => new TernApp({ openapi: { problemResponses: { schema: AppError, mediaType: 'json' } } })).toThrow(expect.objectContaining({ code: 'TERN_INVALID_ARGUMENT' }));
    expect(() => new TernApp({ openapi: { problemResponses: { schema: 'AppError' } as never } })).toThrow(expect.objectContaining({ code: 'TERN_INVALID_ARGUMENT' }));
    // `true` is the default: problem+json.
    const explicit = new TernApp({ openapi: { problemResponses: true } });
    explicit.get('/items/{id:int}', ok);
    expect(Object.keys((await documentOf(explicit)).paths['/items/{id}'].get.responses['422'].content)).toEqual(['application/problem+json']);
  });

  it('documents 401 (with WWW-Authenticate) and 403 only where enforceSecurity enforces the declared security', async () => {
    const build = (enforce: boolean) => {
      const app = new TernApp();
      app.openapiConfig
        .addSecurityScheme('bearer', new HTTPBearer())
        .addSecurityScheme('oauth2', new OAuth2({ flows: { clientCredentials: { tokenUrl: 'https://auth.example/token', scopes: { write: 'Write' } } } }));
      if (enforce) app.addMiddleware(enforceSecurity(app, { bearer: async () => 'user', oauth2: async () => ({ user: 'u', scopes: [] }) }));
      app.get('/public', { security: [] }, ok);
      app.get('/optional', { security: [{ bearer: [] }, {}] }, ok);
      app.get('/me', { security: [{ bearer: [] }] }, ok);
      app.post('/write', { security: [{ oauth2: ['write'] }] }, ok);
      return app;
    };
    const enforced = (await documentOf(build(true))).paths;
    expect(statuses(enforced['/public'].get)).toEqual(['200', '413']);
    expect(statuses(enforced['/optional'].get)).toEqual(['200', '413']);
    expect(statuses(enforced['/me'].get)).toEqual(['200', '401', '413']);
    expect(enforced['/me'].get.responses[401].headers['WWW-Authenticate'].schema).toEqual({ type: 'string' });
    expect(statuses(enforced['/write'].post)).toEqual(['200', '401', '403', '413']);
    // Declaring never enforces: without the middleware nobody answers 401 or 403.
    const declared = (await documentOf(build(false))).paths;
    expect(statuses(declared['/write'].post)).toEqual(['200', '413']);
    const app = build(true);
    expect((await app.inject('/me')).statusCode).toBe(401);
  });

  it('says at the root that operations without security are public', async () => {
    const app = new TernApp();
    app.get('/ping', ok);
    expect((await documentOf(app)).security).toEqual([]);
  });
});

describe('query parameters and converters', () => {
  it('never types a @Query() model parameter as null, and documents its default and description', async () => {
    @Controller('/notes')
    class Notes {
      @Get('/')
      async list(@Query() query: ListQuery) {
        return query;
      }
    }
    const app = new TernApp();
    app.registerControllers([Notes]);
    const parameters = (await documentOf(app)).paths['/notes'].get.parameters;
    expect(parameters).toEqual([
      { name: 'page', in: 'query', required: false, description: 'Page number, from 1', schema: { type: 'integer', minimum: 1, default: 1, description: 'Page number, from 1' } },
      { name: 'q', in: 'query', required: false, schema: { type: 'string' } },
    ]);
    expect((await app.inject('/notes')).json()).toEqual({ page: 1 });
  });

  it("gives the int converter's schema its real bounds", async () => {
    const app = new TernApp();
    app.get('/items/{id:int}', ok);
    const [parameter] = (await documentOf(app)).paths['/items/{id}'].get.parameters;
    expect(parameter.schema).toEqual({ type: 'integer', minimum: 0, maximum: 2 ** 53 - 1 });
    expect((await app.inject(`/items/${2 ** 53}`)).statusCode).toBe(422);
  });
});

describe('property documentation', () => {
  it('copies @ApiProperty into the model schema', async () => {
    const app = new TernApp();
    app.post('/notes', { requestModel: CreateNote, responses: { 200: Note } }, ok);
    const { CreateNote: create, Note: note } = (await documentOf(app)).components.schemas;
    expect(create.properties.title).toEqual({ type: 'string', description: 'Shown as the heading', example: 'Groceries', title: 'Title' });
    expect(create.properties.tags).toEqual({ type: ['array', 'null'], items: { type: 'string' }, examples: [['home'], ['work', 'urgent']] });
    expect(create.properties.secret).toEqual({ type: ['string', 'null'], writeOnly: true, format: 'password', deprecated: true });
    expect(note.properties.id).toEqual({ type: 'integer', readOnly: true, description: 'Given by the server' });
  });

  it('carries @ApiProperty and initialiser defaults into subclasses and mapped types', async () => {
    class UpdateNote extends PartialType(CreateNote) {}
    class Paging extends PickType(ListQuery, ['page']) {}
    class Detailed extends CreateNote {}
    const app = new TernApp();
    app.patch('/notes', { requestModel: UpdateNote, responses: { 200: Detailed, 201: Paging } }, ok);
    const schemas = (await documentOf(app)).components.schemas;
    expect(schemas.UpdateNote.properties.title).toMatchObject({ description: 'Shown as the heading', example: 'Groceries' });
    expect(schemas.Detailed.properties.secret).toMatchObject({ writeOnly: true });
    expect(schemas.Paging.properties.page).toMatchObject({ default: 1, description: 'Page number, from 1' });
  });

  it('refuses unknown options and wrong types when the class is defined', () => {
    expect(() => ApiProperty({ descripton: 'typo' } as never)).toThrow(/unknown option 'descripton'/);
    expect(() => ApiProperty({ readOnly: 'yes' } as never)).toThrow(/'readOnly' must be a boolean/);
  });
});

describe('content types', () => {
  it('documents consumes and produces and answers 415 for a body of another type', async () => {
    const app = new TernApp();
    app.put('/avatar', { consumes: ['image/png', 'image/jpeg'], produces: { 200: 'image/png' } }, async (req, res) => res.send(Buffer.from('png'), 'image/png'));
    app.get('/report', { responses: { 200: { rows: [String] } }, produces: { 200: ['application/json', 'text/csv'] } }, ok);
    const { paths } = await documentOf(app);
    expect(paths['/avatar'].put.requestBody).toEqual({ required: true, content: { 'image/png': {}, 'image/jpeg': {} } });
    expect(paths['/avatar'].put.responses[200]).toEqual({ description: 'Successful Response', content: { 'image/png': {} } });
    expect(statuses(paths['/avatar'].put)).toEqual(['200', '413', '415']);
    expect(Object.keys(paths['/report'].get.responses[200].content)).toEqual(['application/json', 'text/csv']);
    expect(paths['/report'].get.responses[200].content['text/csv']).toEqual({ schema: { type: 'string' } });

    const png = await app.inject({ method: 'PUT', url: '/avatar', headers: { 'content-type': 'image/png' }, payload: 'x' });
    expect(png.statusCode).toBe(200);
    const text = await app.inject({ method: 'PUT', url: '/avatar', headers: { 'content-type': 'text/plain' }, payload: 'x' });
    expect(text.statusCode).toBe(415);
    expect(text.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(text.json()).toMatchObject({ code: 'TERN_UNSUPPORTED_MEDIA_TYPE', detail: "This route accepts image/png, image/jpeg, not 'text/plain'." });
    expect((await app.inject({ method: 'PUT', url: '/avatar' })).statusCode).toBe(200);
  });

  it('takes consumes and produces from a controller method decorator', async () => {
    @Controller('/files')
    class Files {
      @Put('/{name}', { consumes: ['application/octet-stream'], produces: { 200: 'text/plain' } })
      async upload(@Req() req: TernRequest) {
        return `stored ${req.headers.get('content-length')} bytes`;
      }
    }
    const app = new TernApp();
    app.registerControllers([Files]);
    const operation = (await documentOf(app)).paths['/files/{name}'].put;
    expect(operation.requestBody.content).toEqual({ 'application/octet-stream': {} });
    expect(operation.responses[200].content).toEqual({ 'text/plain': { schema: { type: 'string' } } });
    const refused = await app.inject({ method: 'PUT', url: '/files/a', headers: { 'content-type': 'application/json' }, payload: '{}' });
    expect(refused.statusCode).toBe(415);
    const stored = await app.inject({ method: 'PUT', url: '/files/a', headers: { 'content-type': 'application/octet-stream' }, payload: 'abc' });
    expect([stored.statusCode, stored.body]).toEqual([200, 'stored 3 bytes']);
  });

  it('fails ready() on a consumes entry that is not a media type', async () => {
    const app = new TernApp();
    app.post('/x', { consumes: ['png'] }, ok);
    await expect(app.ready()).rejects.toThrow(/consumes must be a non-empty list of media types/);
  });
});

describe('info, tags, externalDocs and servers', () => {
  it("takes all of OpenAPI's info and lists every tag once, declared ones first", async () => {
    const info = {
      title: 'Notes',
      version: '1.0.0',
      summary: 'Notes for everyone',
      termsOfService: 'https://example.org/terms',
      contact: { name: 'API team', email: 'api@example.org' },
      license: { name: 'MIT', identifier: 'MIT' },
    };
    const app = new TernApp({
      openapi: {
        ...info,
        servers: [{ url: 'https://{region}.example.org', variables: { region: { default: 'eu', enum: ['eu', 'us'] } } }],
        tags: [{ name: 'notes', description: 'Writing things down', externalDocs: { url: 'https://example.org/notes' } }, { name: 'unused' }],
        externalDocs: { url: 'https://example.org/docs', description: 'Guides' },
      },
    });
    app.get('/admin', { tags: ['admin', 'notes'] }, ok);
    app.get('/notes', { tags: ['notes', 'public'] }, ok);
    const document = await documentOf(app);
    expect(document.info).toEqual(info);
    expect(document.servers[0].variables.region.default).toBe('eu');
    expect(document.tags).toEqual([
      { name: 'notes', description: 'Writing things down', externalDocs: { url: 'https://example.org/notes' } },
      { name: 'unused' },
      { name: 'admin' },
      { name: 'public' },
    ]);
    expect(document.externalDocs).toEqual({ url: 'https://example.org/docs', description: 'Guides' });
  });
});
