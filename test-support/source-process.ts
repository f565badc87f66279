/**
 * How a test starts a TypeScript example in a child process without `npm run build`: ts-node
 * transpiles (no type check: `npm test` already ran tsc) with the test tsconfig, so decorators
 * and their metadata work, and workspace-sources.ts maps `@tern/*` to the sources. Child
 * processes a node:cluster primary forks inherit both through `process.execArgv`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const rootDir = join(__dirname, '..');

/** `node` arguments that go before the example's entry file. */
export const SOURCE_EXEC_ARGV = ['-r', 'ts-node/register/transpile-only', '-r', join(__dirname, 'workspace-sources.ts')];

/** Environment variables ts-node reads. */
export const SOURCE_ENV = { TS_NODE_PROJECT: join(rootDir, 'tsconfig.test.json') };

/** The repository root, a good working directory for such a child. */
export const ROOT_DIR = rootDir;

/** An entry file run from the sources in a child process, its stdout and stderr collected. */
export interface SourceProcess {
  readonly child: ChildProcess;
  output(): string;
}

/** Starts `entry` (a `.ts` file) from the sources, with `env` over the test's own environment. */
export function startFromSources(entry: string, env: Record<string, string>): SourceProcess {
  const child = spawn(process.execPath, [...SOURCE_EXEC_ARGV, entry], {
    cwd: ROOT_DIR,
    env: { ...process.env, ...SOURCE_ENV, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk));
  return { child, output: () => output };
}

/**
 * Reads the process's output every 50 ms until `found` finds what it waits for (a value other
 * than undefined). Throws, with the output, when the process exits first or after `timeoutMs`:
 * a generous bound, which only a process that never gets there reaches.
 */
export async function waitForOutput<T>(started: SourceProcess, found: (output: string) => T | undefined, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (started.child.exitCode !== null) throw new Error(`${what}: the process exited first:\n${started.output()}`);
    const value = found(started.output());
    if (value !== undefined) return value;
    await sleep(50);
  }
  throw new Error(`${what}: not within ${timeoutMs} ms:\n${started.output()}`);
}
