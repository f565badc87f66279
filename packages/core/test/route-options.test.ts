/**
 * The route options table (routing/route-options.ts): every declaration style runs it once, and a
 * mistake is one coded startup error naming the route and the option, whatever else the route has.
 */
import { join } from 'node:path';
import { IsString } from 'class-validator';
import {
  buildOpenAPIDocument,
  Controller,
  Get,
  Group,
  Post,
  ROUTE_OPTION_NAMES,
  Router,
  Routes,
  routesFromConfig,
  TernApp,
  UploadedFile,
  type MultipartFile,
  type RouteInfo,
  type RouteOptions,
  type RouterOptions,
} from '@tern/core';
import { startupError, thrown } from '../../../test-support/thrown';

class Signup {
  @IsString() name: string;
}

const ok = async () => ({});

function appWith(declare: (app: TernApp) => void): TernApp {
  const app = new TernApp({ logger: false, openapi: { title: 'T', version: '1' } });
  declare(app);
  return app;
}

describe('one error for one mistake', () => {
  it('fails a bad consumes with one code whatever else the route has', async () => {
    const bad = 'application/json' as unknown as string[];
    const routes: Array<[string, Omit<RouteOptions, 'methods'>]> = [
      ['a plain route', { consumes: bad }],
      ['a route with a request model', { consumes: bad, requestModel: Signup }],
      ['a route hidden from the document', { consumes: bad, excludeFromSchema: true }],
    ];
    for (const [, options] of routes) {
      const error = await startupError(appWith((app) => app.post('/x', options, ok)));
      expect([error.code, error.message]).toEqual([
        'TERN_INVALID_ROUTE_OPTION',
        "Route POST /x: consumes must be a non-empty list of media types such as 'application/json', 'application/octet-stream' or 'image/*'.",
      ]);
    }
  });

  it("refuses tags: 'admin' (a string is not a list of tags)", async () => {
    const error = await startupError(appWith((app) => app.get('/x', { tags: 'admin' as unknown as string[] }, ok)));
    expect([error.code, error.message]).toEqual(['TERN_INVALID_ROUTE_OPTION', "Route GET /x: tags must be a list of strings, e.g. ['users']."]);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['tags', { tags: 'admin' }, "tags must be a list of strings, e.g. ['users']."],
    ['deprecated', { deprecated: 'yes' }, 'deprecated must be true or false.'],
    ['excludeFromSchema', { excludeFromSchema: 1 }, 'excludeFromSchema must be true or false.'],
    ['responses', { responses: 'User' }, 'responses must map status codes to schemas.'],
    ['multipart', { multipart: 'small' }, 'multipart must be { limits: { fileSize, files, fields, parts, fieldSize } }.'],
  ])("refuses a controller route's %s before the scanner merges it (no ['a','d','m','i','n'], nothing dropped)", async (_option, bad, says) => {
    const error = await startupError(
      appWith((app) => {
        @Controller('/c')
        class C {
          @Post('/a', bad)
          async a(@UploadedFile('f') f: MultipartFile) {
            return { size: f.size };
          }
        }
        app.registerControllers([C]);
      }),
    );
    expect([error.code, error.message]).toEqual(['TERN_INVALID_ROUTE_OPTION', `Route POST /c/a in C.a: ${says}`]);
  });

  it.each([42, 600, 199, 200.5, '201'])('refuses statusCode %p at startup instead of answering every request with a 500', async (statusCode) => {
    const error = await startupError(appWith((app) => app.post('/x', { statusCode: statusCode as number }, ok)));
    expect([error.code, error.message]).toEqual(['TERN_INVALID_ROUTE_OPTION', "Route POST /x: statusCode must be a status code from 200 to 599."]);
  });

  it.each([[[200]], ['422'], [[]], [[422.5]]])("refuses 'x-may-refuse' %p: it is a row of the table (4xx statuses), not a free extension", async (value) => {
    const error = await startupError(appWith((app) => app.post('/x', { 'x-may-refuse': value as number[] }, ok)));
    expect([error.code, error.message]).toEqual(['TERN_INVALID_ROUTE_OPTION', "Route POST /x: x-may-refuse must be a non-empty list of 4xx status codes, e.g. [422]."]);
  });

  it('refuses an unknown option from untyped code, and lists the real ones', async () => {
    const error = await startupError(appWith((app) => app.get('/x', { summery: 'typo' } as RouteOptions, ok)));
    expect(error.code).toBe('TERN_INVALID_ROUTE_OPTION');
    expect(error.message).toMatch(/^Route GET \/x: unknown option 'summery'\. Did you mean 'summary'\? Route options are .*\bsummary\b.*; put your own metadata in 'extra'\.$/);
  });

  it('refuses an unknown option in a route configuration file', async () => {
    const [route] = routesFromConfig([{ path: '/cfg', module: './config-handlers/health', export: 'health', summery: 'typo' } as never], {
      baseDir: join(__dirname, 'fixtures'),
    });
    const error = await startupError(appWith((app) => app.addRoute(route)));
    expect([error.code, error.message]).toEqual(['TERN_INVALID_ROUTE_OPTION', expect.stringContaining("Route GET /cfg: unknown option 'summery'")]);
  });

  it.each<[string, Partial<RouteOptions>, string]>([
    ['methods', { methods: ['G E T'] }, "must be a non-empty list of HTTP methods such as ['GET', 'POST']"],
    ['name', { name: '' }, 'must be a non-empty string'],
    ['responses', { responses: { 200: 'User' as never } }, "[200] must be a class, a Standard Schema (zod, valibot, arktype…), [Class], a { field: type } shape or { description }"],
    ['requestModel', { requestModel: 'Signup' as never }, 'must be a class or a Standard Schema (a zod, valibot or arktype schema…)'],
    ['middleware', { middleware: ['auth' as never] }, 'must be a list of async (req, res, next) functions'],
    ['security', { security: [{ bearerAuth: 'read' as never }] }, 'must be a list of requirements, each mapping scheme names to scopes, e.g. [{ bearerAuth: [] }]'],
    ['deprecated', { deprecated: 'yes' as never }, 'must be true or false'],
    ['multipart', { multipart: { limits: { files: 0 } } }, 'has limits.files must be a positive integer, got 0'],
    ['produces', { produces: { 200: 'png' } }, "must map status codes to a media type or a list of them, e.g. { 200: 'image/png' }"],
    ['problems', { problems: { 200: 'Fine' } as never }, "must map 4xx/5xx status codes to descriptions, e.g. { 404: 'No such note' }"],
    ['extra', { extra: 'x' as never }, 'must be an object'],
  ])("names the option: '%s'", async (option, options, says) => {
    const error = await startupError(appWith((app) => app.addRoute(new Routes({ path: '/x', handler: ok, ...options }))));
    const separator = says.startsWith('[') ? '' : ' ';
    expect([error.code, error.message]).toEqual(['TERN_INVALID_ROUTE_OPTION', expect.stringContaining(`: ${option}${separator}${says}.`)]);
  });
});

