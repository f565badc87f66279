import { MakeConfig, RouteConflictError, TernApp } from '@tern/core';
import { FileRouter } from '@tern/file-router';
import { getReturning, makeTree, removeTrees } from './support/tree';

afterAll(removeTrees);

const IMPORTS = `import type { Request, Response } from '@tern/core';\nimport { markAsRoute } from '@tern/file-router';\n`;

function appFor(files: Record<string, string>, options: { debug?: boolean } = {}): TernApp {
  const app = new TernApp({ logger: false, config: new MakeConfig({ debug: options.debug ?? false }) });
  new FileRouter(app, { root: makeTree(files) });
  return app;
}

describe('routes from a directory tree', () => {
  it('maps root/route.ts to / and each directory path to its URL path', async () => {
    const app = appFor({
      'route.ts': getReturning('root'),
      'about/route.ts': getReturning('about'),
      'manual/guide/intro/route.ts': getReturning('intro'),
    });
    expect((await app.inject('/')).json()).toEqual({ from: 'root' });
    expect((await app.inject('/about')).json()).toEqual({ from: 'about' });
    expect((await app.inject('/manual/guide/intro')).json()).toEqual({ from: 'intro' });
    // A directory without a route file is no route; neither is a trailing slash.
    expect((await app.inject('/manual')).statusCode).toBe(404);
    expect((await app.inject('/about/')).statusCode).toBe(404);
  });

  it('serves each exported method, delete written as `export { remove as delete }`', async () => {
    const app = appFor({
      'items/route.ts': `${IMPORTS}
export async function get(req: Request) { return { method: req.method }; }
export async function post(req: Request, res: Response) { return res.json({ method: req.method }, 201); }
export async function put(req: Request) { return { method: req.method }; }
export async function patch(req: Request) { return { method: req.method }; }
async function remove(req: Request, res: Response) { return res.json(null, 204); }
export { remove as delete };
export async function options(req: Request, res: Response) { return res.setHeader('Allow', 'GET, POST').json(null, 204); }
export const helper = 42;
export function notAHandler() { return 'ignored: not named after a method, not marked'; }
`,
    });
    for (const method of ['GET', 'PUT', 'PATCH']) {
      const response = await app.inject({ method, url: '/items' });
      expect([method, response.json()]).toEqual([method, { method }]);
    }
    expect((await app.inject({ method: 'POST', url: '/items' })).statusCode).toBe(201);
    expect((await app.inject({ method: 'DELETE', url: '/items' })).statusCode).toBe(204);
    const options = await app.inject({ method: 'OPTIONS', url: '/items' });
    expect([options.statusCode, options.headers.allow]).toEqual([204, 'GET, POST']);
    expect(app.getAllRoutes().map((r) => r.methods.join())).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
  });

  it('answers HEAD from get, or from an exported head', async () => {
    const app = appFor({
      'auto/route.ts': getReturning('auto'),
      'own/route.ts': `${IMPORTS}
export async function get() { return { from: 'get' }; }
export async function head(req: Request, res: Response) { return res.setHeader('X-Head', 'own').json(null, 204); }
`,
    });
    const auto = await app.inject({ method: 'HEAD', url: '/auto' });
    expect([auto.statusCode, auto.body]).toEqual([200, '']);
    const own = await app.inject({ method: 'HEAD', url: '/own' });
    expect([own.statusCode, own.headers['x-head']]).toEqual([204, 'own']);
  });

  it('reads {param} directories as req.pathParams, converted, several nested', async () => {
    const app = appFor({
      'users/{id:int}/route.ts': `${IMPORTS}export async function get(req: Request) { return { id: req.pathParams.id }; }\n`,
      'users/{id:int}/posts/{slug:slug}/route.ts': `${IMPORTS}
export async function get(req: Request, _res: Response, params: { id: number; slug: string }) {
  return { params: req.pathParams, same: params.id === req.pathParams.id };
}
`,
      'tags/{name}/route.ts': `${IMPORTS}export async function get(req: Request) { return { name: req.pathParams.name }; }\n`,
      'files/{rest:path}/route.ts': `${IMPORTS}export async function get(req: Request) { return { rest: req.pathParams.rest }; }\n`,
    });
    expect((await app.inject('/users/7')).json()).toEqual({ id: 7 });
    expect((await app.inject('/users/7/posts/hello-world')).json()).toEqual({ params: { id: 7, slug: 'hello-world' }, same: true });
    expect((await app.inject('/tags/tern')).json()).toEqual({ name: 'tern' });
    expect((await app.inject('/files/a/b/c.txt')).json()).toEqual({ rest: 'a/b/c.txt' });
  });

  it('answers 422 when a converter rejects a directory parameter', async () => {
    const app = appFor({ 'users/{id:int}/route.ts': getReturning('user') });
    const response = await app.inject('/users/seven');
    expect(response.statusCode).toBe(422);
    expect(response.json().detail).toMatch(/'seven' is not a valid int for parameter 'id'/);
  });

  it('answers 405 with Allow for a method the file does not export', async () => {
    const app = appFor({
      'items/route.ts': `export async function get() { return []; }\nexport async function post() { return {}; }\n`,
    });
    const response = await app.inject({ method: 'DELETE', url: '/items' });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD, POST');
  });

  it('lets sibling directories differing only in converter coexist, tried in name order', async () => {
    const app = appFor({
      'items/{id:int}/route.ts': `${IMPORTS}export async function get(req: Request) { return { id: req.pathParams.id }; }\n`,
      'items/{slug:slug}/route.ts': `${IMPORTS}export async function get(req: Request) { return { slug: req.pathParams.slug }; }\n`,
    });
    expect((await app.inject('/items/42')).json()).toEqual({ id: 42 });
    expect((await app.inject('/items/forty-two')).json()).toEqual({ slug: 'forty-two' });
    expect((await app.inject('/items/Not_A_Slug')).statusCode).toBe(422);
  });

  it('declares file routes in a stable, sorted order', () => {
    const files = {
      'b/route.ts': getReturning('b'),
      'a/route.ts': getReturning('a'),
      'a/z/route.ts': getReturning('a/z'),
      'a/b/route.ts': getReturning('a/b'),
      'route.ts': getReturning('root'),
      'B/route.ts': getReturning('B'),
    };
    const app = appFor(files);
    expect(app.getAllRoutes().map((r) => r.rawPath)).toEqual(['/', '/B', '/a', '/a/b', '/a/z', '/b']);
  });

  it('lists file routes in getAllRoutes before ready, loading each file once', async () => {
    const root = makeTree({
      'route.ts': `(globalThis as any).ternLoads = ((globalThis as any).ternLoads ?? 0) + 1;\nexport async function get() { return { loads: (globalThis as any).ternLoads }; }\n`,
    });
    const app = new TernApp();
    const router = new FileRouter(app, { root });
    expect(app.getAllRoutes().map((r) => `${r.methods.join()} ${r.rawPath}`)).toEqual(['GET /']);
    await app.ready();
    expect(app.getAllRoutes()).toHaveLength(1);
    expect((await app.inject('/')).json()).toEqual({ loads: 1 });
    expect(router.files).toEqual([{ file: expect.stringMatching(/route\.ts$/), path: '/' }]);
    delete (globalThis as any).ternLoads;
  });

  it('treats file routes like any other declaration: conflicts with app routes fail ready()', async () => {
    const app = new TernApp();
    app.get('/about', async () => ({ from: 'app' }));
    new FileRouter(app, { root: makeTree({ 'about/route.ts': getReturning('file') }) });
    await expect(app.ready()).rejects.toThrow(RouteConflictError);
  });

  it('coexists with routes declared on the app', async () => {
    const app = new TernApp();
    app.post('/about', async () => ({ from: 'app' }));
    new FileRouter(app, { root: makeTree({ 'about/route.ts': getReturning('file') }) });
    expect((await app.inject('/about')).json()).toEqual({ from: 'file' });
    expect((await app.inject({ method: 'POST', url: '/about' })).json()).toEqual({ from: 'app' });
  });

  it("puts file routes under the app's global prefix, in the document too", async () => {
    const app = new TernApp({ logger: false, prefix: '/api' });
    new FileRouter(app, { root: makeTree({ 'route.ts': getReturning('root'), 'about/route.ts': getReturning('about') }) });
    expect((await app.inject('/api')).json()).toEqual({ from: 'root' });
    expect((await app.inject('/api/about')).json()).toEqual({ from: 'about' });
    expect((await app.inject('/about')).statusCode).toBe(404);
    expect(Object.keys((await app.inject('/api/openapi.json')).json().paths)).toEqual(['/api', '/api/about']);
  });

  it('can be created only before the app is ready', async () => {
    const app = new TernApp();
    await app.ready();
    expect(() => new FileRouter(app, { root: makeTree({}) })).toThrow(expect.objectContaining({ code: 'TERN_APP_ALREADY_READY' }));
  });

  it('applies app middleware and exception handlers to file routes', async () => {
    const app = appFor({
      'route.ts': getReturning('root'),
      'teapot/route.ts': `import { HTTPException } from '@tern/core';\nexport async function get() { throw new HTTPException(418, 'teapot'); }\n`,
    });
    app.addMiddleware(async (req, res, next) => (await next()).setHeader('X-Seen', req.route?.rawPath ?? 'none'));
    app.addExceptionHandler(418, async (_req, res) => res.text('short and stout', 418));
    expect((await app.inject('/')).headers['x-seen']).toBe('/');
    const response = await app.inject('/teapot');
    expect([response.statusCode, response.body]).toEqual([418, 'short and stout']);
  });
});
