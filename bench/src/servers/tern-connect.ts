/**
 * Scenario 17: Tern as shipped, `/mw` behind scenario 4's three layers written as Connect
 * middleware and run through `fromConnect` (against `tern`, the same layers as Tern middleware).
 */
import { CONNECT_LAYERS, startTern } from './tern-plain';
import type { StartServer } from './types';

export const start: StartServer = (options) => startTern(options, {}, { mwLayers: CONNECT_LAYERS });
