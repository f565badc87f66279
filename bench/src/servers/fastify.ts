/**
 * Fastify 5 as shipped: no logger, body validated by a JSON schema (Ajv, compiled at startup),
 * path parameters typed by a params schema (id coerced to an integer, slug checked by pattern).
 *
 * Two servers run this app (see docs/performance.md):
 * - `fastify`: no response schemas in scenarios 1–4 (Fastify's default serializer,
 *   JSON.stringify); scenario 7 (GET /users) declares one, so fast-json-stringify writes (and
 *   filters) the users; scenario 10 (GET /people) maps each entity by hand, as a Fastify user
 *   without schemas does, and lets JSON.stringify write them.
 * - `fastify-schemas` (`responseSchemas: true`): a response schema on every JSON route, as
 *   Fastify's guide tells users, so fast-json-stringify writes every answer; GET /people returns
 *   the stored entities and its schema filters them. The file route (scenario 8) streams bytes:
 *   no response schema applies to it.
 */
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyServerOptions } from 'fastify';
import {
  createdItemResponseSchema,
  fillerResponseSchema,
  helloResponseSchema,
  mwResponseSchema,
  routeResponseSchema,
} from '../shared/fastify-response-schemas';
import { itemSchema } from '../shared/item-schema';
import { MW_USER, SLUG_PATTERN } from '../shared/payload';
import { FillerRoute, colonPath, fillerBody, splitFillers } from '../shared/routes';
import { PEOPLE_PATH, makePeople, peopleResponseSchema, toPersonJson } from '../shared/people';
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

export interface BenchFastifyOptions {
  /** A response schema on every JSON route (the `fastify-schemas` server). */
  responseSchemas?: boolean;
}

/**
 * Fastify with the bench's routes; `fastifyOptions` (a logger for scenario 9) over
 * `{ logger: false }`; `bench.responseSchemas` for the `fastify-schemas` server.
 */
export async function startFastify(
  options: ServerOptions,
  fastifyOptions: FastifyServerOptions = {},
  bench: BenchFastifyOptions = {},
): Promise<RunningServer> {
  const app = Fastify({ logger: false, ...fastifyOptions });
  app.decorateRequest('user', null);
  // `{ response: { [status]: schema } }` on the schemas server, nothing on the plain one (whose
  // routes keep exactly the options they had before the schemas server existed).
  const responseOf = (status: number, schema: object) => (bench.responseSchemas ? { response: { [status]: schema } } : {});
  const onlyResponse = (status: number, schema: object) => (bench.responseSchemas ? { schema: responseOf(status, schema) } : {});

  const [before, after] = splitFillers(options.fillers);
  const addFillers = (routes: FillerRoute[]) => {
    for (const route of routes) {
      const body = fillerBody(route);
      app.get(colonPath(route), onlyResponse(200, fillerResponseSchema), async () => body);
    }
  };

  addFillers(before);

  app.get('/', onlyResponse(200, helloResponseSchema), async () => ({ hello: 'world' }));

  app.get<{ Params: { id: number; slug: string } }>(
    '/users/:id/posts/:slug',
    { schema: { params: routeParamsSchema, ...responseOf(200, routeResponseSchema) } },
    async (req) => ({ id: req.params.id, slug: req.params.slug }),
  );

  let nextId = 0;
  app.post<{ Body: Record<string, unknown> }>(
    '/items',
    { schema: { body: itemSchema, ...responseOf(201, createdItemResponseSchema) } },
    async (req, reply) => {
      reply.code(201);
      return { id: ++nextId, ...req.body };
    },
  );

  app.get(
    '/mw',
    {
      ...onlyResponse(200, mwResponseSchema),
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
  // Scenario 10: the schema filters the entities; without schemas, a hand-written mapping.
  const people = makePeople();
  if (bench.responseSchemas) {
    app.get(PEOPLE_PATH, { schema: { response: { 200: peopleResponseSchema } } }, async () => people);
  } else {
    app.get(PEOPLE_PATH, async () => people.map(toPersonJson));
  }

  addFillers(after);

  await app.listen({ port: options.port, host: options.host });
  return { close: () => app.close() };
}

export const start: StartServer = (options) => startFastify(options);
