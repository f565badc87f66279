import { buildApp, rows } from './app';

describe('responses example', () => {
  it('/auth/me sends MeDto: renamed key, ISO date, nested team without its budget, no secrets', async () => {
    const res = await buildApp().inject('/auth/me');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: 1,
      email: 'ada@example.com',
      display_name: 'Ada',
      createdAt: '2024-05-01T09:00:00.000Z',
      team: { name: 'Engines' },
    });
    expect(res.body).not.toMatch(/passwordHash|resetToken|budget/);
  });

  it('the controller list and item send UserDto; a 404 is a plain problem', async () => {
    const app = buildApp();
    expect((await app.inject('/users')).json()).toEqual([
      { id: 1, display_name: 'Ada' },
      { id: 2, display_name: 'Grace' },
    ]);
    expect((await app.inject('/users/2')).json()).toEqual({ id: 2, display_name: 'Grace' });
    const missing = await app.inject('/users/9');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ status: 404, detail: 'No user 9' });
  });

  it('the opted-out export sends rows whole', async () => {
    const res = await buildApp().inject('/admin/export');
    expect(res.json()).toEqual(JSON.parse(JSON.stringify(rows)));
  });

  it('keeps its contracts with validateResponses on (debug)', async () => {
    const app = buildApp({ debug: true });
    for (const url of ['/auth/me', '/users', '/users/1']) expect((await app.inject(url)).statusCode).toBe(200);
  });
});
