import { IsInt, IsString } from 'class-validator';
import {
  Convertor,
  Group,
  OpenAPIDocumentError,
  Router,
  Routes,
  TernApp,
  buildOpenAPIDocument,
  registerUrlConvertor,
  type Handler,
} from '@tern/core';

const ok: Handler = async () => ({ ok: true });

class User {
  @IsInt() id: number;
  @IsString() name: string;
}

class CreateUser {
  @IsString() name: string;
}

/** The document the app serves. */
async function documentOf(app: TernApp): Promise<any> {
  const response = await app.inject('/openapi.json');
  expect(response.statusCode).toBe(200);
  return response.json();
}

const problemRef = { $ref: '#/components/schemas/ValidationProblem' };
const validationError = { description: 'Validation Error', content: { 'application/problem+json': { schema: problemRef } } };
const problem = (description: string) => ({ description, content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } });

describe('the document', () => {
  it('is OpenAPI 3.1 with info and servers from the app options', async () => {
    const app = new TernApp({
      openapi: { title: 'Shop', version: '2.1.0', description: 'Buy things', servers: [{ url: 'https://api.example.com', description: 'prod' }] },
    });
    app.get('/ping', ok);
    const document = await documentOf(app);
    expect(document.openapi).toBe('3.1.0');
    expect(document.info).toEqual({ title: 'Shop', version: '2.1.0', description: 'Buy things' });
    expect(document.servers).toEqual([{ url: 'https://api.example.com', description: 'prod' }]);
  });

  it('has defaults for info and no empty sections', async () => {
    // Without the automatic problem responses (openapi-contract.test.ts), to see the bare minimum.
    const app = new TernApp({ openapi: { problemResponses: false } });
    app.get('/ping', ok);
    expect(await documentOf(app)).toEqual({
      openapi: '3.1.0',
      info: { title: 'Tern API', version: '0.1.0' },
      paths: { '/ping': { get: { operationId: 'get_ping', responses: { 200: { description: 'Successful Response' } } } } },
      // Routes without `security` are public: the root says so, so linters see no forgotten requirement.
      security: [],
      // The origin the document was fetched from, said out loud (Redocly's no-empty-servers).
      servers: [{ url: '/' }],
    });
  });

  it('can be built without serving it, from getAllRoutes()', () => {
    const app = new TernApp({ openapi: { openapiPath: false } });
    app.get('/ping', { summary: 'Ping' }, ok);
    const document = buildOpenAPIDocument(app.getAllRoutes(), app.openapiConfig);
    expect(document.paths?.['/ping'].get?.summary).toBe('Ping');
  });
});