describe('every declaration style runs the table', () => {
  const bad = { statusCode: 42 };
  it.each<[string, (app: TernApp) => void, string]>([
    ['a method helper', (app) => app.get('/a', bad, ok), 'Route GET /a'],
    ['app.route', (app) => app.route('/a', { ...bad, methods: ['PUT'] }, ok), 'Route PUT /a'],
    ['a Routes object', (app) => app.addRoute(new Routes({ path: '/a', handler: ok, ...bad })), 'Route GET /a'],
    [
      'a router',
      (app) => {
        const router = new Router({ prefix: '/r' });
        router.get('/a', bad, ok);
        app.mountRouter(router);
      },
      'Route GET /r/a',
    ],
    ['a group', (app) => app.addRoute(new Group({ path: '/g', routes: [new Routes({ path: '/a', handler: ok, ...bad })] })), 'Route GET /g/a'],
    [
      'a controller',
      (app) => {
        @Controller('/c')
        class C {
          @Get('/a', bad)
          async a() {
            return {};
          }
        }
        app.registerControllers([C]);
      },
      'Route GET /c/a in C.a',
    ],
  ])('%s', async (_style, declare, where) => {
    const error = await startupError(appWith(declare));
    expect([error.code, error.message]).toEqual(['TERN_INVALID_ROUTE_OPTION', `${where}: statusCode must be a status code from 200 to 599.`]);
  });
});

describe('the options a router or group passes on to its routes', () => {
  it("refuses a router's tags: 'admin' instead of giving its routes the tags a, d, m, i, n", () => {
    const error = thrown(() => new Router({ prefix: '/admin', tags: 'admin' as unknown as string[] }));
    expect([error.code, error.message]).toEqual(['TERN_INVALID_ROUTE_OPTION', "Router '/admin': tags must be a list of strings, e.g. ['users']."]);
  });

  it("refuses a router option that does not exist ('tag' from JavaScript)", () => {
    const error = thrown(() => new Router({ prefix: '/r', tag: ['x'] } as unknown as RouterOptions));
    expect(error.code).toBe('TERN_INVALID_ROUTE_OPTION');
    expect(error.message).toMatch(/^Router '\/r': unknown option 'tag'\. Did you mean 'tags'\? Its options are prefix, routes, name, .*\bsecurity\b/);
  });

  it("refuses a router's middleware that is not a list of functions, and a group's excludeFromSchema that is not a flag", () => {
    const router = thrown(() => new Router({ prefix: '/r', middleware: 'auth' as unknown as [] }));
    const group = thrown(() => new Group({ path: '/g', excludeFromSchema: 'yes' as unknown as boolean }));
    expect([router.code, group.code]).toEqual(['TERN_INVALID_ROUTE_OPTION', 'TERN_INVALID_ROUTE_OPTION']);
    expect(router.message).toMatch(/^Router '\/r': middleware /);
    expect(group.message).toMatch(/^Group '\/g': excludeFromSchema /);
  });

  it("gives a router's checked tags to its routes, before their own", async () => {
    const app = appWith((a) => {
      const router = new Router({ prefix: '/admin', tags: ['admin'] });
      router.get('/stats', { tags: ['stats'] }, ok);
      a.mountRouter(router);
    });
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(document.paths['/admin/stats'].get.tags).toEqual(['admin', 'stats']);
  });
});

