/**
 * Startup, for context (issue 27): Fastify 5 with the same N routes, `GET /rI/mJ/:id` with a
 * params schema (one shared constant, as users write it) that makes the id an integer. No
 * OpenAPI document: that would take @fastify/swagger, which the bench does not install (its
 * summary and tags are its keys), so this row does less than Tern's.
 */
import Fastify from 'fastify';
import { startupBody, startupRoutes } from '../shared/startup-routes';
import { startTimed } from './startup-phases';
import type { ServerOptions, StartServer } from './types';

const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer' } },
} as const;

export const start: StartServer = (options: ServerOptions) =>
  startTimed(() => {
    const app = Fastify({ logger: false });
    for (const route of startupRoutes(options.routes)) {
      app.get<{ Params: { id: number } }>(`${route.path}/:id`, { schema: { params: idParams } }, async (req) => startupBody(route, req.params.id));
    }
    return app;
  }, options);