describe('paths and path parameters', () => {
  it('writes paths without converters and types each parameter by its converter', async () => {
    const app = new TernApp();
    app.get('/a/{id:int}/{price:float}/{key:uuid}/{slug:slug}/{name}/{rest:path}', ok);
    const operation = (await documentOf(app)).paths['/a/{id}/{price}/{key}/{slug}/{name}/{rest}'].get;
    expect(operation.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER } },
      { name: 'price', in: 'path', required: true, schema: { type: 'number', minimum: 0 } },
      // Strings are bounded by maxParamLength (a longer value is a 414).
      { name: 'key', in: 'path', required: true, schema: { type: 'string', format: 'uuid', maxLength: 100 } },
      { name: 'slug', in: 'path', required: true, schema: { type: 'string', pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$', maxLength: 100 } },
      { name: 'name', in: 'path', required: true, schema: { type: 'string', maxLength: 100 } },
      { name: 'rest', in: 'path', required: true, schema: { type: 'string', maxLength: 100 } },
    ]);
  });

  it('uses a custom converter’s schema, or its regex as a pattern when it declares none', async () => {
    class VersionConvertor extends Convertor<number> {
      regex = 'v[0-9]+';
      override openapi = { type: 'string', pattern: '^v[0-9]+$', examples: ['v2'] };
      convert(value: string) {
        return Number(value.slice(1));
      }
      toString(value: number) {
        return `v${value}`;
      }
    }
    class YearConvertor extends Convertor<number> {
      regex = '[0-9]{4}';
      convert(value: string) {
        return Number(value);
      }
      toString(value: number) {
        return String(value);
      }
    }
    registerUrlConvertor('docVersion', new VersionConvertor());
    registerUrlConvertor('docYear', new YearConvertor());
    const app = new TernApp();
    app.get('/api/{v:docVersion}/archive/{year:docYear}', ok);
    const operation = (await documentOf(app)).paths['/api/{v}/archive/{year}'].get;
    expect(operation.parameters.map((p: any) => p.schema)).toEqual([
      { type: 'string', pattern: '^v[0-9]+$', examples: ['v2'], maxLength: 100 },
      { type: 'string', pattern: '^(?:[0-9]{4})$', maxLength: 100 },
    ]);
    // A custom converter can refuse values: the 422 is documented.
    expect(operation.responses[422]).toEqual(validationError);
  });

  it('gives routes that differ only in a converter one path, accepting either value', async () => {
    const app = new TernApp();
    app.get('/items/{id:int}', { summary: 'By id' }, ok);
    app.get('/items/{slug:slug}', { summary: 'By slug' }, ok);
    app.delete('/items/{key:uuid}', ok);
    const { paths } = await documentOf(app);
    expect(Object.keys(paths)).toEqual(['/items/{id}']);
    expect(paths['/items/{id}'].get.summary).toBe('By id');
    expect(paths['/items/{id}'].get.parameters[0].schema).toEqual({
      anyOf: [{ type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER }, { type: 'string', pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$', maxLength: 100 }],
    });
    expect(paths['/items/{id}'].delete.parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid', maxLength: 100 } }]);
  });

  it('adds the route’s own parameters after the path ones, a declared path parameter refining the generated one', async () => {
    const app = new TernApp();
    app.get(
      '/users/{id:int}',
      {
        parameters: [
          { name: 'id', in: 'path', description: 'The user id', schema: { type: 'integer', minimum: 1 } },
          { name: 'expand', in: 'query', schema: { type: 'string', enum: ['posts'] } },
          { name: 'X-Trace', in: 'header', required: false, schema: { type: 'string' } },
          { name: 'theme', in: 'cookie', schema: { type: 'string' } },
        ],
      },
      ok,
    );
    expect((await documentOf(app)).paths['/users/{id}'].get.parameters).toEqual([
      { name: 'id', in: 'path', required: true, description: 'The user id', schema: { type: 'integer', minimum: 1 } },
      { name: 'expand', in: 'query', schema: { type: 'string', enum: ['posts'] } },
      { name: 'X-Trace', in: 'header', required: false, schema: { type: 'string' } },
      { name: 'theme', in: 'cookie', schema: { type: 'string' } },
    ]);
  });

  it('refuses parameters it cannot describe', async () => {
    const bad = new TernApp();
    bad.get('/x', { parameters: [{ name: 'q' } as any] }, ok);
    await expect(bad.ready()).rejects.toMatchObject({ code: 'TERN_INVALID_ROUTE_OPTION', message: expect.stringContaining('parameters[0]') });
    const ghost = new TernApp();
    ghost.get('/x', { parameters: [{ name: 'id', in: 'path', schema: { type: 'string' } }] }, ok);
    await expect(ghost.ready()).rejects.toMatchObject({ code: 'TERN_INVALID_OPENAPI_METADATA', message: expect.stringContaining("'id'") });
  });
});

describe('operations', () => {
  it('carry summary, description, tags (containers first), deprecated and extensions', async () => {
    const app = new TernApp({ openapi: { problemResponses: false } });
    const inner = new Router({ prefix: '/users', tags: ['users', 'shared'] });
    inner.get('/', { summary: 'List users', description: 'All of them.', tags: ['shared', 'list'], deprecated: true, 'x-rate-limit': 10 }, ok);
    const outer = new Router({ prefix: '/api', tags: ['api'] });
    outer.mountRouter(inner);
    app.mountRouter(outer);
    expect((await documentOf(app)).paths['/api/users'].get).toEqual({
      tags: ['api', 'users', 'shared', 'list'],
      summary: 'List users',
      description: 'All of them.',
      operationId: 'get_api_users',
      responses: { 200: { description: 'Successful Response' } },
      deprecated: true,
      'x-rate-limit': 10,
    });
  });

  it('leaves out tags, deprecated and security when not declared', async () => {
    const app = new TernApp();
    app.get('/plain', { deprecated: false }, ok);
    expect(Object.keys((await documentOf(app)).paths['/plain'].get).sort()).toEqual(['operationId', 'responses']);
  });

  it('document every style of declaration: helpers, Routes, routers, groups and providers', async () => {
    const app = new TernApp();
    app.get('/helper', ok);
    app.route('/multi', { methods: ['GET', 'POST'] }, ok);
    app.addRoute(new Routes({ path: '/object', methods: ['PUT'], handler: ok }));
    const router = new Router({ prefix: '/router' });
    router.patch('/x', ok);
    app.mountRouter(router);
    const group = new Group({ path: '/group', routes: [new Routes({ path: '/y', methods: ['DELETE'], handler: ok })] });
    group.routes.push(new Group({ path: '/nested', routes: [new Routes({ path: '/z', methods: ['OPTIONS'], handler: ok })] }));
    app.addRoute(group);
    app.addRouteProvider({ provide: () => [new Routes({ path: '/provided', methods: ['HEAD'], handler: ok })] });
    const { paths } = await documentOf(app);
    const operations = Object.entries(paths).flatMap(([path, item]) => Object.keys(item as object).map((method) => `${method} ${path}`));
    expect(operations).toEqual([
      'get /helper',
      'get /multi',
      'post /multi',
      'put /object',
      'patch /router/x',
      'delete /group/y',
      'options /group/nested/z',
      'head /provided',
    ]);
  });

  it('does not document the automatic HEAD of GET routes, mounted apps or Tern’s own routes', async () => {
    const app = new TernApp();
    app.get('/page', ok);
    app.addRoute(new Group({ path: '/legacy', app: (req, res) => res.end('legacy') }));
    const document = await documentOf(app);
    expect(document.paths).toEqual({ '/page': { get: expect.any(Object) } });
    expect((await app.inject({ method: 'HEAD', url: '/page' })).statusCode).toBe(200);
  });

  it('hides excludeFromSchema routes and routers, nested ones included', async () => {
    const app = new TernApp();
    app.get('/shown', ok);
    app.get('/hidden', { excludeFromSchema: true }, ok);
    const hidden = new Router({ prefix: '/admin', excludeFromSchema: true });
    hidden.get('/stats', ok);
    const nested = new Router({ prefix: '/deeper' });
    nested.get('/still-hidden', ok);
    hidden.mountRouter(nested);
    app.mountRouter(hidden);
    expect(Object.keys((await documentOf(app)).paths)).toEqual(['/shown']);
    // Hidden is not disabled.
    expect((await app.inject('/admin/deeper/still-hidden')).statusCode).toBe(200);
  });

  it('hides the routes of a group with excludeFromSchema, nested groups included', async () => {
    const app = new TernApp();
    app.get('/shown', ok);
    app.addRoute(
      new Group({
        path: '/internal',
        excludeFromSchema: true,
        routes: [new Routes({ path: '/a', handler: ok }), new Group({ path: '/b', routes: [new Routes({ path: '/c', handler: ok })] })],
      }),
    );
    expect(Object.keys((await documentOf(app)).paths)).toEqual(['/shown']);
    expect((await app.inject('/internal/b/c')).statusCode).toBe(200);
  });
});

describe('operationId', () => {
  it('defaults to the route name, dots as underscores, else method and path', async () => {
    const app = new TernApp();
    const users = new Router({ prefix: '/users', name: 'users' });
    users.get('/{id:int}', { name: 'get' }, ok);
    app.mountRouter(users);
    app.get('/users/{id:int}/posts/{slug:slug}', ok);
    app.get('/', ok);
    app.route('/items', { methods: ['GET', 'POST'], name: 'items' }, ok);
    app.route('/things', { methods: ['GET', 'POST'] }, ok);
    const { paths } = await documentOf(app);
    expect(paths['/users/{id}'].get.operationId).toBe('users_get');
    expect(paths['/users/{id}/posts/{slug}'].get.operationId).toBe('get_users_id_posts_slug');
    expect(paths['/'].get.operationId).toBe('get_root');
    expect([paths['/items'].get.operationId, paths['/items'].post.operationId]).toEqual(['items_get', 'items_post']);
    expect([paths['/things'].get.operationId, paths['/things'].post.operationId]).toEqual(['get_things', 'post_things']);
  });

  it('suffixes a default that is taken, never taking an explicit id', async () => {
    const app = new TernApp();
    app.get('/a-b', ok); // get_a_b
    app.get('/a_b', ok); // get_a_b again → get_a_b_2
    app.get('/a/b', { operationId: 'get_a_b_3' }, ok); // explicit, reserved first
    app.get('/a.b', ok); // → get_a_b_4
    const { paths } = await documentOf(app);
    expect([paths['/a-b'], paths['/a_b'], paths['/a/b'], paths['/a.b']].map((item: any) => item.get.operationId)).toEqual([
      'get_a_b',
      'get_a_b_2',
      'get_a_b_3',
      'get_a_b_4',
    ]);
  });

  it('is the same on every build', async () => {
    const build = () => {
      const app = new TernApp();
      app.get('/x', ok);
      app.get('/x/{id:int}', ok);
      app.route('/x', { methods: ['POST', 'PUT'] }, ok);
      return documentOf(app);
    };
    expect(await build()).toEqual(await build());
  });

  it('uses an explicit operationId, per method when the route has several', async () => {
    const app = new TernApp();
    app.get('/me', { operationId: 'whoAmI' }, ok);
    app.route('/both', { methods: ['GET', 'POST'], operationId: 'both' }, ok);
    const { paths } = await documentOf(app);
    expect(paths['/me'].get.operationId).toBe('whoAmI');
    expect([paths['/both'].get.operationId, paths['/both'].post.operationId]).toEqual(['both_get', 'both_post']);
  });

  it('fails ready() when two operations declare one operationId', async () => {
    const app = new TernApp();
    app.get('/a', { operationId: 'same' }, ok);
    app.post('/b', { operationId: 'same' }, ok);
    const error = await app.ready().catch((err) => err);
    expect(error).toBeInstanceOf(OpenAPIDocumentError);
    expect(error.code).toBe('TERN_DUPLICATE_OPERATION_ID');
    expect(error.message).toBe("operationId 'same' is used by GET /a and POST /b; operation ids must be unique in the document.");
  });
});

describe('request bodies and responses', () => {
  it('describes requestModel as a required JSON body and documents the 422', async () => {
    const app = new TernApp();
    app.post('/users', { requestModel: CreateUser, statusCode: 201, responses: { 201: User } }, ok);
    const document = await documentOf(app);
    expect(document.paths['/users'].post.requestBody).toEqual({
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/CreateUser' } } },
    });
    expect(document.paths['/users'].post.responses).toEqual({
      201: { description: 'Successful Response', content: { 'application/json': { schema: { $ref: '#/components/schemas/User' } } } },
      // Reading a JSON body can also fail before validation: each is a problem Tern answers itself.
      400: problem('The body is not valid JSON, or the request is malformed.'),
      413: problem('The body is larger than the body limit.'),
      415: problem('The Content-Type is not one this operation accepts.'),
      422: validationError,
    });
    expect(Object.keys(document.components.schemas)).toEqual(['CreateUser', 'User', 'Problem', 'ValidationProblem']);
    expect(document.components.schemas.ValidationProblem.required).toEqual(['type', 'title', 'status', 'instance']);
  });

  it('renders every response shape: a class, [Class], a field shape and a description', async () => {
    const app = new TernApp({ openapi: { problemResponses: false } });
    app.get(
      '/users',
      {
        responses: {
          200: [User],
          201: User,
          202: { id: Number, tags: [String], owner: User },
          404: { description: 'No such user' },
        },
      },
      ok,
    );
    const json = (schema: unknown) => ({ 'application/json': { schema } });
    expect((await documentOf(app)).paths['/users'].get.responses).toEqual({
      200: { description: 'Successful Response', content: json({ type: 'array', items: { $ref: '#/components/schemas/User' } }) },
      201: { description: 'Created', content: json({ $ref: '#/components/schemas/User' }) },
      202: {
        description: 'Accepted',
        content: json({
          type: 'object',
          properties: { id: { type: 'number' }, tags: { type: 'array', items: { type: 'string' } }, owner: { $ref: '#/components/schemas/User' } },
          required: ['id', 'tags', 'owner'],
        }),
      },
      404: { description: 'No such user' },
    });
  });

  it('adds the success response only when no success status is declared', async () => {
    const app = new TernApp({ openapi: { problemResponses: false } });
    app.delete('/a', { statusCode: 204 }, ok);
    app.get('/b', { responses: { 404: { description: 'Gone' } } }, ok);
    app.get('/c', { responses: { 302: { description: 'Elsewhere' } } }, ok);
    const { paths } = await documentOf(app);
    expect(paths['/a'].delete.responses).toEqual({ 204: { description: 'Successful Response' } });
    expect(paths['/b'].get.responses).toEqual({ 200: { description: 'Successful Response' }, 404: { description: 'Gone' } });
    expect(paths['/c'].get.responses).toEqual({ 302: { description: 'Elsewhere' } });
  });

  it('lists responses as JSON lists object keys: status codes ascending, then ranges and default as declared', async () => {
    const app = new TernApp();
    const responses = { default: { description: 'Other' }, 404: { description: 'Gone' }, '4XX': { description: 'Client' }, 201: { description: 'Made' } };
    app.post('/things/{id:int}', { responses }, ok);
    const response = await app.inject('/openapi.json');
    const operation = JSON.parse(response.body).paths['/things/{id}'].post;
    expect(Object.keys(operation.responses)).toEqual(['201', '404', '413', '414', '422', 'default', '4XX']);
    expect(operation.responses['201']).toEqual({ description: 'Made' });
  });

  it.each(['99', '600', '6XX', '2xx', 'ok'])("fails ready() on a responses key that is not a status code: '%s'", async (status) => {
    const app = new TernApp();
    app.get('/things', { responses: { [status]: { description: 'Odd' } } }, ok);
    await expect(app.ready()).rejects.toMatchObject({
      code: 'TERN_INVALID_ROUTE_OPTION',
      message: `Route GET /things: responses has '${status}', which is not an HTTP status code (100-599, '2XX' or 'default').`,
    });
  });

  it('keeps a declared 422 (its description on the validation problem) and documents none where nothing can fail', async () => {
    const app = new TernApp();
    app.get('/a/{id:int}', { responses: { 422: { description: 'Mine' } } }, ok);
    app.get('/b/{name}/{rest:path}', ok);
    const { paths } = await documentOf(app);
    expect(paths['/a/{id}'].get.responses[422]).toEqual({ description: 'Mine', content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/ValidationProblem' } } } });
    expect(paths['/b/{name}/{rest}'].get.responses[422]).toBeUndefined();
  });

  it('names the validation problem so it never collides with a model', async () => {
    class ValidationProblem {
      @IsString() reason: string;
    }
    const app = new TernApp();
    app.post('/x', { requestModel: CreateUser, responses: { 400: ValidationProblem } }, ok);
    const document = await documentOf(app);
    expect(Object.keys(document.components.schemas)).toEqual(['CreateUser', 'ValidationProblem', 'Problem', 'ValidationProblem_2']);
    expect(document.paths['/x'].post.responses[422].content['application/problem+json'].schema).toEqual({
      $ref: '#/components/schemas/ValidationProblem_2',
    });
  });

  it('uses responseModel (route files) as the success schema', async () => {
    const app = new TernApp();
    app.get('/me', { responseModel: User }, ok);
    expect((await documentOf(app)).paths['/me'].get.responses[200]).toEqual({
      description: 'Successful Response',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/User' } } },
    });
  });

  it('fails ready() with the route named when a response shape cannot be described', async () => {
    const app = new TernApp();
    app.get('/x', { responses: { 200: [User, User] as any } }, ok);
    await expect(app.ready()).rejects.toMatchObject({
      code: 'TERN_INVALID_OPENAPI_METADATA',
      message: expect.stringMatching(/^Route GET \/x: responses\[200\]: .*exactly one type/),
    });
    const badStatus = new TernApp();
    badStatus.get('/y', { responses: { 42: User } }, ok);
    await expect(badStatus.ready()).rejects.toMatchObject({ code: 'TERN_INVALID_ROUTE_OPTION', message: expect.stringContaining("'42'") });
  });
});
