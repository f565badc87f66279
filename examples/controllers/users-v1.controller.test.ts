/**
 * Testing one controller on its own: register just it, with the dependencies the test wants.
 * Without `enforceSecurity` the declared security is documentation only, so the test can focus
 * on the controller's own behaviour.
 */
import { HTTPBearer, TernApp } from '@tern/core';
import { Store } from './store';
import { UsersV1Controller } from './v1/users.controller';

function appFor(store: Store): TernApp {
  const app = new TernApp();
  // Routes may only name registered schemes, enforced or not.
  app.openapiConfig.addSecurityScheme('bearerAuth', new HTTPBearer());
  app.registerControllers([new UsersV1Controller(store)]);
  return app;
}

describe('UsersV1Controller alone', () => {
  it('creates a user in the store it was given', async () => {
    const store = new Store();
    const app = appFor(store);
    const response = await app.inject({ method: 'POST', url: '/api/v1/users', payload: { name: 'Alan Turing', email: 'alan@example.com' } });
    expect([response.statusCode, response.json()]).toEqual([201, { id: 1, name: 'Alan Turing' }]);
    expect(store.findUserByEmail('alan@example.com')?.name).toBe('Alan Turing');
  });

  it('lists exactly its own routes', async () => {
    const app = appFor(new Store());
    expect(app.getAllRoutes().map((r) => `${r.methods.join(',')} ${r.rawPath} ${r.name}`)).toEqual([
      'GET /api/v1/users v1.users.list',
      'GET /api/v1/users/{id:int} v1.users.get',
      'POST /api/v1/users v1.users.create',
    ]);
  });
});
