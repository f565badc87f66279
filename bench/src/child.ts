/**
 * Entry point of a server child process. argv[2] is a JSON ChildConfig.
 *
 * 'serve' mode: load the server module, start it, report 'ready', then answer the runner's
 * 'cpu-start' / 'cpu-stop' messages with process.cpuUsage() deltas over the measured window.
 * 'startup' mode: load, start, force two GCs (--expose-gc), report the time from process start
 * to listening (and the wall clock then, for the runner's spawn → listening) and the heap in use,
 * then keep serving until the runner, having sent its first requests, says 'close'.
 *
 * performance.now() counts from the process's time origin (Node's start), so the startup time
 * includes Node's own boot, loading the framework and registering the routes, and listen().
 */
import { performance } from 'node:perf_hooks';
import * as path from 'node:path';
import type { ChildConfig, ChildMessage, ParentMessage } from './harness/protocol';
import type { RunningServer, StartServer } from './servers/types';

const scriptStart = performance.now();

function send(msg: ChildMessage): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send || !process.connected) return resolve();
    process.send(msg, undefined, undefined, () => resolve());
  });
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    const first = err.stack?.split('\n').slice(0, 4).join('\n') ?? err.message;
    return first;
  }
  return String(err);
}

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? '{}') as ChildConfig;
  // Die with the runner, whatever happens to it.
  process.on('disconnect', () => process.exit(0));

  let start: StartServer;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mod = require(path.join(__dirname, 'servers', config.module)) as { start?: StartServer };
    if (typeof mod.start !== 'function') throw new Error(`servers/${config.module} exports no start()`);
    start = mod.start;
  } catch (err) {
    await send({ type: 'load-error', message: describe(err) });
    process.exit(2);
  }
  const loaded = performance.now();

  let server: RunningServer;
  try {
    server = await start({ port: config.port, host: config.host, fillers: config.fillers, routes: config.routes });
  } catch (err) {
    await send({ type: 'start-error', message: describe(err) });
    process.exit(3);
  }
  const listening = performance.now();
  const listeningAt = performance.timeOrigin + listening;
  const cpu = process.cpuUsage(); // since the process started
  const timing = { startupMs: listening, loadMs: loaded - scriptStart, buildMs: listening - loaded };

  let base: NodeJS.CpuUsage | null = null;
  let baseWall = 0;
  process.on('message', (msg: ParentMessage) => {
    switch (msg.type) {
      case 'cpu-start':
        base = process.cpuUsage();
        baseWall = performance.now();
        void send({ type: 'cpu-started' });
        break;
      case 'cpu-stop': {
        const d = process.cpuUsage(base ?? undefined);
        void send({ type: 'cpu', userUs: d.user, systemUs: d.system, wallMs: performance.now() - baseWall });
        base = null;
        break;
      }
      case 'close':
        void Promise.race([server.close(), new Promise((r) => setTimeout(r, 2000))]).then(() => process.exit(0));
        break;
    }
  });
  if (config.mode === 'startup') {
    const gc = (globalThis as { gc?: () => void }).gc;
    if (gc) {
      gc();
      gc();
    }
    const mem = process.memoryUsage();
    const cpuMs = (cpu.user + cpu.system) / 1000;
    // Then wait for 'close' (above): the runner first sends the first requests and checks them.
    await send({ type: 'startup', ...timing, listeningAt, phases: server.phases ?? {}, cpuMs, heapUsed: mem.heapUsed, rss: mem.rss });
    return;
  }
  await send({ type: 'ready', ...timing });
}

main().catch(async (err) => {
  await send({ type: 'start-error', message: describe(err) });
  process.exit(1);
});
