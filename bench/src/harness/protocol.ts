/** Messages between the bench runner (parent) and a server child process, over Node IPC. */

export type ChildMode = 'serve' | 'startup';

export interface ChildConfig {
  server: string;
  /** Module path under dist/servers, without extension. */
  module: string;
  port: number;
  host: string;
  fillers: number;
  /** Startup servers: how many `/rI/mJ/{id}` routes to register. */
  routes: number;
  mode: ChildMode;
}

export type ParentMessage = { type: 'cpu-start' } | { type: 'cpu-stop' } | { type: 'close' };

export type ChildMessage =
  | { type: 'load-error'; message: string }
  | { type: 'start-error'; message: string }
  | { type: 'ready'; startupMs: number; loadMs: number; buildMs: number }
  | {
      type: 'startup';
      /** Node's time origin → listening (performance.now() when listening). */
      startupMs: number;
      /** Wall clock when listening (performance.timeOrigin + now, ms since the epoch): the runner subtracts its spawn time. */
      listeningAt: number;
      loadMs: number;
      buildMs: number;
      phases: Record<string, number>;
      cpuMs: number;
      heapUsed: number;
      rss: number;
    }
  | { type: 'cpu-started' }
  | { type: 'cpu'; userUs: number; systemUs: number; wallMs: number };

/** Server name → module under servers/ (compiled to dist/servers). */
export const SERVER_MODULES: Record<string, string> = {
  node: 'node-http',
  fastify: 'fastify',
  'fastify-schemas': 'fastify-schemas',
  express: 'express',
  'nest-express': 'nest-express',
  'nest-fastify': 'nest-fastify',
  tern: 'tern-plain',
  'tern-controller': 'tern-controller',
  'fastify-log': 'fastify-log',
  'tern-log': 'tern-log',
  'tern-limit': 'tern-limit',
  'tern-session': 'tern-session',
  'tern-limit-redis': 'tern-limit-redis',
  'fastify-limit-redis': 'fastify-limit-redis',
  'fastify-zod': 'fastify-zod',
  'tern-zod': 'tern-zod',
  'tern-connect': 'tern-connect',
  'fastify-middie': 'fastify-middie',
};

/** Servers that exist for one scenario only (9, 11–13, 16, 17): never part of a default server list. */
const SCENARIO_ONLY = new Set(['fastify-log', 'tern-log', 'tern-limit', 'tern-session', 'tern-limit-redis', 'fastify-limit-redis', 'tern-zod', 'fastify-zod', 'tern-connect', 'fastify-middie']);

/**
 * The startup scenario's processes (issue 27): each registers the same N `/rI/mJ/{id}` routes
 * (shared/startup-routes.ts). `openapi`: the server serves /openapi.json, which must document
 * every route (`summaries`: with the summary and tags each route declared).
 */
export interface StartupServer {
  module: string;
  what: string;
  openapi: false | { summaries: boolean };
}

export const STARTUP_SERVERS: Record<string, StartupServer> = {
  'node-bare': { module: 'startup-node', what: 'bare node:http, the paths in a Map (the floor)', openapi: false },
  tern: { module: 'startup-tern', what: "`app.get('/rI/mJ/{id:int}', { summary, tags }, handler)`", openapi: { summaries: true } },
  'tern-controller': {
    module: 'startup-tern-controller',
    what: "`@Controller('/rI')` classes of ten `@Get('/mJ/{id:int}') mJ(@Param('id') id: number)`",
    openapi: { summaries: false },
  },
  fastify: { module: 'startup-fastify', what: 'Fastify, `/rI/mJ/:id` with a params schema, no OpenAPI document', openapi: false },
  express: { module: 'startup-express', what: 'Express, `/rI/mJ/:id`, the id checked by hand', openapi: false },
};

/** The startup row every other is divided by. */
export const STARTUP_FLOOR = 'node-bare';

/** The servers of a default run; the scenario-only ones join only for their scenario (see SCENARIO_SERVERS). */
export const ALL_SERVERS = Object.keys(SERVER_MODULES).filter((name) => !SCENARIO_ONLY.has(name));
