import { HTTPBearer, NOT_IN_ROUTE_FILES, ROUTE_OPTION_NAMES, TernApp, type RouteInfo, type RouteOptionName } from '@tern/core';
import { FileRouter, markAsRoute, type MarkAsRouteOptions } from '@tern/file-router';
import { makeTree, removeTrees } from './support/tree';

afterAll(removeTrees);

const IMPORTS = `import type { Request, Response } from '@tern/core';\nimport { markAsRoute } from '@tern/file-router';\n`;

function appFor(files: Record<string, string>, options: { excludeFromSchema?: boolean } = {}): TernApp {
  const app = new TernApp({ logger: false, openapi: { title: 'File routes', version: '1.0.0' } });
  new FileRouter(app, { root: makeTree(files), ...options });
  return app;
}

function routeAt(app: TernApp, method: string, rawPath: string): RouteInfo {
  const route = app.getAllRoutes().find((r) => r.rawPath === rawPath && r.methods.includes(method));
  if (!route) throw new Error(`no ${method} ${rawPath} in ${app.getAllRoutes().map((r) => r.source).join('; ')}`);
  return route;
}

describe('markAsRoute', () => {
  it('carries its documentation options onto the route: responseModel lands under statusCode', async () => {
    const app = appFor({
      'users/route.ts': `${IMPORTS}
class UserDto { id!: number; }
export const post = markAsRoute(
  {
    summary: 'Create a user', description: 'Stores a user.', responseModel: UserDto, tags: ['users'], statusCode: 201,
    deprecated: true, security: [{ bearerAuth: [] }], name: 'users.create', operationId: 'createUser',
  },
  async (req: Request) => ({ created: req.method }),
);
export const get = markAsRoute({ responseModel: [UserDto], responses: { 404: { description: 'None yet' } } }, async () => []);
`,
    });
    app.openapiConfig.addSecurityScheme('bearerAuth', new HTTPBearer({ bearerFormat: 'JWT' }));
    const post = routeAt(app, 'POST', '/users');
    expect(post.options).toMatchObject({
      summary: 'Create a user',
      description: 'Stores a user.',
      tags: ['users'],
      statusCode: 201,
      deprecated: true,
      security: [{ bearerAuth: [] }],
      name: 'users.create',
      operationId: 'createUser',
    });
    expect(Object.keys(post.options.responses ?? {})).toEqual(['201']);
    expect((post.options.responses as any)[201].name).toBe('UserDto');
    expect([post.statusCode, post.name, post.tags]).toEqual([201, 'users.create', ['users']]);
    const get = routeAt(app, 'GET', '/users');
    expect(Object.keys(get.options.responses ?? {}).sort()).toEqual(['200', '404']);

    const created = await app.inject({ method: 'POST', url: '/users' });
    expect([created.statusCode, created.json()]).toEqual([201, { created: 'POST' }]);
    expect(app.urlFor('users.create')).toBe('/users');
  });

  it('refuses responseModel and a responses entry naming another schema at the same status, at ready() (the route file no longer wins silently)', async () => {
    const app = appFor({
      'users/route.ts': `${IMPORTS}
class UserDto { id!: number; }
class OtherDto { other!: string; }
export const get = markAsRoute({ responseModel: UserDto, responses: { 200: OtherDto } }, async () => ({}));
`,
    });
    await expect(app.ready()).rejects.toMatchObject({
      code: 'TERN_INVALID_ROUTE_OPTION',
      message: expect.stringMatching(/GET \/users.*responseModel and responses\[200\] both declare the success response; keep one/),
    });
  });

  it("inherits the app's route options (security, responses) like every other route", async () => {
    const app = new TernApp({ logger: false, security: [{ bearerAuth: [] }], responses: { 401: { description: 'Signed out' } } });
    app.openapiConfig.addSecurityScheme('bearerAuth', new HTTPBearer());
    new FileRouter(app, {
      root: makeTree({
        'me/route.ts': `${IMPORTS}export const get = markAsRoute({ responses: { 404: { description: 'None' } } }, async () => ({}));\n`,
        'health/route.ts': `${IMPORTS}export const get = markAsRoute({ security: [] }, async () => ({}));\n`,
      }),
    });
    const me = routeAt(app, 'GET', '/me');
    expect([me.security, Object.keys(me.options.responses ?? {}).sort()]).toEqual([[{ bearerAuth: [] }], ['401', '404']]);
    expect(routeAt(app, 'GET', '/health').security).toEqual([]);
  });

  it('takes consumes and produces: documented, and a body of another type is a 415', async () => {
    const app = appFor({
      'avatar/route.ts': `${IMPORTS}
export const put = markAsRoute({ consumes: ['image/png'], produces: { 200: 'text/plain' } }, async () => 'stored');
`,
    });
    const operation = (await app.inject('/openapi.json')).json().paths['/avatar'].put;
    expect(operation.requestBody.content).toEqual({ 'image/png': {} });
    expect(operation.responses[200].content).toEqual({ 'text/plain': { schema: { type: 'string' } } });
    const refused = await app.inject({ method: 'PUT', url: '/avatar', headers: { 'content-type': 'image/gif' }, payload: 'GIF89a' });
    expect(refused.statusCode).toBe(415);
    expect((await app.inject({ method: 'PUT', url: '/avatar', headers: { 'content-type': 'image/png' }, payload: 'png' })).statusCode).toBe(200);
  });

  it('overrides the derived path with its own path', async () => {
    const app = appFor({
      'legacy/route.ts': `${IMPORTS}
export const get = markAsRoute({ path: '/v1/legacy/{id:int}' }, async (req: Request) => ({ id: req.pathParams.id }));
export async function post() { return { at: 'derived' }; }
`,
    });
    expect((await app.inject('/v1/legacy/3')).json()).toEqual({ id: 3 });
    expect((await app.inject('/legacy')).statusCode).toBe(405);
    expect((await app.inject({ method: 'POST', url: '/legacy' })).json()).toEqual({ at: 'derived' });
  });

  it('turns any other marked export into a route, GET unless methods say otherwise', async () => {
    const app = appFor({
      'things/route.ts': `${IMPORTS}
export const list = markAsRoute({ summary: 'List' }, async () => ['a']);
export const change = markAsRoute({ methods: ['PUT', 'PATCH'] }, async (req: Request) => ({ method: req.method }));
export const search = markAsRoute({ path: '/things/search', methods: ['post'] }, async () => ({ found: [] }));
`,
    });
    expect((await app.inject('/things')).json()).toEqual(['a']);
    expect((await app.inject({ method: 'PATCH', url: '/things' })).json()).toEqual({ method: 'PATCH' });
    expect((await app.inject({ method: 'POST', url: '/things/search' })).json()).toEqual({ found: [] });
    // Method exports first (none here), then marked exports by name.
    expect(app.getAllRoutes().map((r) => `${r.methods.join('+')} ${r.rawPath}`)).toEqual(['PUT+PATCH /things', 'GET /things', 'POST /things/search']);
  });

  it('accepts `methods` on a method export only when it names that method', async () => {
    const ok = appFor({ 'a/route.ts': `${IMPORTS}export const get = markAsRoute({ methods: ['get'] }, async () => ({ ok: true }));\n` });
    expect((await ok.inject('/a')).json()).toEqual({ ok: true });

    const bad = appFor({ 'b/route.ts': `${IMPORTS}export const get = markAsRoute({ methods: ['POST'] }, async () => ({}));\n` });
    await expect(bad.ready()).rejects.toMatchObject({
      code: 'TERN_INVALID_ROUTE_FILE',
      message: expect.stringMatching(/b[/\\]route\.ts'.*export 'get' is marked with methods \[POST\]/),
    });
  });

  it('leaves the original handler untouched, so exporting it twice does not copy options', async () => {
    const app = appFor({
      'x/route.ts': `${IMPORTS}
async function handler(req: Request) { return { method: req.method }; }
export const post = markAsRoute({ summary: 'Create' }, handler);
export const put = handler;
`,
    });
    expect(routeAt(app, 'PUT', '/x').options.summary).toBeUndefined();
    expect(routeAt(app, 'POST', '/x').options.summary).toBe('Create');
    expect((await app.inject({ method: 'PUT', url: '/x' })).json()).toEqual({ method: 'PUT' });
  });

  it('refuses bad options when the route file loads, naming the file', async () => {
    expect(() => markAsRoute({ summry: 'typo' } as any, async () => ({}))).toThrow("unknown option 'summry'");
    expect(() => markAsRoute({ path: 'no-slash' }, async () => ({}))).toThrow(/must be a string starting with '\/'/);
    expect(() => markAsRoute({}, 'nope' as any)).toThrow(/handler must be a function/);

    const app = appFor({ 'typo/route.ts': `${IMPORTS}export const get = markAsRoute({ summry: 'x' } as any, async () => ({}));\n` });
    await expect(app.ready()).rejects.toMatchObject({ code: 'TERN_IMPORT_FAILED', message: expect.stringMatching(/typo[/\\]route\.ts' failed to load: .*summry/) });
  });

  it('takes every route option the options table allows route files, sse, extra and x-* included', async () => {
    // The type side: every option but those NOT_IN_ROUTE_FILES lists is a markAsRoute option.
    type Missing = Exclude<RouteOptionName, keyof MarkAsRouteOptions | 'declaredIn'>;
    const none: [Missing] extends [never] ? true : Missing = true;
    expect(none).toBe(true);
    // The value side: the file router's list is the table's, less the listed exceptions.
    expect(Object.keys(NOT_IN_ROUTE_FILES)).toEqual(['declaredIn', 'messageModel', 'maxPayload']);
    for (const name of ROUTE_OPTION_NAMES.filter((n) => !(n in NOT_IN_ROUTE_FILES))) {
      expect(() => markAsRoute({ [name]: undefined }, async () => ({}))).not.toThrow();
    }
    expect(() => markAsRoute({ declaredIn: 'x' } as any, async () => ({}))).toThrow("a route file cannot set 'declaredIn': the file router sets it to the route file and export");

    const app = appFor({
      'feed/route.ts': `${IMPORTS}
export const get = markAsRoute({ sse: true, extra: { rateLimit: 5 }, 'x-internal': true, bodyLimit: 2048, multipartLimit: 4096 }, async () => ({}));
`,
    });
    const route = routeAt(app, 'GET', '/feed');
    expect(route.extra).toEqual({ rateLimit: 5, 'x-internal': true });
    expect(route.options).toMatchObject({ sse: true, bodyLimit: 2048, multipartLimit: 4096 });
    const operation = (await app.inject('/openapi.json')).json().paths['/feed'].get;
    expect(operation['x-internal']).toBe(true);
    expect(Object.keys(operation.responses[200].content)).toEqual(['text/event-stream']);
  });

  it('refuses a bad option value at ready() with the route options table’s error, naming the file', async () => {
    const app = appFor({ 'odd/route.ts': `${IMPORTS}export const get = markAsRoute({ statusCode: 42 }, async () => ({}));\n` });
    await expect(app.ready()).rejects.toMatchObject({
      code: 'TERN_INVALID_ROUTE_OPTION',
      message: expect.stringMatching(/^Route GET \/odd in .*odd[/\\]route\.ts: statusCode must be a status code from 200 to 599\.$/),
    });
  });

  it.each([
    ['a method export', `export const get = markAsRoute({ methods: 'GET' as any }, async () => ({}));`],
    ['a marked export', `export const find = markAsRoute({ methods: 'GET' as any }, async () => ({}));`],
    ['an empty list', `export const find = markAsRoute({ methods: [] }, async () => ({}));`],
  ])('refuses methods that are no list of methods (%s) at ready() with the table’s error, naming the file', async (_case, source) => {
    const app = appFor({ 'm/route.ts': `${IMPORTS}${source}\n` });
    await expect(app.ready()).rejects.toMatchObject({
      code: 'TERN_INVALID_ROUTE_OPTION',
      message: expect.stringMatching(/^Route (GET )?\/m in .*m[/\\]route\.ts: methods must be a non-empty list of HTTP methods such as \['GET', 'POST'\]\.$/),
    });
  });

  it('refuses a path override with an unknown converter, naming the file', async () => {
    const app = appFor({ 'p/route.ts': `${IMPORTS}export const get = markAsRoute({ path: '/p/{id:nope}' }, async () => ({}));\n` });
    await expect(app.ready()).rejects.toMatchObject({
      code: 'TERN_UNKNOWN_CONVERTER',
      message: expect.stringMatching(/markAsRoute path '\/p\/\{id:nope\}' in .*p[/\\]route\.ts.*unknown converter 'nope'/),
    });
  });
});

describe('OpenAPI', () => {
  const files = {
    'pets/route.ts': `${IMPORTS}
export const get = markAsRoute({ summary: 'List pets', tags: ['pets'] }, async () => []);
export const put = markAsRoute({ summary: 'Replace a pet', statusCode: 202, responseModel: { name: String } }, async () => ({}));
export const post = markAsRoute({ summary: 'Add a pet', excludeFromSchema: true }, async () => ({}));
`,
  };

  it('marks file routes for the document, unless excluded per route or for the whole router', () => {
    const app = appFor(files);
    expect(routeAt(app, 'GET', '/pets').excludeFromSchema).toBe(false);
    expect(routeAt(app, 'POST', '/pets').excludeFromSchema).toBe(true);

    const hidden = appFor(files, { excludeFromSchema: true });
    expect(hidden.getAllRoutes().map((r) => r.excludeFromSchema)).toEqual([true, true, true]);
  });

  it('describes file routes in /openapi.json with their options', async () => {
    const app = appFor(files);
    const document = (await app.inject('/openapi.json')).json();
    expect(document.paths['/pets'].get).toMatchObject({ summary: 'List pets', tags: ['pets'] });
    expect(document.paths['/pets'].post).toBeUndefined();
    expect(Object.keys(document.paths['/pets'].put.responses)).toContain('202');
    expect(document.paths['/pets'].put.responses['202'].content['application/json'].schema).toMatchObject({
      type: 'object',
      properties: { name: { type: 'string' } },
    });

    const hidden = appFor(files, { excludeFromSchema: true });
    expect((await hidden.inject('/openapi.json')).json().paths ?? {}).toEqual({});
  });
});
