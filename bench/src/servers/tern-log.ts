/**
 * Scenario 9: Tern as shipped with a pino logger on (`new TernApp({ logger })`): a request id per
 * request, echoed, and one `request completed` line per request.
 */
import { benchLogger } from '../shared/log-destination';
import { startTern } from './tern-plain';
import type { StartServer } from './types';

export const start: StartServer = (options) => startTern(options, { logger: benchLogger() });
