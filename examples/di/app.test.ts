/**
 * The container builds the controller once; every request gets its own child container, so
 * request-scoped values never leak from one request to the next.
 */
import { container } from 'tsyringe';
import { buildApp } from './app';
import { CLOCK } from './services';
import { UsersController } from './users.controller';

describe('dependency injection with tsyringe', () => {
  function fixedClockApp() {
    const scope = container.createChildContainer();
    scope.register(CLOCK, { useValue: () => new Date('2026-01-02T03:04:05Z') });
    return buildApp(scope);
  }

  it('builds the controller with its dependencies through resolve', async () => {
    const app = fixedClockApp();
    const res = await app.inject('/users/1');
    expect([res.statusCode, res.json()]).toEqual([200, { id: 1, name: 'Ada Lovelace' }]);
    expect((await app.inject('/users/9')).statusCode).toBe(404);
    expect(UsersController).toBeDefined();
  });

  it('gives each request its own scope: request-scoped services see that request only', async () => {
    const app = fixedClockApp();
    const [first, second] = await Promise.all([
      app.inject({ method: 'PATCH', url: '/users/2', headers: { 'x-user': 'ada', 'x-request-id': 'r-1' }, payload: { name: 'Grace B. Hopper' } }),
      app.inject({ method: 'PATCH', url: '/users/2', headers: { 'x-user': 'grace', 'x-request-id': 'r-2' }, payload: { name: 'Grace Hopper' } }),
    ]);
    expect(first.json().audit).toEqual({ requestId: 'r-1', actor: 'ada', action: 'rename user 2', at: '2026-01-02T03:04:05.000Z' });
    expect(second.json().audit).toEqual({ requestId: 'r-2', actor: 'grace', action: 'rename user 2', at: '2026-01-02T03:04:05.000Z' });
    expect(first.headers['x-request-id']).toBe('r-1');
  });

  it('still validates bodies and answers errors through the scope middleware', async () => {
    const app = fixedClockApp();
    const invalid = await app.inject({ method: 'PATCH', url: '/users/1', payload: { name: '' } });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().errors).toEqual([{ path: 'name', message: 'name must be longer than or equal to 1 characters' }]);
    const generated = await app.inject('/users/1');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
