/**
 * Scenario 9: Fastify as shipped with its pino logger on (`loggerInstance`): a request id and a
 * child logger per request, `incoming request` and `request completed` lines (its defaults).
 */
import { benchLogger } from '../shared/log-destination';
import { startFastify } from './fastify';
import type { StartServer } from './types';

export const start: StartServer = (options) => startFastify(options, { loggerInstance: benchLogger() });
