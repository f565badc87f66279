import { IsString } from 'class-validator';
import {
  ApiResponse,
  Controller,
  Delete,
  Deprecated,
  Description,
  ExcludeFromSchema,
  Get,
  Head,
  HTTPBearer,
  OperationId,
  Options,
  Patch,
  Post,
  Public,
  Put,
  Req,
  Res,
  Route,
  RouteConflictError,
  Router,
  Security,
  Summary,
  Tags,
  TernApp,
  UseMiddleware,
  type RouteInfo,
  type Middleware,
  type TernRequest,
  type TernResponse,
} from '@tern/core';

class UserDto {
  @IsString() name!: string;
}

function routesOf(...controllers: Array<Function | object>): RouteInfo[] {
  const app = new TernApp();
  app.registerControllers(controllers);
  return app.getAllRoutes();
}

function routeAt(routes: RouteInfo[], method: string, rawPath: string): RouteInfo {
  const route = routes.find((r) => r.rawPath === rawPath && r.methods.includes(method));
  if (!route) throw new Error(`no ${method} ${rawPath} in ${routes.map((r) => `${r.methods} ${r.rawPath}`).join('; ')}`);
  return route;
}

function tracer(log: string[], name: string): Middleware {
  return async (req, res, next) => {
    log.push(name);
    return next();
  };
}

