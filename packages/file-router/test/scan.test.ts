import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { Convertor, registerUrlConvertor, TernApp, TernError } from '@tern/core';
import { FileRouter } from '@tern/file-router';
import { pickRouteFile } from '../src/scan';
import { getReturning, makeTree, removeTrees, writeTree } from './support/tree';

afterAll(removeTrees);

function pathsOf(root: string, exemptPaths?: string[]): string[] {
  const app = new TernApp();
  new FileRouter(app, { root, exemptPaths });
  return app.getAllRoutes().map((r) => r.rawPath);
}

async function startupError(root: string): Promise<TernError> {
  const app = new TernApp();
  new FileRouter(app, { root });
  const error = await app.ready().then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(error instanceof TernError)) throw new Error(`expected ready() to reject with a TernError, got ${String(error)}`);
  return error;
}

describe('what the scan loads', () => {
  it('takes only files named exactly route.ts or route.js', () => {
    const root = makeTree({
      'a/route.ts': getReturning('a'),
      'b/routes.ts': getReturning('b'),
      'c/Route.ts': getReturning('c'),
      'd/route.tsx': getReturning('d'),
      'e/route.mjs': getReturning('e'),
      'f/route.test.ts': getReturning('f'),
      'g/page.ts': getReturning('g'),
    });
    expect(pathsOf(root)).toEqual(['/a']);
  });

  it('skips exempt paths with everything below them, by URL path', () => {
    const root = makeTree({
      'route.ts': getReturning('root'),
      'admin/route.ts': 'throw new Error("an exempt file must never be loaded");\n',
      'admin/users/route.ts': 'throw new Error("nor anything below it");\n',
      'admin/{bad:converter}/route.ts': getReturning('not even checked'),
      'administrators/route.ts': getReturning('a prefix is not a parent'),
      'api/internal/route.ts': 'throw new Error("exempt too");\n',
      'api/public/route.ts': getReturning('public'),
      'users/{id:int}/secret/route.ts': getReturning('secret'),
      'users/{id:int}/route.ts': getReturning('user'),
    });
    expect(pathsOf(root, ['/admin', '/api/internal/', '/users/{id:int}/secret'])).toEqual([
      '/',
      '/administrators',
      '/api/public',
      '/users/{id:int}',
    ]);
  });

  it('refuses exemptPaths that are not URL paths', () => {
    const app = new TernApp();
    expect(() => new FileRouter(app, { root: makeTree({}), exemptPaths: ['admin'] })).toThrow(/starting with '\/'/);
    expect(() => new FileRouter(app, { root: makeTree({}), exemptPaths: ['/'] })).toThrow(/every route/);
    expect(() => new FileRouter(app, { root: makeTree({}), exemptPaths: '/admin' as any })).toThrow(/list of URL paths/);
  });

  it('never loads dot-directories or node_modules', () => {
    const root = makeTree({
      'route.ts': getReturning('root'),
      '.git/route.ts': 'throw new Error("dot directory loaded");\n',
      '.hidden/deep/route.ts': 'throw new Error("dot directory loaded");\n',
      'node_modules/pkg/route.js': 'throw new Error("node_modules loaded");\n',
      'pages/node_modules/route.js': 'throw new Error("nested node_modules loaded");\n',
      'pages/route.ts': getReturning('pages'),
    });
    expect(pathsOf(root)).toEqual(['/', '/pages']);
  });

  it('follows symlinks that stay inside root, never ones that lead outside, and survives cycles', () => {
    const outside = makeTree({
      'route.ts': 'throw new Error("a route file outside root was loaded");\n',
      'secrets/route.ts': 'throw new Error("a directory outside root was loaded");\n',
    });
    const root = makeTree({ 'users/route.ts': getReturning('users'), 'real/route.ts': getReturning('real') });
    symlinkSync(join(outside, 'secrets'), join(root, 'linked-out'), 'dir');
    mkdirSync(join(root, 'file-link'));
    symlinkSync(join(outside, 'route.ts'), join(root, 'file-link', 'route.ts'), 'file');
    symlinkSync(join(root, 'real'), join(root, 'alias'), 'dir');
    symlinkSync(root, join(root, 'real', 'loop'), 'dir');
    symlinkSync(join(root, 'missing'), join(root, 'dangling'), 'dir');
    expect(pathsOf(root)).toEqual(['/alias', '/real', '/users']);
  });

  it('loads one file per directory: route.ts under ts-jest when route.js sits beside it', async () => {
    const app = new TernApp();
    new FileRouter(app, {
      root: makeTree({
        'route.ts': getReturning('ts'),
        'route.js': 'exports.get = async () => ({ from: "js" });\n',
        'route.d.ts': 'export declare function get(): Promise<unknown>;\n',
      }),
    });
    expect((await app.inject('/')).json()).toEqual({ from: 'ts' });
    expect(app.getAllRoutes()).toHaveLength(1);
  });

  it('picks route.js when the running code cannot load TypeScript, and a lone file as it is', () => {
    const both = new Set(['route.ts', 'route.js']);
    expect(pickRouteFile(both, true)).toBe('route.ts');
    expect(pickRouteFile(both, false)).toBe('route.js');
    expect(pickRouteFile(new Set(['route.js']), true)).toBe('route.js');
    expect(pickRouteFile(new Set(['route.ts']), false)).toBe('route.ts');
    expect(pickRouteFile(new Set(), true)).toBeUndefined();
  });

  it('serves compiled output: route.js (as tsc emits it) beside route.d.ts', async () => {
    const source = `import { markAsRoute } from '@tern/file-router';
import type { Request } from '@tern/core';
export const get = markAsRoute({ name: 'compiled' }, async (req: Request) => ({ id: req.pathParams.id, compiled: true }));
async function remove() { return { removed: true }; }
export { remove as delete };
`;
    const { outputText } = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } });
    const root = makeTree({
      'items/{id:int}/route.js': outputText,
      'items/{id:int}/route.d.ts': 'export declare const get: unknown;\n',
      'items/{id:int}/route.js.map': '{}',
    });
    const app = new TernApp();
    new FileRouter(app, { root });
    expect((await app.inject('/items/5')).json()).toEqual({ id: 5, compiled: true });
    expect((await app.inject({ method: 'DELETE', url: '/items/5' })).json()).toEqual({ removed: true });
    expect(app.urlFor('compiled', { id: 9 })).toBe('/items/9');
  });

  it('accepts custom converters registered before ready()', async () => {
    class YearConvertor extends Convertor<number> {
      regex = '[0-9]{4}';
      convert(value: string): number {
        return Number(value);
      }
      toString(value: number): string {
        return String(value);
      }
    }
    registerUrlConvertor('fileRouterYear', new YearConvertor());
    const root = makeTree({
      'archive/{year:fileRouterYear}/route.ts': `import type { Request } from '@tern/core';\nexport async function get(req: Request) { return { year: req.pathParams.year }; }\n`,
    });
    const app = new TernApp();
    new FileRouter(app, { root });
    expect((await app.inject('/archive/2024')).json()).toEqual({ year: 2024 });
    expect((await app.inject('/archive/24')).statusCode).toBe(422);
  });
});

