/**
 * The dev loop of a site (`@tern/file-router/dev`): a compiler in watch mode (`tsc -b --watch`)
 * and the server it feeds. After every rebuild that found no errors, compiled files whose source
 * was deleted are removed and the server restarts (the old process is stopped first, so the port
 * is free); a rebuild with errors leaves the last good server running. Templates need no restart
 * (the site runs with `autoReload`); with live reload, open pages reload after a restart and
 * after a template changes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import { createInterface } from 'node:readline';
import { LiveReloadServer } from './live-reload';
import { removeStaleOutput, type CompiledTree } from './prune';

/**
 * A program to run: `command` with `args`, in `cwd`, with `env` added to this process's environment.
 *
 * @example
 * const server: Program = { command: process.execPath, args: ['dist/main.js'], env: { PORT: '3000' } };
 */
export interface Program {
  command: string;
  args: string[];
  cwd?: string;
  env?: Record<string, string>;
}

/**
 * What `DevLoop` runs and watches.
 *
 * @example
 * const options: DevLoopOptions = { compiler, server, prune: [{ source: 'src/routes', compiled: 'dist/routes' }], watch: ['src/templates'] };
 */
export interface DevLoopOptions {
  /** A compiler in watch mode that prints tsc's `Found N errors. Watching for file changes.` after each build. */
  compiler: Program;
  /** Run after each good build, before the server starts (bundling, copying assets); must exit 0. */
  afterBuild?: Program;
  /**
   * The server, restarted after each good build. It runs with `NODE_ENV=development` and
   * `TERN_DEV_SECRET` (see `secret`) unless `env` says otherwise, and `TERN_LIVE_RELOAD` with live reload.
   */
  server: Program;
  /**
   * Source and compiled folders to keep in step: after each good build, compiled files whose
   * source is gone (a deleted route folder) are removed before the server starts.
   */
  prune?: CompiledTree[];
  /** Reload open pages after each restart and each change under `watch` (default true). */
  liveReload?: boolean | { port?: number };
  /** Folders whose changes reload open pages without a restart: templates, static files. */
  watch?: string[];
  /**
   * The secret the server signs cookies with when the app sets none (`TERN_DEV_SECRET`): fixed
   * for a project (derived from the server's folder), so forms and flash messages of a page
   * opened before a restart still work after it. Default on; a string sets it; `false` leaves
   * the server its per-process key.
   */
  secret?: string | false;
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
 *   server: { command: process.execPath, args: ['dist/main.js'] },
 *   prune: [{ source: 'src/routes', compiled: 'dist/routes' }],
 *   watch: ['src/templates'],
 * });
 * await loop.start();
 */
export class DevLoop {
  /** How many times the server was started. */
  starts = 0;
  private compiler?: ChildProcess;
  private server?: ChildProcess;
  private queue: Promise<void> = Promise.resolve();
  private stopped = false;
  private readonly log: (line: string) => void;
  /** The live reload server, while the loop runs with it. */
  liveReload?: LiveReloadServer;
  private watchers: FSWatcher[] = [];
  private serverEnv: Record<string, string> = {};

  constructor(private readonly options: DevLoopOptions) {
    this.log = options.log ?? ((line) => console.log(line));
  }

  /** Starts live reload (when on) and the compiler; the server follows each good build. */
  async start(): Promise<void> {
    const secret = this.options.secret ?? developmentSecret(this.options.server.cwd ?? process.cwd());
    this.serverEnv = { NODE_ENV: 'development', ...(secret === false ? {} : { TERN_DEV_SECRET: secret }) };
    if (this.options.liveReload !== false) {
      const live = (this.liveReload = new LiveReloadServer());
      const port = typeof this.options.liveReload === 'object' ? this.options.liveReload.port : undefined;
      this.serverEnv.TERN_LIVE_RELOAD = await live.listen(port);
      this.watchChanges(live);
    }
    if (this.stopped) return;
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
    for (const watcher of this.watchers.splice(0)) watcher.close();
    await this.queue;
    await stopProcess(this.server);
    await this.liveReload?.close();
  }

  /** Open pages reload when a file under `watch` changes (a burst of writes reloads once). */
  private watchChanges(live: LiveReloadServer): void {
    let timer: NodeJS.Timeout | undefined;
    for (const folder of this.options.watch ?? []) {
      const watcher = watch(folder, { recursive: true }, () => {
        clearTimeout(timer);
        timer = setTimeout(() => live.reload(), 50);
      });
      watcher.on('error', (err) => this.log(`[dev] cannot watch ${folder}: ${err.message}`));
      this.watchers.push(watcher);
    }
  }

  private async restart(): Promise<void> {
    if (this.stopped) return;
    await stopProcess(this.server);
    for (const tree of this.options.prune ?? []) {
      for (const file of removeStaleOutput(tree)) this.log(`[dev] removed ${file} from ${tree.compiled}: its source is gone`);
    }
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
    this.server = run({ ...this.options.server, env: { ...this.serverEnv, ...this.options.server.env } }, 'inherit');
    // Pages wait until the new server answers, then reload.
    this.liveReload?.reload();
  }
}

/**
 * A project's fixed development secret: the same after every restart, another in each project.
 *
 * @example
 * new DevLoop({ compiler, server, secret: developmentSecret(__dirname) }); // what it does by default
 */
export function developmentSecret(projectDir: string): string {
  return `tern-dev-${createHash('sha256').update(`tern-dev:${projectDir}`).digest('base64url').slice(0, 32)}`;
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
