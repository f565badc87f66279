/** The benchmark scenarios and how autocannon loads each one. */
import { ITEM_JSON, ROUTE_URL } from '../shared/payload';
import { SESSION_COOKIE } from '../shared/store-bench';
import { PEOPLE_COUNT, PEOPLE_PATH } from '../shared/people';
import { STATIC_URL } from '../shared/static-file';
import { USER_COUNT, USERS_PATH } from '../shared/users';

export type ScenarioId = 'hello' | 'route' | 'body' | 'mw' | 'users' | 'people' | 'file' | 'log' | 'limit' | 'session' | 'limit-redis' | 'body-zod' | 'connect';
export type ReportId = ScenarioId | 'controller' | 'startup' | 'echo' | 'broadcast';

export interface LoadScenario {
  id: ScenarioId;
  number: number;
  title: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  headers?: Record<string, string>;
  /** Only these servers implement the scenario (default: all). */
  servers?: string[];
  /**
   * The judged comparisons run here: after the interleaved rounds, `--pair-rounds` duels of
   * each pair of DUELS, for the median of per-round ratios.
   */
  paired?: boolean;
}

/**
 * The judged comparisons, each measured in duels (both servers loaded at once on the server
 * CPU): Tern against the baselines issue 27 divides it by (Fastify with response schemas, the
 * hand-routed node:http server), and controllers against plain routes (scenario 5). The first of
 * each pair is the one divided.
 */
export const DUELS: ReadonlyArray<readonly [string, string]> = [
  ['tern', 'fastify-schemas'],
  ['tern-controller', 'tern'],
  ['tern', 'node'],
  // Issue 39: scenario 3 with the model as a zod schema on both sides.
  ['tern-zod', 'fastify-zod'],
  // Issue 40: scenario 4's layers as Connect middleware, against the same layers as Tern
  // middleware and against Fastify running them through @fastify/middie.
  ['tern-connect', 'tern'],
  ['tern-connect', 'fastify-middie'],
  // Issue 37: what a rate limit (11) and a session read (12) add to plain Tern, and Redis
  // counting against @fastify/rate-limit's (13); a few percent that interleaved rounds' drift hides.
  ['tern-limit', 'tern'],
  ['tern-session', 'tern'],
  ['tern-limit-redis', 'fastify-limit-redis'],
];

