/**
 * Fastify as its guide tells users to write it: the `fastify` server's app with a response
 * schema on every JSON route (fast-json-stringify, compiled at startup). See servers/fastify.ts.
 */
import { startFastify } from './fastify';
import type { StartServer } from './types';

export const start: StartServer = (options) => startFastify(options, {}, { responseSchemas: true });
