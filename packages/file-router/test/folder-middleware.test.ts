/**
 * Folder middleware: a `_middleware.ts` file guards every route file in its folder and below,
 * outer folders first, then the route's own middleware; a route file added later is guarded
 * without declaring anything.
 */
import { TernApp } from '@tern/core';
import { FileRouter } from '@tern/file-router';
import { makeTree, removeTrees } from './support/tree';

afterAll(removeTrees);

const TRACE = `import type { Middleware } from '@tern/core';
export const trace = (name: string): Middleware => async (req, res, next) => {
  const response = await next();
  const seen = response.getHeader('x-trace');
  return response.setHeader('x-trace', seen ? \`\${name},\${seen}\` : name);
};
`;

function appFor(files: Record<string, string>): TernApp {
  const app = new TernApp({ logger: false });
  const root = makeTree({ 'trace.ts': TRACE, ...files });
  new FileRouter(app, { root: `${root}/routes` });
  return app;
}

const GUARD = `import { HTTPException, type Middleware } from '@tern/core';
const requireAdmin: Middleware = async (req, res, next) => {
  if (req.headers.get('x-role') !== 'admin') throw new HTTPException(403, 'Admins only');
  return next();
};
import { trace } from '../../trace';
export const middleware = [requireAdmin, trace('admin')];
`;

describe('folder middleware (_middleware.ts)', () => {
  it('runs for every route in its folder and below, outer folders first, then the route\'s own', async () => {
    const app = appFor({
      'routes/route.ts': `export async function get() { return { page: 'home' }; }\n`,
      'routes/admin/_middleware.ts': GUARD,
      'routes/admin/route.ts': `export async function get() { return { page: 'admin' }; }\n`,
      'routes/admin/users/_middleware.ts': `import { trace } from '../../../trace';\nexport const middleware = trace('users');\n`,
      'routes/admin/users/{id:int}/route.ts': `import { markAsRoute } from '@tern/file-router';
import { trace } from '../../../../trace';
export const get = markAsRoute({ middleware: [trace('route')] }, async (req) => ({ user: req.pathParams.id }));
export async function post() { return { saved: true }; }
`,
    });
    const admin = { 'x-role': 'admin' };
    expect((await app.inject('/')).json()).toEqual({ page: 'home' });
    // A route that declares nothing is guarded by its folder.
    expect((await app.inject('/admin')).statusCode).toBe(403);
    expect((await app.inject({ method: 'POST', url: '/admin/users/7' })).statusCode).toBe(403);
    expect((await app.inject({ url: '/admin', headers: admin })).json()).toEqual({ page: 'admin' });
    const user = await app.inject({ url: '/admin/users/7', headers: admin });
    expect(user.json()).toEqual({ user: 7 });
    // Outermost first: admin's, then users', then the route's own.
    expect(user.headers['x-trace']).toBe('admin,users,route');
    expect((await app.inject({ method: 'POST', url: '/admin/users/7', headers: admin })).headers['x-trace']).toBe('admin,users');
  });

  it('refuses a middleware file that exports no middleware, naming it', async () => {
    const app = appFor({
      'routes/admin/_middleware.ts': `export const guard = 1;\n`,
      'routes/admin/route.ts': `export async function get() { return {}; }\n`,
    });
    await expect(app.ready()).rejects.toMatchObject({ code: 'TERN_INVALID_ROUTE_FILE', message: expect.stringMatching(/admin\/_middleware\.ts' cannot be used: it must export `middleware`/) });
  });
});
