/**
 * Fastify 5 as shipped: no logger, body validated by a JSON schema (Ajv, compiled at startup),
 * path parameters typed by a params schema (id coerced to an integer, slug checked by pattern).
 * No response schemas in scenarios 1–4 (every server serialises with JSON.stringify-equivalent
 * code paths); scenario 7 (GET /users) declares one, so fast-json-stringify writes (and filters)
 * the users, as Tern's declared response model does (see docs/performance.md).
 */
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { itemSchema } from '../shared/item-schema';
import { MW_USER, SLUG_PATTERN } from '../shared/payload';
import { FillerRoute, colonPath, fillerBody, splitFillers } from '../shared/routes';
import { staticRoot } from '../shared/static-file';
import { USERS_PATH, makeUsers, usersResponseSchema } from '../shared/users';
import type { RunningServer, ServerOptions, StartServer } from './types';

declare module 'fastify' {
  interface FastifyRequest {
    user: { id: number } | null;
  }
}

const routeParamsSchema = {
  type: 'object',
  required: ['id', 'slug'],
  properties: {
    id: { type: 'integer' },
    slug: { type: 'string', pattern: SLUG_PATTERN },
  },
} as const;

/** Fastify with the bench's routes; `fastifyOptions` (a logger for scenario 9) over `{ logger: false }`. */
export async function startFastify(options: ServerOptions, fastifyOptions: FastifyServerOptions = {}): Promise<RunningServer> {
  const app = Fastify({ logger: false, ...fastifyOptions });
  app.decorateRequest('user', null);

  const [before, after] = splitFillers(options.fillers);
  const addFillers = (routes: FillerRoute[]) => {
    for (const route of routes) {
      const body = fillerBody(route);
      app.get(colonPath(route), async () => body);
    }
  };

  addFillers(before);

  app.get('/', async () => ({ hello: 'world' }));

  app.get<{ Params: { id: number; slug: string } }>(
    '/users/:id/posts/:slug',
    { schema: { params: routeParamsSchema } },
    async (req) => ({ id: req.params.id, slug: req.params.slug }),
  );

  let nextId = 0;
  app.post<{ Body: Record<string, unknown> }>('/items', { schema: { body: itemSchema } }, async (req, reply) => {
    reply.code(201);
    return { id: ++nextId, ...req.body };
  });

  app.get(
    '/mw',
    {
      preHandler: [
        async (_req, reply) => {
          reply.header('x-mw-1', '1');
        },
        async (req) => {
          req.user = MW_USER;
        },
        async (_req, reply) => {
          reply.header('x-mw-3', '3');
        },
      ],
    },
    async (req) => ({ user: req.user!.id }),
  );

  // Scenario 8: @fastify/static's reply.sendFile (its defaults: ETag, Last-Modified, ranges).
  await app.register(fastifyStatic, { root: staticRoot(), serve: false });
  app.get<{ Params: { name: string } }>('/static/:name', (req, reply) => reply.sendFile(req.params.name));
  const users = makeUsers();
  app.get(USERS_PATH, { schema: { response: { 200: usersResponseSchema } } }, async () => users);

  addFillers(after);

  await app.listen({ port: options.port, host: options.host });
  return { close: () => app.close() };
}

export const start: StartServer = (options) => startFastify(options);
