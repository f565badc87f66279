/**
 * The route options table owns what a container's options mean for its routes (issue 36): every
 * row with an inheritance rule is read the same way by a Router, a Group, a @Controller and (for
 * the rows marked `app`) the app; containers' options are checked by the same rows with one code;
 * `responseModel` is `responses[statusCode ?? 200]` for every declaration style.
 */
import { IsString } from 'class-validator';
import {
  Controller,
  Get,
  Group,
  HTTPBearer,
  MakeConfig,
  Post,
  Router,
  Routes,
  TernApp,
  type Middleware,
  type RouteInfo,
  type RouteOptions,
} from '@tern/core';
import { APP_ROUTE_OPTION_NAMES, INHERITED_OPTION_NAMES, type InheritedOptionName } from '../src/routing/route-options';

const ok = async () => ({ id: 1, name: 'n', secret: 's' });
const first: Middleware = async (_req, _res, next) => next();
const second: Middleware = async (_req, _res, next) => next();

/**
 * One sample per inherited row: a container's value, a route's, and what the route ends with when
 * both set it. Typed by the rows: a row added to the table without a sample here does not compile.
 */
const SAMPLES: { [K in InheritedOptionName]: { outer: RouteOptions[K]; inner: RouteOptions[K]; both: unknown } } = {
  bodyLimit: { outer: 100, inner: 200, both: 200 },
  multipartLimit: { outer: 100, inner: 200, both: 200 },
  responses: { outer: { 401: { description: 'Signed out' } }, inner: { 404: { description: 'None' } }, both: { 401: { description: 'Signed out' }, 404: { description: 'None' } } },
  middleware: { outer: [first], inner: [second], both: [first, second] },
  tags: { outer: ['outer'], inner: ['inner', 'outer'], both: ['outer', 'inner'] },
  security: { outer: [{ bearerAuth: [] }], inner: [], both: [] },
  deprecated: { outer: true, inner: false, both: true },
  excludeFromSchema: { outer: true, inner: false, both: true },
  responseFiltering: { outer: false, inner: true, both: true },
  forbidUnknownProperties: { outer: true, inner: false, both: false },
  rateLimit: { outer: { limit: 5, window: 60_000, key: 'ip', onStoreError: 'fail' }, inner: false, both: false },
};

type Style = (outer: Record<string, unknown>, inner: Record<string, unknown>) => TernApp;

function newApp(options: Record<string, unknown> = {}): TernApp {
  return new TernApp({ logger: false, ...options });
}

const STYLES: Record<string, Style> = {
  Router: (outer, inner) => {
    const app = newApp();
    const router = new Router({ prefix: '/c', ...outer });
    router.get('/r', inner, ok);
    return app.mountRouter(router), app;
  },
  Group: (outer, inner) => {
    const app = newApp();
    app.addRoute(new Group({ path: '/c', ...outer, routes: [new Routes({ path: '/r', handler: ok, ...inner })] }));
    return app;
  },
  '@Controller': (outer, inner) => {
    @Controller('/c', outer)
    class C {
      @Get('/r', inner)
      async r() {
        return ok();
      }
    }
    return newApp().registerControllers([C]);
  },
};

function routeOf(app: TernApp): RouteInfo {
  const route = app.getAllRoutes().find((r) => r.rawPath === '/c/r');
  if (!route) throw new Error(`no /c/r in ${app.getAllRoutes().map((r) => r.rawPath).join(', ')}`);
  return route;
}

describe('every inherited row is read by every container', () => {
  for (const [style, build] of Object.entries(STYLES)) {
    it.each(INHERITED_OPTION_NAMES)(`${style}: %s reaches the route alone, and combines with the route's own by its row's rule`, async (name) => {
      const { outer, inner, both } = SAMPLES[name];
      expect(routeOf(build({ [name]: outer }, {})).options[name]).toEqual(outer);
      expect(routeOf(build({ [name]: outer }, { [name]: inner })).options[name]).toEqual(both);
      expect(routeOf(build({}, { [name]: inner })).options[name]).toEqual(inner);
    });
  }

  it.each(APP_ROUTE_OPTION_NAMES)('the app: new TernApp({ %s }) reaches every route, below its containers', (name) => {
    const { outer, inner, both } = SAMPLES[name];
    const app = newApp({ [name]: outer });
    app.get('/c/r', ok);
    app.get('/c/own', { [name]: inner }, ok);
    const router = new Router({ prefix: '/c/router', [name]: inner });
    router.get('/r', ok);
    app.mountRouter(router);
    const at = (path: string) => app.getAllRoutes().find((r) => r.rawPath === path)?.options[name];
    expect([at('/c/r'), at('/c/own'), at('/c/router/r')]).toEqual([outer, both, both]);
  });
});

