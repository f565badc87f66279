/**
 * Scenario 11: the plain Tern server with an app-wide `rateLimit` on the default memoryStore():
 * every request is counted (the limit is never reached), and answers with the rate-limit headers.
 */
import { BENCH_LIMIT, BENCH_WINDOW_MS } from '../shared/store-bench';
import { startTern } from './tern-plain';
import type { StartServer } from './types';

export const start: StartServer = (options) => startTern(options, { rateLimit: { limit: BENCH_LIMIT, window: BENCH_WINDOW_MS } });
