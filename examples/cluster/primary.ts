/**
 * The cluster primary: it serves nothing itself. It forks the workers (which share one listening
 * port through node:cluster), replaces a worker that dies unexpectedly, and on SIGTERM or SIGINT
 * drains them all and exits. It never imports the application, so it starts fast and a bug in
 * the app cannot take it down.
 */
import cluster, { type Worker } from 'node:cluster';
import { SHUTDOWN_MESSAGE } from './shutdown-message';

/**
 * What a Tern worker sends at startup when its rate limits or sessions live in `memoryStore()`
 * (`MEMORY_STORE_MESSAGE` of @tern/core, written out so the primary never loads the framework).
 */
const MEMORY_STORE_MESSAGE = 'tern:memory-store';

/**
 * How restarts slow down when workers keep dying.
 *
 * @example
 * runPrimary({ workers: 2, exec, shutdownTimeoutMs: 12_000, backoff: { baseMs: 500, maxMs: 30_000 } });
 */
export interface BackoffOptions {
  /** Delay before restarting after the first crash in the window (default 100 ms). */
  baseMs?: number;
  /** Longest delay (default 10 s). */
  maxMs?: number;
  /** Crashes older than this no longer count (default 30 s): a worker that lived that long resets the backoff. */
  windowMs?: number;
}

/**
 * What `runPrimary` supervises.
 *
 * @example
 * const options: PrimaryOptions = { workers: 4, exec: join(__dirname, 'worker.js'), shutdownTimeoutMs: 12_000 };
 */
export interface PrimaryOptions {
  /** How many workers to keep running. */
  workers: number;
  /** The worker entry file. */
  exec: string;
  /** After a shutdown signal, time to wait for every worker before SIGKILL. */
  shutdownTimeoutMs: number;
  backoff?: BackoffOptions;
  log?: (line: string) => void;
}

/**
 * Delay before forking a replacement, given how many workers crashed within the window
 * (this one included): 100 ms, 200 ms, 400 ms… up to `maxMs`, so a crash loop never spins.
 *
 * @example
 * restartDelay(1); // 100
 * restartDelay(4); // 800
 */
export function restartDelay(recentCrashes: number, { baseMs = 100, maxMs = 10_000 }: BackoffOptions = {}): number {
  const doublings = Math.min(Math.max(recentCrashes - 1, 0), 30);
  return Math.min(baseMs * 2 ** doublings, maxMs);
}

/**
 * Starts the primary: forks `workers` workers running `exec` and supervises them until a
 * SIGTERM or SIGINT has drained them all; then the process exits, 0 when every worker
 * closed cleanly in time, 1 otherwise.
 *
 * @example
 * runPrimary({ workers: 4, exec: join(__dirname, 'worker.js'), shutdownTimeoutMs: 12_000 });
 */
export function runPrimary(options: PrimaryOptions): void {
  const log = options.log ?? ((line: string) => console.log(line));
  const windowMs = options.backoff?.windowMs ?? 30_000;
  const live = new Set<Worker>();
  const pendingRestarts = new Set<NodeJS.Timeout>();
  let crashTimes: number[] = [];
  let shuttingDown = false;
  let failedShutdown = false;
  let deadline: NodeJS.Timeout | undefined;

  cluster.setupPrimary({ exec: options.exec });

  const fork = (): void => {
    live.add(cluster.fork());
  };

  const tellToClose = (worker: Worker): void => {
    // A worker whose channel is already gone is exiting anyway; a failed send is not an error.
    if (worker.isConnected()) worker.send(SHUTDOWN_MESSAGE, () => undefined);
  };

  const finish = (): void => {
    clearTimeout(deadline);
    log(`primary ${process.pid}: all workers exited`);
    process.exit(failedShutdown ? 1 : 0);
  };

  // With more than one worker, state kept in each worker's memory splits: four workers allow four
  // times a rate limit, and a session exists only in the worker that made it. Said once.
  let warnedAboutMemory = false;
  cluster.on('message', (worker, message: { type?: unknown; uses?: unknown }) => {
    if (message?.type !== MEMORY_STORE_MESSAGE || options.workers < 2 || warnedAboutMemory) return;
    warnedAboutMemory = true;
    const uses = Array.isArray(message.uses) ? message.uses.join(' and ') : 'rate limits or sessions';
    log(
      `warning: ${options.workers} workers, but ${uses} use memoryStore(): each worker keeps its own counts and sessions. ` +
        'Give the app a shared store: new TernApp({ store: redisStore({ url: process.env.REDIS_URL }) }) (docs/store.md).',
    );
  });

  cluster.on('listening', (worker, address) => {
    log(`worker ${worker.process.pid} listening on ${address.address}:${address.port}`);
    // A worker forked just before the signal may have missed the message: ask again.
    if (shuttingDown) tellToClose(worker);
  });

  cluster.on('exit', (worker, code, signal) => {
    live.delete(worker);
    if (shuttingDown) {
      if (code !== 0) failedShutdown = true;
      if (live.size === 0) finish();
      return;
    }
    const now = Date.now();
    crashTimes = [...crashTimes.filter((t) => now - t < windowMs), now];
    const delay = restartDelay(crashTimes.length, options.backoff);
    log(`worker ${worker.process.pid} died (${signal ?? `code ${code}`}); restarting in ${delay} ms`);
    const timer = setTimeout(() => {
      pendingRestarts.delete(timer);
      fork();
    }, delay);
    pendingRestarts.add(timer);
  });

  const shutdown = (signal: NodeJS.Signals): void => {
    if (shuttingDown) {
      // A second signal (Ctrl-C twice) means "now".
      log(`primary ${process.pid}: second ${signal}, killing workers`);
      for (const worker of live) worker.process.kill('SIGKILL');
      failedShutdown = true;
      return;
    }
    shuttingDown = true;
    log(`primary ${process.pid}: ${signal}, draining ${live.size} worker(s)`);
    for (const timer of pendingRestarts) clearTimeout(timer);
    pendingRestarts.clear();
    for (const worker of live) tellToClose(worker);
    deadline = setTimeout(() => {
      log(`primary ${process.pid}: ${live.size} worker(s) still running after ${options.shutdownTimeoutMs} ms, killing them`);
      failedShutdown = true;
      for (const worker of live) worker.process.kill('SIGKILL');
    }, options.shutdownTimeoutMs);
    if (live.size === 0) finish();
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);

  for (let i = 0; i < options.workers; i++) fork();
}
