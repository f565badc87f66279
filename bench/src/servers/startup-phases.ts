/**
 * The startup servers' phases, timed the same way for each: declaring the routes, `ready()`
 * (compiling them), `listen()`. The startup table shows each phase's median.
 */
import { performance } from 'node:perf_hooks';
import type { RunningServer } from './types';

export interface StartupApp {
  ready(): PromiseLike<unknown>;
  listen(options: { port: number; host: string }): PromiseLike<unknown>;
  close(): PromiseLike<unknown>;
}

export async function startTimed(declare: () => StartupApp, options: { port: number; host: string }): Promise<RunningServer> {
  const t0 = performance.now();
  const app = declare();
  const declared = performance.now();
  await app.ready();
  const ready = performance.now();
  await app.listen({ port: options.port, host: options.host });
  const listening = performance.now();
  return {
    close: async () => {
      await app.close();
    },
    phases: { declare: declared - t0, ready: ready - declared, listen: listening - ready },
  };
}