describe("methods that are no list ('GET')", () => {
  const methods = 'GET' as unknown as string[];
  const says = "methods must be a non-empty list of HTTP methods such as ['GET', 'POST'].";
  it.each<[string, (app: TernApp) => void, string]>([
    ['app.route', (app) => app.route('/a', { methods }, ok), 'Route GET /a'],
    ['a Routes object', (app) => app.addRoute(new Routes({ path: '/a', methods, handler: ok })), 'Route GET /a'],
    [
      'a route configuration file',
      (app) => {
        const config = [{ path: '/a', module: './config-handlers/health', export: 'health', methods }];
        for (const route of routesFromConfig(config, { baseDir: join(__dirname, 'fixtures') })) app.addRoute(route);
      },
      'Route GET /a',
    ],
    ['no methods at all (null)', (app) => app.addRoute(new Routes({ path: '/a', methods: null as never, handler: ok })), 'Route /a'],
  ])('%s: the one startup error, naming the route and the option', async (_style, declare, where) => {
    const error = await startupError(appWith(declare));
    expect([error.code, error.message]).toEqual(['TERN_INVALID_ROUTE_OPTION', `${where}: ${says}`]);
  });
});

describe('the route spec', () => {
  it('is frozen and normalised: methods upper case, media types lower case, lists copied', async () => {
    const tags = ['users'];
    const app = appWith((app) =>
      app.route('/x', { methods: ['post', 'PUT'], tags, consumes: ['Application/JSON', 'application/json'], requestModel: Signup, produces: { 201: 'Text/CSV' } }, ok),
    );
    await app.ready();
    const [route] = app.getAllRoutes();
    expect(route.options).toMatchObject({ methods: ['POST', 'PUT'], tags: ['users'], consumes: ['application/json'], produces: { 201: ['text/csv'] } });
    expect(Object.isFrozen(route.options)).toBe(true);
    expect(Object.isFrozen(route.options.tags)).toBe(true);
    tags.push('later');
    expect(route.tags).toEqual(['users']);
  });

  it('has a row for every option RouteOptions names', () => {
    // The table's type makes a missing row a compile error; this lists them for the reader.
    expect([...ROUTE_OPTION_NAMES].sort()).toEqual(
      [
        'bodyLimit', 'multipartLimit', 'methods', 'name', 'summary', 'description', 'operationId', 'responses', 'responseModel', 'requestModel', 'query',
        'middleware', 'tags', 'security', 'deprecated', 'parameters', 'excludeFromSchema', 'statusCode', 'consumes', 'multipart',
        'responseFiltering', 'produces', 'problems', 'declaredIn', 'forbidUnknownProperties', 'sse', 'extra', 'formTemplate', 'formContext', 'rateLimit',
        'x-may-refuse',
        'messageModel', 'maxPayload',
      ].sort(),
    );
  });
});

describe('RouteInfo carries what the document needs', () => {
  it('builds the document from copies of the public RouteInfo (no side channel to the compiled route)', async () => {
    @Controller('/files')
    class Files {
      @Post('/{id:int}')
      async put(@UploadedFile('file', { mimeTypes: ['image/png'] }) file: MultipartFile) {
        return { size: file.size };
      }
    }
    const app = appWith((app) => {
      app.get('/users/{id:int}', ok);
      app.registerControllers([Files]);
    });
    await app.ready();
    const copies: RouteInfo[] = app.getAllRoutes().map((route) => ({ ...route }));
    const document = buildOpenAPIDocument(copies, app.openapiConfig) as any;
    expect(document.paths['/users/{id}'].get.parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER } }]);
    expect(document.paths['/users/{id}'].get.responses[422]).toBeDefined();
    const upload = document.paths['/files/{id}'].post;
    expect(upload.requestBody.content['multipart/form-data'].schema.properties.file).toEqual({ type: 'string', format: 'binary' });

    const files = copies.find((r) => r.rawPath === '/files/{id:int}') as RouteInfo;
    expect(files.checksInput).toBe(true);
    expect(files.uploads).toEqual([{ name: 'file', multiple: false, required: true, mimeTypes: ['image/png'] }]);
    expect(files.params).toEqual([{ name: 'id', converter: 'int', schema: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER } }]);
    expect(files.pathShape).toBe('/files/{}');
  });
});
