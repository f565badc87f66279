/**
 * The dev loop behind `npm run dev:site`: a compiler in watch mode (`tsc -b --watch`) and the
 * server it feeds. After every rebuild that found no errors the server restarts (the old process
 * is stopped first, so the port is free); a rebuild with errors leaves the last good server
 * running. Templates need no restart: the site runs with `autoReload` in development.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/** A program to run: `command` with `args`, in `cwd`, with `env` added to this process's environment. */
export interface Program {
  command: string;
  args: string[];
  cwd?: string;
  env?: Record<string, string>;
}

export interface DevLoopOptions {
  /** A compiler in watch mode that prints tsc's `Found N errors. Watching for file changes.` after each build. */
  compiler: Program;
  /** Run after each good build, before the server starts (bundling, copying assets); must exit 0. */
  afterBuild?: Program;
  /** The server, restarted after each good build. */
  server: Program;
  /** Where the loop's own lines go (default `console.log`); the programs' output is passed through. */
  log?: (line: string) => void;
}

/** tsc's watch-mode summary line: `Found 0 errors. Watching for file changes.` */
const SUMMARY = /Found (\d+) errors?\. Watching for file changes\./;

/**
 * Runs the compiler and restarts the server after each good build.
 *
 * @example
 * const loop = new DevLoop({
 *   compiler: { command: process.execPath, args: [require.resolve('typescript/bin/tsc'), '-b', 'tsconfig.json', '--watch', '--preserveWatchOutput'] },
 *   server: { command: process.execPath, args: ['dist/main.js'], env: { NODE_ENV: 'development' } },
 * });
 * loop.start();
 */
export class DevLoop {
  /** How many times the server was started. */
  starts = 0;
  private compiler?: ChildProcess;
  private server?: ChildProcess;
  private queue: Promise<void> = Promise.resolve();
  private stopped = false;
  private readonly log: (line: string) => void;

  constructor(private readonly options: DevLoopOptions) {
    this.log = options.log ?? ((line) => console.log(line));
  }

  start(): void {
    const compiler = (this.compiler = run(this.options.compiler, 'pipe'));
    createInterface({ input: compiler.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      process.stdout.write(`${line}\n`);
      const summary = SUMMARY.exec(line);
      if (!summary) return;
      if (summary[1] === '0') this.queue = this.queue.then(() => this.restart());
      else this.log('[dev] the build has errors: the last good server keeps running');
    });
    compiler.on('exit', (code) => {
      if (!this.stopped) this.log(`[dev] the compiler exited (${code}); stopping`);
      void this.stop();
    });
  }

  /** Stops the compiler and the server; resolves once both are gone. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.compiler?.kill();
    await this.queue;
    await stopProcess(this.server);
  }

  private async restart(): Promise<void> {
    if (this.stopped) return;
    await stopProcess(this.server);
    if (this.options.afterBuild) {
      const code = await exitCode(run(this.options.afterBuild, 'inherit'));
      if (code !== 0) {
        this.log(`[dev] ${this.options.afterBuild.command} failed (${code}); the server stays down until the next good build`);
        return;
      }
    }
    if (this.stopped) return;
    this.starts++;
    this.log(this.starts === 1 ? '[dev] starting the server' : '[dev] rebuilt: restarting the server');
    this.server = run(this.options.server, 'inherit');
  }
}

function run(program: Program, stdout: 'pipe' | 'inherit'): ChildProcess {
  return spawn(program.command, program.args, { cwd: program.cwd, env: { ...process.env, ...program.env }, stdio: ['ignore', stdout, 'inherit'] });
}

function exitCode(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.on('exit', (code) => resolve(code));
    child.on('error', () => resolve(-1));
  });
}

/** SIGTERM, then SIGKILL if it is still there after five seconds. */
async function stopProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = exitCode(child);
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}
