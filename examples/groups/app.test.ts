import { buildApp } from './app';

describe('admin example (groups)', () => {
  it('runs the group middleware for nested routes', async () => {
    const { app, audit } = buildApp();
    expect((await app.inject('/admin/stats')).statusCode).toBe(403);
    const ok = await app.inject({ url: '/admin/reports/daily', headers: { 'x-role': 'admin' } });
    expect(ok.json()).toEqual({ report: 'daily' });
    expect(audit).toEqual(['GET /admin/stats', 'GET /admin/reports/daily']);
  });

  it('forwards /legacy to the Express app with the prefix stripped', async () => {
    const { app } = buildApp();
    expect((await app.inject('/legacy/status')).json()).toEqual({ legacy: true, path: '/status' });
  });
});