describe('what containers give is served, not only listed', () => {
  it('runs group, router and route middleware outermost first, and the nearest security wins, the app\'s last', async () => {
    const order: string[] = [];
    const mark = (label: string): Middleware => async (_req, _res, next) => (order.push(label), next());
    const app = newApp({ security: [{ appAuth: [] }] });
    const router = new Router({ prefix: '/router', middleware: [mark('router')], security: [{ routerAuth: [] }], tags: ['router'] });
    router.get('/open', { middleware: [mark('route')], security: [], tags: ['route', 'router'] }, ok);
    router.get('/closed', ok);
    const group = new Group({ path: '/group', middleware: [mark('group')], tags: ['group'] });
    group.routes.push(new Routes({ path: '/plain', handler: ok }));
    app.addRoute(new Group({ path: '/outer', routes: [group] }));
    app.mountRouter(router);
    for (const scheme of ['appAuth', 'routerAuth']) app.openapiConfig.addSecurityScheme(scheme, new HTTPBearer());
    expect((await app.inject('/router/open')).statusCode).toBe(200);
    expect((await app.inject('/outer/group/plain')).statusCode).toBe(200);
    expect(order).toEqual(['router', 'route', 'group']);
    const routes = Object.fromEntries(app.getAllRoutes().map((r) => [r.rawPath, r]));
    expect(routes['/router/open'].security).toEqual([]);
    expect(routes['/router/closed'].security).toEqual([{ routerAuth: [] }]);
    expect(routes['/outer/group/plain'].security).toEqual([{ appAuth: [] }]);
    expect(routes['/router/open'].tags).toEqual(['router', 'route']);
    expect(routes['/outer/group/plain'].tags).toEqual(['group']);
  });

  it("answers 413 above a group's bodyLimit and a controller's, but not above a route's own larger one", async () => {
    @Controller('/ctl', { bodyLimit: 8 })
    class Limited {
      @Post('/small') async small() { return {}; }
      @Post('/large', { bodyLimit: 1000 }) async large() { return {}; }
    }
    const app = newApp().registerControllers([Limited]);
    app.addRoute(new Group({ path: '/grp', bodyLimit: 8, routes: [new Routes({ path: '/small', methods: ['POST'], handler: ok })] }));
    const post = (url: string) => app.inject({ method: 'POST', url, payload: JSON.stringify({ text: 'more than eight bytes' }), headers: { 'content-type': 'application/json' } });
    expect([(await post('/ctl/small')).statusCode, (await post('/grp/small')).statusCode, (await post('/ctl/large')).statusCode]).toEqual([413, 413, 200]);
  });
});

describe('one check for every container', () => {
  function thrown(make: () => unknown): { code: string; message: string } {
    try {
      make();
    } catch (err) {
      return err as { code: string; message: string };
    }
    throw new Error('accepted');
  }

  it('refuses an unknown key with TERN_INVALID_ROUTE_OPTION naming the container, the key and the nearest option', () => {
    const errors = [
      thrown(() => new Router({ prefix: '/r', tag: ['x'] } as never)),
      thrown(() => new Group({ path: '/g', tag: ['x'], routes: [] } as never)),
      thrown(() => Controller('/c', { tag: ['x'] } as never)),
    ];
    expect(errors.map((e) => e.code)).toEqual(['TERN_INVALID_ROUTE_OPTION', 'TERN_INVALID_ROUTE_OPTION', 'TERN_INVALID_ROUTE_OPTION']);
    expect(errors.map((e) => e.message.split('.')[0])).toEqual(["Router '/r': unknown option 'tag'", "Group '/g': unknown option 'tag'", "@Controller('/c'): unknown option 'tag'"]);
    for (const error of errors) expect(error.message).toContain("Did you mean 'tags'?");
  });

  it('refuses a bad value by its row, the same sentence for each container', () => {
    const bad = { tags: 'admin' } as never;
    const messages = [thrown(() => new Router({ prefix: '/r', ...(bad as object) })), thrown(() => new Group({ path: '/g', ...(bad as object) })), thrown(() => Controller('/c', bad))];
    expect(messages.map((e) => [e.code, e.message.replace(/^[^:]+: /, '')])).toEqual(
      Array(3).fill(['TERN_INVALID_ROUTE_OPTION', "tags must be a list of strings, e.g. ['users']."]),
    );
  });

  it('says an option a route sets is not a container option', () => {
    const error = thrown(() => new Router({ prefix: '/r', summary: 'All' } as never));
    expect(error.message).toMatch(/^Router '\/r': unknown option 'summary'\. 'summary' is set on each route, not on a container\./);
  });
});