describe('controller decorators', () => {
  it('serves every HTTP method decorator under the controller prefix', async () => {
    @Controller('/items')
    class Items {
      @Get() async get() { return { method: 'GET' }; }
      @Post() async post() { return { method: 'POST' }; }
      @Put() async put() { return { method: 'PUT' }; }
      @Patch() async patch() { return { method: 'PATCH' }; }
      @Delete() async remove() { return { method: 'DELETE' }; }
      @Options() async options(@Res() res: TernResponse) { return res.setHeader('Allow', 'GET').json(null); }
      @Head('/head') async head(@Res() res: TernResponse) { return res.setHeader('X-Head', '1').json(null); }
      @Route('/any', { methods: ['GET', 'post'] }) async any(@Req() req: TernRequest) { return { method: req.method }; }
    }
    const app = new TernApp();
    app.registerControllers([Items]);
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
      const response = await app.inject({ method, url: '/items' });
      expect([response.statusCode, response.json()]).toEqual([200, { method }]);
    }
    expect((await app.inject({ method: 'OPTIONS', url: '/items' })).headers.allow).toBe('GET');
    expect((await app.inject({ method: 'HEAD', url: '/items/head' })).headers['x-head']).toBe('1');
    expect((await app.inject({ method: 'POST', url: '/items/any' })).json()).toEqual({ method: 'POST' });
    expect((await app.inject('/items/any')).json()).toEqual({ method: 'GET' });
    expect(routeAt(app.getAllRoutes(), 'POST', '/items/any').methods).toEqual(['GET', 'POST']);
  });

  it('defaults @Route to GET and a missing path to the prefix itself', () => {
    @Controller('/ping')
    class Ping {
      @Route() async ping() { return 'pong'; }
    }
    expect(routesOf(Ping).map((r) => [r.methods, r.rawPath])).toEqual([[['GET'], '/ping']]);
  });

  it('serves a method once per route decorator, in the order written', async () => {
    @Controller('/v')
    class Aliases {
      @Get('/current')
      @Get('/latest', { name: 'latest' })
      async current() { return { v: 2 }; }
    }
    const app = new TernApp();
    app.registerControllers([Aliases]);
    expect(app.getAllRoutes().map((r) => r.rawPath)).toEqual(['/v/current', '/v/latest']);
    expect((await app.inject('/v/latest')).json()).toEqual({ v: 2 });
    expect(app.urlFor('latest')).toBe('/v/latest');
  });

  it('passes every Routes option through, extra keys included', () => {
    const responses = { 200: UserDto, 404: { description: 'Not found' } };
    @Controller('/users')
    class Users {
      @Get('/{id:int}', {
        name: 'user', summary: 'Get', description: 'Long', responses, tags: ['t'], operationId: 'getUser',
        deprecated: true, excludeFromSchema: true, statusCode: 203, parameters: [{ name: 'x', in: 'query' }], extra: { rateLimit: 10 },
      })
      async get() { return {}; }
    }
    const [route] = routesOf(Users);
    expect(route.options).toMatchObject({
      name: 'user', summary: 'Get', description: 'Long', responses, tags: ['t'], operationId: 'getUser',
      deprecated: true, excludeFromSchema: true, statusCode: 203, parameters: [{ name: 'x', in: 'query' }],
    });
    expect(route.extra).toEqual({ rateLimit: 10 });
    expect(route.excludeFromSchema).toBe(true);
    expect(route.statusCode).toBe(203);
  });

  it('names routes through the controller name and supports urlFor', () => {
    @Controller('/api/v1/users', { name: 'v1.users' })
    class Users {
      @Get('/{id:int}', { name: 'get' }) async get() { return {}; }
      @Get('/') async list() { return []; }
    }
    const app = new TernApp();
    app.registerControllers([Users]);
    expect(app.getAllRoutes().map((r) => r.name)).toEqual(['v1.users.get', undefined]);
    expect(app.urlFor('v1.users.get', { id: 7, expand: 'posts' })).toBe('/api/v1/users/7?expand=posts');
  });

  it('applies @Controller tags, middleware and excludeFromSchema to every route', async () => {
    const log: string[] = [];
    @Controller('/c', { tags: ['c1'], middleware: [tracer(log, 'option')], excludeFromSchema: true })
    @Tags('c2')
    @UseMiddleware(tracer(log, 'class'))
    class C {
      @Get('/a', { tags: ['own'] })
      @Tags('decorated')
      @UseMiddleware(tracer(log, 'method'))
      async a() { return { ok: true }; }
    }
    const app = new TernApp();
    app.registerControllers([C]);
    const [route] = app.getAllRoutes();
    expect(route.tags).toEqual(['c1', 'c2', 'own', 'decorated']);
    expect(route.excludeFromSchema).toBe(true);
    await app.inject('/c/a');
    expect(log).toEqual(['option', 'class', 'method']);
  });

  it("lets a route replace its controller's tags with @Tags(..., { replace: true }), in the document too", async () => {
    @Controller('/articles', { tags: ['articles'] })
    @Tags('content')
    class Articles {
      @Get('/')
      @Tags('public')
      async list() { return []; }

      @Get('/feed', { tags: ['own'] })
      @Tags('feed', { replace: true })
      async feed() { return []; }

      @Get('/drafts')
      @Tags('drafts', 'mine', { replace: true })
      @Tags('extra')
      async drafts() { return []; }
    }
    const app = new TernApp();
    app.registerControllers([Articles]);
    expect(app.getAllRoutes().map((r) => [r.rawPath, r.tags])).toEqual([
      ['/articles', ['articles', 'content', 'public']],
      ['/articles/feed', ['own', 'feed']],
      ['/articles/drafts', ['drafts', 'mine', 'extra']],
    ]);
    const document = (await app.inject('/openapi.json')).json();
    expect(document.paths['/articles/feed'].get.tags).toEqual(['own', 'feed']);
    expect(document.paths['/articles'].get.tags).toEqual(['articles', 'content', 'public']);
  });

  it('refuses { replace: true } on the class, where there is nothing to replace', () => {
    expect(() => {
      @Tags('x', { replace: true })
      @Controller('/x')
      class X {}
      return X;
    }).toThrow(expect.objectContaining({ code: 'TERN_DECORATOR_MISUSE', message: expect.stringContaining('goes on a route method') }));
    expect(() => Tags({ replace: true } as never)).toThrow(expect.objectContaining({ code: 'TERN_DECORATOR_MISUSE' }));
  });

  it('runs middleware from several @UseMiddleware in the order written, first outermost', async () => {
    const log: string[] = [];
    @Controller('/m')
    class M {
      @Get('/', { middleware: [tracer(log, 'option')] })
      @UseMiddleware(tracer(log, 'first'), tracer(log, 'second'))
      @UseMiddleware(tracer(log, 'third'))
      async m() { return {}; }
    }
    const app = new TernApp();
    app.registerControllers([M]);
    await app.inject('/m');
    expect(log).toEqual(['option', 'first', 'second', 'third']);
  });

  describe('security', () => {
    it('keeps several @Security as alternatives in the order written', () => {
      @Controller('/s')
      class S {
        @Get('/')
        @Security('bearerAuth')
        @Security('oauth2', ['read', 'write'])
        @Security({ apiKey: [], session: [] })
        async s() { return {}; }
      }
      expect(routesOf(S)[0].security).toEqual([{ bearerAuth: [] }, { oauth2: ['read', 'write'] }, { apiKey: [], session: [] }]);
    });

    it('applies class-level security to routes without their own; method-level replaces it', () => {
      @Controller('/s', { security: [{ apiKey: [] }] })
      @Security('bearerAuth')
      class S {
        @Get('/inherits') async inherits() { return {}; }
        @Get('/own') @Security('oauth2', ['admin']) async own() { return {}; }
        @Get('/option', { security: [{ other: [] }] }) async option() { return {}; }
        @Get('/public') @Public() async open() { return {}; }
      }
      const routes = routesOf(S);
      expect(routeAt(routes, 'GET', '/s/inherits').security).toEqual([{ apiKey: [] }, { bearerAuth: [] }]);
      expect(routeAt(routes, 'GET', '/s/own').security).toEqual([{ oauth2: ['admin'] }]);
      expect(routeAt(routes, 'GET', '/s/option').security).toEqual([{ other: [] }]);
      expect(routeAt(routes, 'GET', '/s/public').security).toEqual([]);
    });

    it('makes every route public with a class-level @Public() and leaves undeclared routes without security', () => {
      @Controller('/open') @Public()
      class Open {
        @Get('/') async list() { return []; }
        @Get('/secret') @Security('bearerAuth') async secret() { return {}; }
      }
      @Controller('/plain')
      class Plain {
        @Get('/') async list() { return []; }
      }
      const routes = routesOf(Open, Plain);
      expect(routeAt(routes, 'GET', '/open').security).toEqual([]);
      expect(routeAt(routes, 'GET', '/open/secret').security).toEqual([{ bearerAuth: [] }]);
      expect(routeAt(routes, 'GET', '/plain').security).toBeUndefined();
      expect('security' in routeAt(routes, 'GET', '/plain').options).toBe(false);
    });

    it('does not enforce declared security by itself', async () => {
      @Controller('/s')
      class S {
        @Get('/') @Security('bearerAuth') async s() { return { open: true }; }
      }
      const app = new TernApp();
      app.openapiConfig.addSecurityScheme('bearerAuth', new HTTPBearer());
      app.registerControllers([S]);
      expect((await app.inject('/s')).statusCode).toBe(200);
    });
  });

  describe('documentation decorators', () => {
    it('records summary, description, operationId, deprecated and responses', () => {
      @Controller('/d')
      @ApiResponse(401, { description: 'Unauthorized' })
      @ApiResponse(404, { description: 'Class-level' })
      class D {
        @Get('/', { summary: 'option summary', responses: { 200: [UserDto] } })
        @Summary('List users')
        @Description('Every user, newest first.')
        @OperationId('listUsers')
        @Deprecated()
        @ApiResponse(404, { description: 'Method-level' })
        @ApiResponse(429, { description: 'Slow down' })
        async list() { return []; }
      }
      const [route] = routesOf(D);
      expect(route.options).toMatchObject({
        summary: 'List users',
        description: 'Every user, newest first.',
        operationId: 'listUsers',
        deprecated: true,
        responses: {
          200: [UserDto],
          401: { description: 'Unauthorized' },
          404: { description: 'Method-level' },
          429: { description: 'Slow down' },
        },
      });
    });

    it('applies class-level @Deprecated and @ExcludeFromSchema to every route', () => {
      @Controller('/old') @Deprecated() @ExcludeFromSchema()
      class Old {
        @Get('/') async list() { return []; }
      }
      @Controller('/new')
      class New {
        @Get('/') async list() { return []; }
        @Get('/hidden') @ExcludeFromSchema() async hidden() { return []; }
      }
      const routes = routesOf(Old, New);
      expect(routeAt(routes, 'GET', '/old').options.deprecated).toBe(true);
      expect(routeAt(routes, 'GET', '/old').excludeFromSchema).toBe(true);
      expect(routeAt(routes, 'GET', '/new').excludeFromSchema).toBe(false);
      expect(routeAt(routes, 'GET', '/new').options.deprecated).toBeUndefined();
      expect(routeAt(routes, 'GET', '/new/hidden').excludeFromSchema).toBe(true);
    });
  });

  describe('registration', () => {
    it('builds a class with new C() once, and uses an instance as given', async () => {
      let built = 0;
      @Controller('/count')
      class Counter {
        constructor() { built++; }
        @Get('/') async get() { return { built }; }
      }
      @Controller('/greet')
      class Greeter {
        constructor(private readonly greeting: string) {}
        @Get('/') async greet() { return { text: this.greeting }; }
      }
      const app = new TernApp();
      app.registerControllers([Counter, new Greeter('hello')]);
      app.getAllRoutes();
      await app.ready();
      expect(built).toBe(1);
      expect((await app.inject('/greet')).json()).toEqual({ text: 'hello' });
    });

    it('treats controller routes like any other: conflicts with app routes fail ready()', async () => {
      @Controller('/users')
      class Users {
        @Get('/{id:int}') async get() { return {}; }
      }
      const app = new TernApp();
      app.get('/users/{n:int}', async () => ({}));
      app.registerControllers([Users]);
      await expect(app.ready()).rejects.toThrow(RouteConflictError);
    });

    it('lets app routes and routers coexist with controllers', async () => {
      @Controller('/c')
      class C {
        @Get('/') async c() { return { from: 'controller' }; }
      }
      const app = new TernApp();
      const router = new Router({ prefix: '/r' });
      router.get('/', async () => ({ from: 'router' }));
      app.mountRouter(router);
      app.registerControllers([C]);
      expect((await app.inject('/c')).json()).toEqual({ from: 'controller' });
      expect((await app.inject('/r')).json()).toEqual({ from: 'router' });
    });

    it('inherits the routes of a base class; a redeclared method replaces them', async () => {
      class Base {
        @Get('/hello') async hello() { return { from: 'base' }; }
        @Get('/who') async who() { return { from: 'base' }; }
      }
      @Controller('/child')
      class Child extends Base {
        override async hello() { return { from: 'child override' }; }
        @Get('/who-now') override async who() { return { from: 'child' }; }
      }
      const app = new TernApp();
      app.registerControllers([Child]);
      expect(app.getAllRoutes().map((r) => r.rawPath).sort()).toEqual(['/child/hello', '/child/who-now']);
      expect((await app.inject('/child/hello')).json()).toEqual({ from: 'child override' });
      expect((await app.inject('/child/who-now')).json()).toEqual({ from: 'child' });
    });

    it('composes a prefix with path parameters and a root prefix', async () => {
      @Controller('/')
      class Root {
        @Get('/') async root() { return { root: true }; }
      }
      @Controller('/users/{userId:int}/posts')
      class Posts {
        @Get('/{postId:int}') async post(@Req() req: TernRequest) { return req.pathParams; }
      }
      const app = new TernApp();
      app.registerControllers([Root, Posts]);
      expect((await app.inject('/')).json()).toEqual({ root: true });
      expect((await app.inject('/users/1/posts/2')).json()).toEqual({ userId: 1, postId: 2 });
    });
  });
});