export const LOAD_SCENARIOS: LoadScenario[] = [
  { id: 'hello', number: 1, title: 'GET / → {"hello":"world"}', method: 'GET', path: '/', paired: true },
  {
    id: 'route',
    number: 2,
    title: `GET ${ROUTE_URL} (int + slug params, ~100 routes)`,
    method: 'GET',
    path: ROUTE_URL,
    paired: true,
  },
  {
    id: 'body',
    number: 3,
    title: `POST /items, ${ITEM_JSON.length}-byte JSON body validated → 201`,
    method: 'POST',
    path: '/items',
    body: ITEM_JSON,
    headers: { 'content-type': 'application/json' },
    paired: true,
  },
  {
    id: 'body-zod',
    number: 16,
    title: `POST /items, the ${ITEM_JSON.length}-byte body of scenario 3 validated by a zod schema (Tern: Standard Schema; Fastify: fastify-type-provider-zod) → 201`,
    method: 'POST',
    path: '/items',
    body: ITEM_JSON,
    headers: { 'content-type': 'application/json' },
    servers: ['tern-zod', 'fastify-zod'],
    paired: true,
  },
  { id: 'mw', number: 4, title: 'GET /mw behind 3 async middleware layers', method: 'GET', path: '/mw', paired: true },
  {
    id: 'users',
    number: 7,
    title: `GET ${USERS_PATH} → ${USER_COUNT} users of 12 fields through a response model (2 fields filtered out)`,
    method: 'GET',
    path: USERS_PATH,
    paired: true,
  },
  {
    id: 'people',
    number: 10,
    title:
      `GET ${PEOPLE_PATH} → ${PEOPLE_COUNT} entities through a response model (a nested model keeping 2 of 3 fields, ` +
      'a Date, a float, a bio to escape; 2 undeclared fields left out)',
    method: 'GET',
    path: PEOPLE_PATH,
    paired: true,
  },
  {
    id: 'file',
    number: 8,
    title: `GET ${STATIC_URL}, a 1 MiB file (res.file, @fastify/static reply.sendFile, fs.createReadStream)`,
    method: 'GET',
    path: STATIC_URL,
    servers: ['node', 'fastify', 'fastify-schemas', 'tern'],
  },
  {
    id: 'log',
    number: 9,
    title: 'GET / → {"hello":"world"} with a pino logger on, lines to /dev/null (Fastify: its 2 lines per request; Tern: 1, plus an echoed request id)',
    method: 'GET',
    path: '/',
    servers: ['fastify-log', 'tern-log'],
  },
  {
    id: 'limit',
    number: 11,
    title: 'GET / → {"hello":"world"} with an app-wide rateLimit on memoryStore() (tern-limit), against plain Tern',
    method: 'GET',
    path: '/',
    servers: ['tern', 'tern-limit'],
    paired: true,
  },
  {
    id: 'session',
    number: 12,
    title: 'GET / answered from a session read (session() on memoryStore(), a fixed signed cookie; tern-session), against plain Tern',
    method: 'GET',
    path: '/',
    headers: { cookie: SESSION_COOKIE },
    servers: ['tern', 'tern-session'],
    paired: true,
  },
  {
    id: 'limit-redis',
    number: 13,
    title: 'GET / rate-limited in a local Redis: Tern rateLimit on redisStore() against @fastify/rate-limit (REDIS_URL or REDIS_TEST_URL)',
    method: 'GET',
    path: '/',
    servers: ['tern-limit-redis', 'fastify-limit-redis'],
    paired: true,
  },
  {
    id: 'connect',
    number: 17,
    title: 'GET /mw behind scenario 4\'s 3 layers written as Connect middleware (Tern: fromConnect; Fastify: @fastify/middie) and, for reference, as Tern middleware',
    method: 'GET',
    path: '/mw',
    servers: ['tern', 'tern-connect', 'fastify-middie'],
    paired: true,
  },
];

/**
 * Servers that exist for one scenario only (a logger, a rate limit, a session, zod, Connect
 * middleware): started only when that scenario runs, and measured in it alone.
 */
export const SCENARIO_SERVERS: Record<string, ScenarioId> = {
  'fastify-log': 'log',
  'tern-log': 'log',
  'tern-limit': 'limit',
  'tern-session': 'session',
  'tern-limit-redis': 'limit-redis',
  'fastify-limit-redis': 'limit-redis',
  'tern-zod': 'body-zod',
  'fastify-zod': 'body-zod',
  'tern-connect': 'connect',
  'fastify-middie': 'connect',
};

/** Names accepted by --only, numbers included (1–17). */
export const SCENARIO_ALIASES: Record<string, ReportId> = {
  '1': 'hello',
  hello: 'hello',
  '2': 'route',
  route: 'route',
  params: 'route',
  '3': 'body',
  body: 'body',
  '4': 'mw',
  mw: 'mw',
  middleware: 'mw',
  '5': 'controller',
  controller: 'controller',
  '6': 'startup',
  startup: 'startup',
  '7': 'users',
  users: 'users',
  responses: 'users',
  '8': 'file',
  file: 'file',
  static: 'file',
  '9': 'log',
  log: 'log',
  logging: 'log',
  '16': 'body-zod',
  'body-zod': 'body-zod',
  zod: 'body-zod',
  '17': 'connect',
  connect: 'connect',
  express: 'connect',
  '10': 'people',
  people: 'people',
  entities: 'people',
  '11': 'limit',
  limit: 'limit',
  'rate-limit': 'limit',
  '12': 'session',
  session: 'session',
  '13': 'limit-redis',
  'limit-redis': 'limit-redis',
  redis: 'limit-redis',
  '14': 'echo',
  echo: 'echo',
  '15': 'broadcast',
  broadcast: 'broadcast',
};