describe('responseModel is responses[statusCode ?? 200], for every declaration style', () => {
  class UserDto {
    @IsString() name: string;
  }
  class OtherDto {
    @IsString() other: string;
  }

  async function startupError(app: TernApp): Promise<{ code: string; message: string }> {
    try {
      await app.ready();
    } catch (err) {
      return err as { code: string; message: string };
    }
    throw new Error('ready() succeeded');
  }

  const conflicting = { responseModel: UserDto, responses: { 200: OtherDto } };
  const declarations: Record<string, (app: TernApp, options: RouteOptions) => void> = {
    'a function route': (app, options) => app.get('/c/r', options, ok),
    'a router': (app, options) => {
      const router = new Router({ prefix: '/c' });
      router.get('/r', options, ok);
      app.mountRouter(router);
    },
    'a group': (app, options) => app.addRoute(new Group({ path: '/c', routes: [new Routes({ path: '/r', handler: ok, ...options })] })),
    'a controller': (app, options) => {
      @Controller('/c')
      class C {
        @Get('/r', options) async r() { return ok(); }
      }
      app.registerControllers([C]);
    },
  };

  it.each(Object.keys(declarations))('%s: a responses entry naming another schema at the success status fails ready()', async (style) => {
    const app = newApp();
    declarations[style](app, conflicting);
    const error = await startupError(app);
    expect(error.code).toBe('TERN_INVALID_ROUTE_OPTION');
    expect(error.message).toMatch(/responseModel and responses\[200\] both declare the success response; keep one/);
  });

  it("is the route's own response: a container's entry at the same status gives way to it, as any route entry wins", () => {
    const app = newApp({ responses: { 200: OtherDto } });
    const router = new Router({ prefix: '/c', responses: { 200: OtherDto, 401: { description: 'Signed out' } } });
    router.get('/r', { responseModel: UserDto }, ok);
    app.mountRouter(router);
    expect(routeOf(app).options.responses).toEqual({ 200: UserDto, 401: { description: 'Signed out' } });
  });

  it.each(Object.keys(declarations))('%s: responseModel alone filters and documents the success response, at statusCode', async (style) => {
    const app = newApp({ openapi: { title: 'T', version: '1' } });
    declarations[style](app, { responseModel: UserDto, responses: { 404: { description: 'None' } }, statusCode: 201 });
    const response = await app.inject('/c/r');
    expect([response.statusCode, response.json()]).toEqual([201, { name: 'n' }]);
    const route = routeOf(app);
    expect(Object.keys(route.options.responses ?? {}).sort()).toEqual(['201', '404']);
    expect('responseModel' in route.options).toBe(false);
    const document = (await app.inject('/openapi.json')).json();
    expect(document.paths['/c/r'].get.responses['201'].content['application/json'].schema.$ref).toBe('#/components/schemas/UserDto');
  });
});

describe('app options and MakeConfig come from a table', () => {
  it('refuses a misspelt app option naming the nearest known one', () => {
    expect(() => new TernApp({ trailingSlashes: 'ignore' } as never)).toThrow(
      expect.objectContaining({ code: 'TERN_INVALID_ARGUMENT', message: expect.stringMatching(/^new TernApp\(options\): unknown option 'trailingSlashes'\. Did you mean 'trailingSlash'\?/) }),
    );
    expect(() => new TernApp({ config: { debug: true } } as never)).toThrow(/config must be a MakeConfig/);
    expect(() => new TernApp({ security: 'bearer' } as never)).toThrow(
      expect.objectContaining({ code: 'TERN_INVALID_ROUTE_OPTION', message: expect.stringMatching(/^new TernApp\(options\): security must be a list of requirements/) }),
    );
  });

  it('refuses a misspelt MakeConfig setting and a flag that is not a boolean', () => {
    expect(() => new MakeConfig({ bodylimit: 10 } as never)).toThrow(
      expect.objectContaining({ code: 'TERN_INVALID_ARGUMENT', message: expect.stringMatching(/^new MakeConfig\(options\): unknown option 'bodylimit'\. Did you mean 'bodyLimit'\?/) }),
    );
    expect(() => new MakeConfig({ debug: 'yes' } as never)).toThrow(/debug must be true or false/);
    expect(() => new MakeConfig({ debug: true, bodyLimit: 10 })).not.toThrow();
  });
});
