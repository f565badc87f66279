import { buildApp } from './app';

describe('config-driven example', () => {
  it('serves the routes the configuration lists', async () => {
    const app = buildApp();
    expect((await app.inject('/health')).json()).toEqual({ status: 'up' });
    expect((await app.inject({ method: 'POST', url: '/echo/hi' })).json()).toEqual({ method: 'POST', word: 'hi' });
  });

  it('fails at startup naming a handler that cannot be imported', () => {
    expect(() => buildApp([{ path: '/x', module: './handlers/missing', export: 'x' }])).toThrow(/Cannot load module '.\/handlers\/missing'/);
  });
});
