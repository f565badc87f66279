/**
 * Spawning server children (pinned with taskset when available), talking to them over IPC, and
 * making sure none outlives the runner: every child is tracked and SIGKILLed on exit, on
 * SIGINT/SIGTERM and on uncaught errors.
 */
import { ChildProcess, spawn } from 'node:child_process';
import * as net from 'node:net';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ChildConfig, ChildMessage, ParentMessage } from './protocol';

const live = new Set<ChildProcess>();

export function killAll(): void {
  for (const child of live) {
    try {
      child.kill('SIGKILL');
    } catch {
      /* already gone */
    }
  }
  live.clear();
}

let hooked = false;
export function installCleanup(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      process.stderr.write(`\n${signal}: stopping the servers\n`);
      killAll();
      process.exit(130);
    });
  }
  process.on('uncaughtException', (err) => {
    process.stderr.write(`bench: ${err.stack ?? err.message}\n`);
    killAll();
    process.exit(1);
  });
  process.on('unhandledRejection', (err) => {
    process.stderr.write(`bench: unhandled rejection: ${err instanceof Error ? err.stack : String(err)}\n`);
    killAll();
    process.exit(1);
  });
}

/** A free loopback port (the OS picks one; tiny race window, fine on a quiet machine). */
export function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, host, () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * A server child idles while the others are measured (half a minute and more in a full run).
 * V8's memory reducer then runs a memory-reducing GC, which can discard optimised code whose
 * maps died meanwhile: seen with Node's own `process.nextTick`, re-optimised afterwards into code
 * that cost up to ~3.5 µs more per request, for the rest of the process's life, in whichever
 * server it happened to. That is a lottery on idle timing, not a property of the server under
 * load, so every serving child runs without it (the same for every framework). Pass
 * `--memory-reducer` through TERN_BENCH_NODE_ARGS to see the effect.
 */
const SERVE_NODE_ARGS = ['--no-memory-reducer'];

/**
 * Extra Node flags for some server children, for profiling one of them inside a full run:
 * `TERN_BENCH_NODE_ARGS='tern-controller=--cpu-prof --cpu-prof-dir=/tmp/prof'` (several
 * `server=flags` pairs separated by `;`). The runner itself never gets them.
 */
function extraNodeArgs(server: string): string[] {
  const spec = process.env.TERN_BENCH_NODE_ARGS ?? '';
  for (const pair of spec.split(';')) {
    const eq = pair.indexOf('=');
    if (eq !== -1 && pair.slice(0, eq).trim() === server) return pair.slice(eq + 1).trim().split(/\s+/).filter(Boolean);
  }
  return [];
}

/**
 * Environment variables dropped from every child. `NODE_EXTRA_CA_CERTS` makes Node read and parse
 * a certificate bundle before V8 even starts: ~55 ms of every process's boot on a machine that sets
 * it for its package proxy (this one does), the same for the floor and every framework. None of the
 * servers opens a TLS connection, and that constant would only shrink every startup ratio towards
 * 1 (issue 27's floor of 79 ms was measured without it).
 */
export const DROPPED_ENV = ['NODE_EXTRA_CA_CERTS'] as const;

/** The names of DROPPED_ENV set in the runner's environment (the report lists them). */
export function droppedEnv(): string[] {
  return DROPPED_ENV.filter((name) => process.env[name] !== undefined);
}

/** The environment of every server child: the runner's, in production mode, without DROPPED_ENV. */
export function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production' };
  for (const name of DROPPED_ENV) delete env[name];
  return env;
}

export interface Pinning {
  /**
   * `taskset -c <cpus>` for the server children: one CPU, a CPU list such as `0-1`, or null for
   * no taskset (children then inherit the runner's own affinity, which is CPU 0 when pinned).
   */
  serverCpu: number | string | null;
  loadCpu: number | null;
  note: string;
}

export class ServerChild {
  readonly proc: ChildProcess;
  private readonly waiters: Array<{ types: ChildMessage['type'][]; resolve: (m: ChildMessage) => void }> = [];
  private exited: string | null = null;
  private exitWaiters: Array<(why: string) => void> = [];
  /** Wall clock just before the spawn (performance.timeOrigin + now, ms since the epoch). */
  readonly spawnedAt: number;

  /** `env`: variables added to the child's environment (childEnv()). */
  constructor(readonly config: ChildConfig, pinning: Pinning, env: NodeJS.ProcessEnv = {}) {
    const entry = path.join(__dirname, '..', 'child.js');
    const nodeArgs = [
      '--expose-gc',
      ...(config.mode === 'serve' ? SERVE_NODE_ARGS : []),
      ...extraNodeArgs(config.server),
      entry,
      JSON.stringify(config),
    ];
    const childEnvironment = { ...childEnv(), ...env };
    const stdio: ['ignore', 'inherit', 'inherit', 'ipc'] = ['ignore', 'inherit', 'inherit', 'ipc'];
    this.spawnedAt = performance.timeOrigin + performance.now();
    this.proc =
      pinning.serverCpu !== null
        ? spawn('taskset', ['-c', String(pinning.serverCpu), process.execPath, ...nodeArgs], { stdio, env: childEnvironment })
        : spawn(process.execPath, nodeArgs, { stdio, env: childEnvironment });
    live.add(this.proc);
    this.proc.on('message', (msg: ChildMessage) => {
      const i = this.waiters.findIndex((w) => w.types.includes(msg.type));
      if (i !== -1) this.waiters.splice(i, 1)[0]!.resolve(msg);
    });
    this.proc.on('error', (err) => this.markExited(`spawn error: ${err.message}`));
    this.proc.on('exit', (code, signal) => this.markExited(`exited (code ${code}, signal ${signal})`));
  }

  get alive(): boolean {
    return this.exited === null;
  }

  private markExited(why: string): void {
    if (this.exited !== null) return;
    this.exited = why;
    live.delete(this.proc);
    for (const w of this.exitWaiters) w(why);
    this.exitWaiters = [];
  }

  /** Wait for the next message of one of `types`; rejects on exit or after `timeoutMs`. */
  waitFor<T extends ChildMessage['type']>(
    types: T[],
    timeoutMs: number,
  ): Promise<Extract<ChildMessage, { type: T }>> {
    return new Promise((resolve, reject) => {
      if (this.exited !== null) return reject(new Error(`${this.config.server} ${this.exited}`));
      const waiter = {
        types: types as ChildMessage['type'][],
        resolve: (m: ChildMessage) => {
          clearTimeout(timer);
          resolve(m as Extract<ChildMessage, { type: T }>);
        },
      };
      const timer = setTimeout(() => {
        const i = this.waiters.indexOf(waiter);
        if (i !== -1) this.waiters.splice(i, 1);
        reject(new Error(`${this.config.server}: no ${types.join('/')} message within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.push(waiter);
      this.exitWaiters.push((why) => {
        clearTimeout(timer);
        reject(new Error(`${this.config.server} ${why}`));
      });
    });
  }

  send(msg: ParentMessage): void {
    if (this.proc.connected) this.proc.send(msg);
  }

  /** Ask politely, then SIGKILL after `graceMs`. */
  async stop(graceMs = 1500): Promise<void> {
    if (this.exited !== null) return;
    const gone = new Promise<void>((resolve) => this.exitWaiters.push(() => resolve()));
    this.send({ type: 'close' });
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), graceMs);
    await gone;
    clearTimeout(timer);
  }
}
