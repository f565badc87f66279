/**
 * class-validator and class-transformer load when an app first compiles or describes a model, not
 * when Tern loads: an app of plain routes starts without them (~70 ms less startup, as measured
 * in docs/performance-log.md). Each test loads Tern in a fresh module registry and records which of
 * the two libraries were required.
 */
const LIBRARIES = ['class-validator', 'class-transformer', 'class-transformer/cjs/storage'];

type Core = typeof import('../src');

async function librariesLoadedBy(run: (core: Core) => Promise<void>): Promise<string[]> {
  const loaded: string[] = [];
  let done: Promise<void> = Promise.resolve();
  jest.isolateModules(() => {
    for (const name of LIBRARIES) {
      jest.doMock(name, () => {
        loaded.push(name);
        return jest.requireActual(name);
      });
    }
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    done = run(require('../src') as Core);
  });
  await done;
  return loaded;
}

afterEach(() => {
  for (const name of LIBRARIES) jest.dontMock(name);
});

describe('loading class-validator', () => {
  it('an app without models never loads class-validator or class-transformer', async () => {
    const loaded = await librariesLoadedBy(async ({ TernApp, Router }) => {
      const app = new TernApp({ openapi: { title: 'Plain', version: '1' } });
      app.get('/users/{id:int}', { responses: { 200: { description: 'A user' } } }, async (_req, _res, { id }) => ({ id }));
      const admin = new Router({ prefix: '/admin', middleware: [async (_req, _res, next) => next()] });
      admin.post('/echo', async (req) => ({ got: await req.json() }));
      app.mountRouter(admin);

      const user = await app.inject({ method: 'GET', url: '/users/7' });
      expect(user.statusCode).toBe(200);
      expect(user.json()).toEqual({ id: 7 });
      const echo = await app.inject({ method: 'POST', url: '/admin/echo', payload: { a: 1 } });
      expect(echo.json()).toEqual({ got: { a: 1 } });
      const bad = await app.inject({ method: 'GET', url: '/users/x' });
      expect(bad.statusCode).toBe(422);
      const docs = await app.inject({ method: 'GET', url: '/openapi.json' });
      expect(docs.json().paths['/users/{id}'].get.responses['200'].description).toBe('A user');
    });
    expect(loaded).toEqual([]);
  });

  it('a request model loads them at ready(), and validates against the decorators the app wrote', async () => {
    const loaded = await librariesLoadedBy(async ({ TernApp }) => {
      // The model's module imports class-validator for its decorators, as a user's DTO file does.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { IsInt, IsString, Min } = require('class-validator') as typeof import('class-validator');
      class CreateItem {
        name!: string;
        qty!: number;
      }
      IsString()(CreateItem.prototype, 'name');
      IsInt()(CreateItem.prototype, 'qty');
      Min(1)(CreateItem.prototype, 'qty');

      const app = new TernApp();
      app.post('/items', { requestModel: CreateItem, statusCode: 201 }, async (req) => req.body as object);
      await app.ready();

      const ok = await app.inject({ method: 'POST', url: '/items', payload: { name: 'pen', qty: 2, extra: true } });
      expect(ok.statusCode).toBe(201);
      expect(ok.json()).toEqual({ name: 'pen', qty: 2 });
      const bad = await app.inject({ method: 'POST', url: '/items', payload: { name: 'pen', qty: 0 } });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors).toEqual([{ path: 'qty', message: 'qty must not be less than 1' }]);
      const docs = await app.inject({ method: 'GET', url: '/openapi.json' });
      expect(docs.json().components.schemas.CreateItem.required).toEqual(['name', 'qty']);
    });
    expect(loaded).toEqual(expect.arrayContaining(['class-validator', 'class-transformer/cjs/storage']));
  });
});
