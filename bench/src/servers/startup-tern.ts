/**
 * Startup (issue 27, b): Tern with N `app.get('/rI/mJ/{id:int}', { summary, tags }, handler)`
 * routes. `ready()` is called on its own before `listen()` (which would call it anyway) only to
 * time the phases; the OpenAPI document is Tern's default, at /openapi.json.
 */
import 'reflect-metadata';
import { TernApp } from '@tern/core';
import { startupBody, startupRoutes } from '../shared/startup-routes';
import { startTimed } from './startup-phases';
import type { ServerOptions, StartServer } from './types';

/** The app of `count` routes, declared (bench/test checks its document). */
export function startupApp(count: number): TernApp {
  const app = new TernApp();
  for (const route of startupRoutes(count)) {
    app.get(`${route.path}/{id:int}`, { summary: route.summary, tags: route.tags }, async (_req, _res, { id }) =>
      startupBody(route, id as number),
    );
  }
  return app;
}

export const start: StartServer = (options: ServerOptions) => startTimed(() => startupApp(options.routes), options);
