/**
 * What a cluster worker tells its primary at startup about state that does not hold across
 * processes, so the process that knows how many workers run can warn once.
 */
import type Cluster from 'node:cluster';

/**
 * The `type` of the message a worker sends when its rate limits or sessions use `memoryStore()`.
 * A cluster primary that forks more than one worker should warn when it gets one.
 *
 * @example
 * cluster.on('message', (worker, message) => {
 *   if (message?.type === MEMORY_STORE_MESSAGE && workers > 1) console.warn(`rate limits are per worker: ${message.uses.join(', ')}`);
 * });
 */
export const MEMORY_STORE_MESSAGE = 'tern:memory-store';

/** The message: which features keep their state in this worker's memory. */
export interface MemoryStoreNotice {
  type: typeof MEMORY_STORE_MESSAGE;
  pid: number;
  uses: string[];
}

/** Sends `notice` to the cluster primary; does nothing outside a cluster worker. */
export function tellClusterPrimary(notice: MemoryStoreNotice): void {
  if (typeof process.send !== 'function') return;
  // Loaded only in a child process: every other app never needs node:cluster.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  if (!(require('node:cluster') as typeof Cluster).isWorker) return;
  // A primary that has gone away is not this app's problem at startup.
  process.send(notice, undefined, undefined, () => undefined);
}
