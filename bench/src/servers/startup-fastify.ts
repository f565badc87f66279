/**
 * Startup, for context (issue 27): Fastify 5 with the same N routes, `GET /rI/mJ/:id` with a
 * params schema (one shared constant, as users write it) that makes the id an integer. No
 * OpenAPI document: that would take @fastify/swagger, which the bench does not install (its
 * summary and tags are its keys), so this row does less than Tern's.
 */
import { performance } from 'node:perf_hooks';
import Fastify from 'fastify';
import { startupBody, startupRoutes } from '../shared/startup-routes';
import type { ServerOptions, StartServer } from './types';

const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer' } },
} as const;

export const start: StartServer = async (options: ServerOptions) => {
  const t0 = performance.now();
  const app = Fastify({ logger: false });
  for (const route of startupRoutes(options.routes)) {
    app.get<{ Params: { id: number } }>(
      `${route.path}/:id`,
      { schema: { params: idParams } },
      async (req) => startupBody(route, req.params.id),
    );
  }
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
