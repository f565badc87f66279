/**
 * Configuration-driven registration: a JSON file lists paths, handler modules
 * and export names; `routesFromConfig` loads them at startup and fails naming any module or
 * export it cannot load.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { routesFromConfig, TernApp, type RouteConfigEntry } from '@tern/core';
import { exampleOpenAPI } from '../shared/openapi';

/** The JSON lives beside the sources; tsc does not copy it, so compiled code looks there too. */
const CONFIG_FILE = [join(__dirname, 'routes.json'), join(__dirname, '..', '..', 'config-routes', 'routes.json')].find((file) =>
  existsSync(file),
) as string;

export function buildApp(entries: RouteConfigEntry[] = JSON.parse(readFileSync(CONFIG_FILE, 'utf8'))): TernApp {
  const app = new TernApp({
    openapi: exampleOpenAPI({
      title: 'Config-driven routes',
      description: 'Routes listed in a JSON file and loaded at startup.',
      tags: [
        { name: 'meta', description: 'The service itself.' },
        { name: 'echo', description: 'Echoing what was sent.' },
      ],
    }),
  });
  for (const route of routesFromConfig(entries, { baseDir: __dirname })) app.addRoute(route);
  return app;
}
