import { join } from 'node:path';
import { routesFromConfig, RouteImportError, TernApp } from '@tern/core';

const baseDir = join(__dirname, 'fixtures', 'config-handlers');

describe('configuration-driven registration', () => {
  it('builds Routes from module paths and export names', async () => {
    const app = new TernApp();
    for (const route of routesFromConfig([{ path: '/health', module: './health', export: 'health', name: 'health' }], { baseDir })) {
      app.addRoute(route);
    }
    expect((await app.inject('/health')).json()).toEqual({ status: 'up' });
    expect(app.urlFor('health')).toBe('/health');
  });

  it('fails naming a module that cannot be loaded', () => {
    expect(() => routesFromConfig([{ path: '/x', module: './missing', export: 'x' }], { baseDir })).toThrow(RouteImportError);
    expect(() => routesFromConfig([{ path: '/x', module: './missing', export: 'x' }], { baseDir })).toThrow(/Cannot load module '.\/missing'/);
  });

  it('fails naming an export that is not a function', () => {
    const attempt = () => routesFromConfig([{ path: '/x', module: './health', export: 'notAFunction' }], { baseDir });
    expect(attempt).toThrow(expect.objectContaining({ code: 'TERN_IMPORT_FAILED', message: expect.stringContaining("'notAFunction'") }));
  });
});