describe('startup errors', () => {
  it('names a directory with an unknown converter', async () => {
    const root = makeTree({ 'users/{id:integer}/route.ts': getReturning('x') });
    const error = await startupError(root);
    expect(error.code).toBe('TERN_UNKNOWN_CONVERTER');
    expect(error.message).toContain("directory 'users/{id:integer}'");
    expect(error.message).toContain("unknown converter 'integer'");
  });

  it.each([['{id'], ['id}'], ['{1st}'], ['{id:int}-{slug}'], ['page-{n}'], ['{}'], ['{id:}']])('names a malformed directory %s', async (name) => {
    const root = makeTree({ [`things/${name}/route.ts`]: getReturning('x') });
    const error = await startupError(root);
    expect(error.code).toBe('TERN_INVALID_ROUTE');
    expect(error.message).toContain(`directory 'things/${name}'`);
  });

  it('reports a malformed directory even when it holds no route file yet', async () => {
    const root = makeTree({ 'route.ts': getReturning('root'), '{oops/readme.md': 'notes' });
    expect((await startupError(root)).message).toContain("directory '{oops'");
  });

  it('refuses a parameter repeated along one path', async () => {
    const root = makeTree({ '{id}/child/{id}/route.ts': getReturning('x') });
    const error = await startupError(root);
    expect([error.code, error.message]).toEqual(['TERN_INVALID_ROUTE', expect.stringMatching(/directory '\{id\}\/child\/\{id\}'.*'id' appears twice/)]);
  });

  it('refuses a route file below a {name:path} directory', async () => {
    const ok = makeTree({ 'files/{rest:path}/route.ts': getReturning('ok'), 'files/{rest:path}/notes/readme.md': 'no route here' });
    expect(pathsOf(ok)).toEqual(['/files/{rest:path}']);
    const root = makeTree({ 'files/{rest:path}/meta/route.ts': getReturning('x') });
    const error = await startupError(root);
    expect([error.code, error.message]).toEqual(['TERN_INVALID_ROUTE', expect.stringMatching(/directory 'files\/\{rest:path\}\/meta'/)]);
  });

  it('names a route file that throws while loading, keeping the cause', async () => {
    const root = makeTree({ 'broken/route.ts': 'throw new Error("database URL is not set");\nexport {};\n', 'fine/route.ts': getReturning('fine') });
    const error = await startupError(root);
    expect(error.code).toBe('TERN_IMPORT_FAILED');
    expect(error.message).toContain(join(root, 'broken', 'route.ts'));
    expect(error.message).toContain('database URL is not set');
    expect((error.cause as Error).message).toBe('database URL is not set');
  });

  it('names a route file that cannot resolve an import', async () => {
    const root = makeTree({ 'route.ts': `import { nothing } from './does-not-exist';\nexport async function get() { return nothing; }\n` });
    const error = await startupError(root);
    expect([error.code, error.message]).toEqual(['TERN_IMPORT_FAILED', expect.stringContaining(join(root, 'route.ts'))]);
  });

  it('names a route file whose method export is not a function', async () => {
    const root = makeTree({ 'route.ts': 'export const get = { not: "a function" };\n' });
    const error = await startupError(root);
    expect(error.code).toBe('TERN_INVALID_ROUTE_FILE');
    expect(error.message).toMatch(/route\.ts' cannot be used: its export 'get' is an object/);
  });

  it('names a route file that exports no handler', async () => {
    const root = makeTree({ 'empty/route.ts': 'export const title = "nothing to serve";\n' });
    const error = await startupError(root);
    expect(error.code).toBe('TERN_INVALID_ROUTE_FILE');
    expect(error.message).toMatch(/empty[/\\]route\.ts' cannot be used: it exports no handler/);
  });

  it('names a missing root', async () => {
    const error = await startupError(join(makeTree({}), 'nope'));
    expect([error.code, error.message]).toEqual(['TERN_ROUTES_ROOT_NOT_FOUND', expect.stringContaining('nope')]);
  });

  it('fails getAllRoutes() the same way, never listing half a tree', async () => {
    const root = makeTree({ 'route.ts': getReturning('root') });
    writeTree(root, { 'bad/route.ts': 'throw new Error("boom");\nexport {};\n' });
    const app = new TernApp();
    new FileRouter(app, { root });
    expect(() => app.getAllRoutes()).toThrow(/bad[/\\]route\.ts' failed to load: boom/);
    await expect(app.ready()).rejects.toThrow(/boom/);
  });
});
