/** Messages between the bench runner (parent) and a server child process, over Node IPC. */

export type ChildMode = 'serve' | 'startup';

export interface ChildConfig {
  server: string;
  /** Module path under dist/servers, without extension. */
  module: string;
  port: number;
  host: string;
  fillers: number;
  mode: ChildMode;
}

export type ParentMessage = { type: 'cpu-start' } | { type: 'cpu-stop' } | { type: 'close' };

export type ChildMessage =
  | { type: 'load-error'; message: string }
  | { type: 'start-error'; message: string }
  | { type: 'ready'; startupMs: number; loadMs: number; buildMs: number }
  | { type: 'startup'; startupMs: number; loadMs: number; buildMs: number; cpuMs: number; heapUsed: number; rss: number }
  | { type: 'cpu-started' }
  | { type: 'cpu'; userUs: number; systemUs: number; wallMs: number };

/** Server name → module under servers/ (compiled to dist/servers). */
export const SERVER_MODULES: Record<string, string> = {
  node: 'node-http',
  fastify: 'fastify',
  express: 'express',
  'nest-express': 'nest-express',
  'nest-fastify': 'nest-fastify',
  tern: 'tern-plain',
  'tern-controller': 'tern-controller',
  'fastify-log': 'fastify-log',
  'tern-log': 'tern-log',
};

/** The servers of a default run; the `-log` ones join only for scenario 9 (see SCENARIO_SERVERS). */
export const ALL_SERVERS = Object.keys(SERVER_MODULES).filter((name) => !name.endsWith('-log'));
