import { TernApp } from '@tern/core';
import { FileRouter } from '@tern/file-router';
import { makeTree, removeTrees } from './support/tree';

afterAll(removeTrees);

describe('fromConnect in route files', () => {
  it('a route file\'s middleware list runs a Connect middleware before its handler', async () => {
    const app = new TernApp({ logger: false });
    new FileRouter(app, {
      root: makeTree({
        'account/route.ts': `import { fromConnect } from '@tern/core';
import { markAsRoute } from '@tern/file-router';
const connectLogin = (req: any, res: any, next: () => void) => {
  res.setHeader('x-from-connect', 'yes');
  req.user = { name: 'ada' };
  next();
};
export const get = markAsRoute({ path: '/account', middleware: [fromConnect(connectLogin)] }, async (req) => ({ user: req.user }));
`,
      }),
    });
    const res = await app.inject('/account');
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-from-connect']).toBe('yes');
    expect(res.json()).toEqual({ user: { name: 'ada' } });
  });
});
