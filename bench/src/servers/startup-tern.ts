/**
 * Startup (issue 27, b): Tern with N `app.get('/rI/mJ/{id:int}', { summary, tags }, handler)`
 * routes. `ready()` is called on its own before `listen()` (which would call it anyway) only to
 * time the phases; the OpenAPI document is Tern's default, at /openapi.json.
 */
import 'reflect-metadata';
import { performance } from 'node:perf_hooks';
import { TernApp } from '@tern/core';
import { startupBody, startupRoutes } from '../shared/startup-routes';
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

export const start: StartServer = async (options: ServerOptions) => {
  const t0 = performance.now();
  const app = startupApp(options.routes);
  const declared = performance.now();
  await app.ready();
  const ready = performance.now();
  await app.listen({ port: options.port, host: options.host });
  const listening = performance.now();
  return {
    close: () => app.close(),
    phases: { declare: declared - t0, ready: ready - declared, listen: listening - ready },
  };
};
