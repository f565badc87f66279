import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { validate } from '@readme/openapi-parser';
import { TernApp } from '@tern/core';

/**
 * Every example app serves a document that a real OpenAPI 3.1 validator accepts unchanged.
 * Examples are found on disk (each exports `buildApp()` from its `app.ts`), so a new example
 * is covered without touching this file.
 */
const examplesDir = join(__dirname, '..', '..', '..', 'examples');
const examples = readdirSync(examplesDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(examplesDir, entry.name, 'app.ts')))
  .map((entry) => entry.name)
  .sort();

/**
 * `buildApp()` returns the app, or an object holding it next to test helpers. An example served
 * under a global prefix exports it as `API_PREFIX`; its document is under it too.
 */
async function appOf(name: string): Promise<{ app: TernApp; prefix: string }> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const module = require(join(examplesDir, name, 'app.ts')) as { buildApp?: () => unknown; API_PREFIX?: string };
  if (typeof module.buildApp !== 'function') throw new Error(`examples/${name}/app.ts does not export buildApp()`);
  const built = await module.buildApp();
  const app = built instanceof TernApp ? built : (built as { app?: unknown }).app;
  if (!(app instanceof TernApp)) throw new Error(`examples/${name}: buildApp() returned neither a TernApp nor { app }`);
  return { app, prefix: module.API_PREFIX ?? '' };
}

describe('the OpenAPI document of every example app', () => {
  it('finds the examples', () => {
    expect(examples.length).toBeGreaterThan(0);
    expect(examples).toContain('openapi-security');
  });

  it.each(examples)('%s: is served as valid OpenAPI 3.1', async (name) => {
    const { app, prefix } = await appOf(name);
    const response = await app.inject(`${prefix}/openapi.json`);
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toBe('3.1.0');
    // validate() dereferences in place: give it a copy.
    const result = await validate(structuredClone(document));
    expect(result).toMatchObject({ valid: true, specification: 'OpenAPI' });
    expect(result.warnings).toEqual([]);
    // Every route the app lists (bar hidden ones) is in the document.
    const operations = Object.values(document.paths as Record<string, Record<string, unknown>>).flatMap((item) => Object.keys(item));
    const expected = app
      .getAllRoutes()
      .filter((route) => !route.excludeFromSchema)
      .reduce((n, route) => n + route.methods.length, 0);
    expect(operations).toHaveLength(expected);
    await app.close();
  }); // examples/realworld starts an embedded Postgres (PGlite) first
});
