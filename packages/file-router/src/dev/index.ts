export { DevLoop, developmentSecret } from './dev-loop';
export type { DevLoopOptions, Program } from './dev-loop';
export { removeStaleOutput } from './prune';
export type { CompiledTree } from './prune';
export { LiveReloadServer, LIVE_RELOAD_SCRIPT } from './live-reload';
