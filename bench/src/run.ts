/**
 * `npm run bench` — Tern against node:http, Fastify, Express and NestJS (Express and Fastify
 * adapters). See docs/performance.md.
 *
 *   node bench/dist/run.js [--duration 5] [--rounds 3] [--connections 50] [--warmup 1]
 *                          [--only hello,route,body,mw,controller,startup,users,people,file,log,limit,session,limit-redis,echo,broadcast,body-zod,connect] [--servers a,b]
 *                          [--quick] [--no-pin] [--startup-routes 1000] [--startup-rounds 5] [--pair-rounds 4]
 *
 * Each server runs in its own child process (pinned to the last CPU with taskset when there
 * are at least two); this process runs autocannon, pinned to CPU 0. Servers are interleaved
 * within each round, starting from a different server each round; then, in the paired
 * scenarios, each judged pair (DUELS) runs duels: both servers loaded at once, sharing the
 * server CPU; the socket scenarios (sockets/socket-bench.ts) do the same with their own pairs.
 * The startup scenario spawns fresh processes of its own servers (STARTUP_SERVERS), interleaved.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { checkScenario } from './harness/checks';
import { Pinning, ServerChild, droppedEnv, freePort, installCleanup, killAll } from './harness/children';
import { CONTENDED, LoadTarget, RunResult, measure, measureTogether, waitForQuiet } from './harness/load';
import { ALL_SERVERS, SERVER_MODULES, STARTUP_SERVERS } from './harness/protocol';
import {
  LoadSummary,
  Report,
  Round,
  RunOptions,
  ScenarioRounds,
  Skip,
  StartupSample,
  StartupSummary,
  controllerPairs,
  evaluateTargets,
  summariseController,
  summariseLoad,
  summarisePairs,
  summariseStartup,
  toMarkdown,
} from './harness/report';
import {
  LOAD_SCENARIOS,
  LoadScenario,
  DUELS,
  ReportId,
  SCENARIO_ALIASES,
  SCENARIO_SERVERS,
  ScenarioId,
} from './harness/scenarios';
import { checkStartupServer } from './harness/startup-checks';
import { DEFAULT_FILLERS } from './shared/routes';
import { runSocketScenario } from './sockets/socket-bench';
import type { SocketResult, SocketScenarioId } from './sockets/socket-report';

const HOST = '127.0.0.1';
const RESULTS_DIR = path.resolve(__dirname, '..', 'results');

const HELP = `Usage: node bench/dist/run.js [options]   (or: npm run bench -- [options])

  --duration <s>       seconds per measured round (default 5)
  --rounds <n>         rounds per server and scenario; the report shows the median (default 3;
                       the socket scenarios run at least 5 outside quick mode)
  --connections <n>    autocannon connections (default 50)
  --warmup <s>         unmeasured warm-up per server and scenario (default 1)
  --only <list>        scenarios: hello,route,body,mw,controller,startup,users,file,log,people,limit,session,limit-redis,echo,broadcast,body-zod,connect (or 1-17)
  --servers <list>     ${Object.keys(SERVER_MODULES).join(',')}
                       (load scenarios; the startup scenario always runs its own: ${Object.keys(STARTUP_SERVERS).join(',')})
  --startup-routes <n> routes registered in the startup scenario, a multiple of 10 (default 1000)
  --startup-rounds <n> fresh processes per startup server and CPU setting (default 5, quick 1)
  --pair-rounds <n>    duels of each judged pair (${DUELS.map((d) => d.join(' and ')).join(', ')}),
                       both servers loaded at once on the server CPU, the pair's order turned every
                       round, per paired scenario (1-4, 7, 10-13, 16, 17), for the judged per-round ratios;
                       in 14-15 (sockets) Tern and each of ws, fastify (echo) and ws (broadcast)
                       (default 4, quick 0; 0 = judge the interleaved rounds; alias --controller-rounds)
  --quiet-wait <s>     before each round, wait up to this long for other processes to use
                       less than ${CONTENDED * 100}% of a core (Linux /proc/stat; default 20, 0 = off)
  --retries <n>        re-run a round up to n times when other processes took more than
                       ${CONTENDED * 100}% of a core during it (Linux /proc/stat; default 2)
  --quick              smoke test: 1 s, 1 round, 0.25 s warm-up (explicit flags win)
  --no-pin             do not pin processes to CPUs with taskset
  --help
`;

interface Options extends RunOptions {
  pin: boolean;
  startupRoutes: number;
  loadScenarios: LoadScenario[];
  startup: boolean;
  /** 14. echo, 15. broadcast: sockets/socket-bench.ts, their own servers. */
  sockets: SocketScenarioId[];
  servers: string[];
}

function positive(name: string, value: string | undefined, fallback: number, integer: boolean): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) {
    throw new Error(`--${name} must be a positive ${integer ? 'integer' : 'number'}, got "${value}"`);
  }
  return n;
}

function list(value: string | undefined): string[] | undefined {
  return value
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      duration: { type: 'string' },
      rounds: { type: 'string' },
      connections: { type: 'string' },
      warmup: { type: 'string' },
      retries: { type: 'string' },
      'quiet-wait': { type: 'string' },
      only: { type: 'string' },
      servers: { type: 'string' },
      'startup-routes': { type: 'string' },
      'startup-rounds': { type: 'string' },
      'pair-rounds': { type: 'string' },
      'controller-rounds': { type: 'string' },
      quick: { type: 'boolean', default: false },
      'no-pin': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    process.stdout.write(HELP);
    process.exit(0);
  }
  const quick = values.quick === true;

  let selected: ReportId[] = ['hello', 'route', 'body', 'mw', 'users', 'people', 'file', 'log', 'limit', 'session', 'limit-redis', 'body-zod', 'connect', 'controller', 'startup', 'echo', 'broadcast'];
  const only = list(values.only);
  if (only) {
    selected = only.map((name) => {
      const id = SCENARIO_ALIASES[name.toLowerCase()];
      if (!id) throw new Error(`--only: unknown scenario "${name}" (known: ${Object.keys(SCENARIO_ALIASES).join(', ')})`);
      return id;
    });
  }
  const sockets = selected.filter((s): s is SocketScenarioId => s === 'echo' || s === 'broadcast');
  let loadIds = selected.filter((s): s is ScenarioId => s !== 'controller' && s !== 'startup' && s !== 'echo' && s !== 'broadcast');
  const controllerReport = selected.includes('controller');
  let servers = list(values.servers);
  if (controllerReport && loadIds.length === 0) {
    // "--only controller": the load scenarios, Tern plain vs Tern controller.
    loadIds = ['hello', 'route', 'body', 'mw', 'users', 'people'];
    servers ??= ['tern', 'tern-controller'];
  }
  // Scenarios only some servers implement (8. file): without --servers, start just those.
  const chosen = LOAD_SCENARIOS.filter((s) => loadIds.includes(s.id));
  if (!servers && !selected.includes('startup') && chosen.length > 0 && chosen.every((s) => s.servers)) {
    servers = [...new Set(chosen.flatMap((s) => s.servers ?? []))];
  }
  // Scenario 9's logging servers join a default run that includes it.
  servers ??= [...ALL_SERVERS, ...Object.keys(SCENARIO_SERVERS).filter((name) => loadIds.includes(SCENARIO_SERVERS[name]!))];
  for (const s of servers) {
    if (!SERVER_MODULES[s]) throw new Error(`--servers: unknown server "${s}" (known: ${ALL_SERVERS.join(', ')})`);
  }

  const startupRoutes = positive('startup-routes', values['startup-routes'], 1000, true);
  if (startupRoutes % 10 !== 0) throw new Error(`--startup-routes must be a multiple of 10 (ten routes per controller), got ${startupRoutes}`);
  const pairRounds = values['pair-rounds'] ?? values['controller-rounds'];

  return {
    duration: positive('duration', values.duration, quick ? 1 : 5, false),
    rounds: positive('rounds', values.rounds, quick ? 1 : 3, true),
    connections: positive('connections', values.connections, 50, true),
    warmup: values.warmup === '0' ? 0 : positive('warmup', values.warmup, quick ? 0.25 : 1, false),
    retries: values.retries === '0' ? 0 : positive('retries', values.retries, 2, true),
    quietWait: values['quiet-wait'] === '0' ? 0 : positive('quiet-wait', values['quiet-wait'], quick ? 5 : 20, false),
    quick,
    pin: values['no-pin'] !== true,
    startupRoutes,
    startupRounds: positive('startup-rounds', values['startup-rounds'], quick ? 1 : 5, true),
    pairRounds: pairRounds === '0' ? 0 : positive('pair-rounds', pairRounds, quick ? 0 : 4, true),
    loadScenarios: LOAD_SCENARIOS.filter((s) => loadIds.includes(s.id)),
    startup: selected.includes('startup'),
    sockets,
    servers: [...new Set(servers)],
  };
}

function setUpPinning(enabled: boolean): Pinning {
  const cpus = os.availableParallelism();
  if (!enabled) return { serverCpu: null, loadCpu: null, note: 'no CPU pinning (--no-pin)' };
  if (cpus < 2) return { serverCpu: null, loadCpu: null, note: 'no CPU pinning (one CPU)' };
  try {
    execFileSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
  } catch {
    return { serverCpu: null, loadCpu: null, note: 'no CPU pinning (taskset not available)' };
  }
  const serverCpu = cpus - 1;
  return { serverCpu, loadCpu: 0, note: `load generator pinned to CPU 0, servers to CPU ${serverCpu} (taskset)` };
}

function versionOf(pkg: string): string {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (require(`${pkg}/package.json`) as { version: string }).version;
  } catch {
    try {
      const dir = path.dirname(require.resolve(pkg));
      for (let d = dir; d !== path.dirname(d); d = path.dirname(d)) {
        const file = path.join(d, 'package.json');
        if (fs.existsSync(file)) {
          const json = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
          if (json.name === pkg) return json.version ?? '?';
        }
      }
    } catch {
      /* not installed */
    }
    return 'not found';
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (s: string) => process.stderr.write(s + '\n');
const rotate = <T>(arr: T[], by: number): T[] => arr.map((_, i) => arr[(i + by) % arr.length]!);

/** Waits for the machine to be quiet before a measured round (see --quiet-wait). */
async function settle(opts: Options, what: string): Promise<void> {
  if (opts.quietWait <= 0) return;
  const waited = await waitForQuiet(opts.quietWait * 1000);
  if (waited >= 1000) log(`  ${what}: waited ${(waited / 1000).toFixed(1)} s for other processes to calm down`);
}

async function startChild(
  server: string,
  module: string,
  sizes: { fillers: number; routes: number },
  mode: 'serve' | 'startup',
  pinning: Pinning,
  env: NodeJS.ProcessEnv = {},
) {
  const port = await freePort(HOST);
  const child = new ServerChild({ server, module, port, host: HOST, ...sizes, mode }, pinning, env);
  return { child, port };
}

/** Fresh serving processes of `servers` for one duel, each ready; undefined (and logged) when one fails. */
async function startDuellists(servers: string[], pinning: Pinning, skipped: Skip[], scenario: ScenarioId): Promise<LoadTarget[] | undefined> {
  const started = await Promise.all(
    servers.map((server) => startChild(server, SERVER_MODULES[server]!, { fillers: DEFAULT_FILLERS, routes: 0 }, 'serve', pinning)),
  );
  // Both wait from now: a child's message that finds no waiter is dropped.
  const readies = started.map(({ child }) => child.waitFor(['ready', 'load-error', 'start-error'], 60_000));
  try {
    for (const [i, msg] of (await Promise.all(readies)).entries()) {
      if (msg.type !== 'ready') throw new Error(`${servers[i]} did not start: ${msg.message}`);
    }
    return started;
  } catch (err) {
    log(`  duel ${servers.join(' + ')}: ${(err as Error).message}`);
    for (const server of servers) skipped.push({ server, scenario, reason: `a duel's fresh process failed: ${(err as Error).message}` });
    await Promise.all(started.map(({ child }) => child.stop()));
    return undefined;
  }
}

async function runLoad(opts: Options, pinning: Pinning, skipped: Skip[]): Promise<{ summaries: LoadSummary[]; rounds: ScenarioRounds[] }> {
  const children = new Map<string, { child: ServerChild; port: number }>();
  for (const server of opts.servers) {
    const { child, port } = await startChild(server, SERVER_MODULES[server]!, { fillers: DEFAULT_FILLERS, routes: 0 }, 'serve', pinning);
    try {
      const msg = await child.waitFor(['ready', 'load-error', 'start-error'], 60_000);
      if (msg.type === 'ready') {
        children.set(server, { child, port });
        log(`started ${server} (pid ${child.proc.pid}, port ${port}) in ${msg.startupMs.toFixed(0)} ms`);
      } else {
        const what = msg.type === 'load-error' ? 'its module failed to load' : 'it failed to start';
        log(`skipping ${server}: ${what}:\n  ${msg.message.replace(/\n/g, '\n  ')}`);
        skipped.push({ server, scenario: 'all', reason: `${what}: ${msg.message}` });
        await child.stop();
      }
    } catch (err) {
      log(`skipping ${server}: ${(err as Error).message}`);
      skipped.push({ server, scenario: 'all', reason: (err as Error).message });
      await child.stop();
    }
  }

  const summaries: LoadSummary[] = [];
  const scenarioRounds: ScenarioRounds[] = [];
  try {
    for (const scenario of opts.loadScenarios) {
      log(`\n== ${scenario.number}. ${scenario.title}`);
      const servers: string[] = [];
      for (const [server, { port }] of children) {
        if (scenario.servers && !scenario.servers.includes(server)) continue;
        const only = SCENARIO_SERVERS[server];
        if (only !== undefined && only !== scenario.id) continue;
        try {
          await checkScenario(scenario.id, port, HOST, DEFAULT_FILLERS);
          servers.push(server);
        } catch (err) {
          log(`  ${server}: check failed, not measured: ${(err as Error).message}`);
          skipped.push({ server, scenario: scenario.id, reason: `check failed: ${(err as Error).message}` });
        }
      }
      if (servers.length === 0) continue;

      const load = { host: HOST, connections: opts.connections };
      if (opts.warmup > 0) {
        for (const server of servers) {
          const { child, port } = children.get(server)!;
          if (child.alive) await measure(child, scenario, { ...load, port, duration: opts.warmup });
        }
      }

      const rounds = new Map<string, RunResult[]>(servers.map((s) => [s, []]));
      // Every round's results by server: the pair ratios (issue 27's targets, scenario 5) are
      // taken within a round, so slow drift of the machine cancels out of them.
      const measured: Round[] = [];
      // One round of `together` (one server, or a duel of two loaded at once), after `warmup`
      // seconds of unmeasured load when asked, re-run while other processes disturbed it;
      // undefined when a server is gone or the run failed.
      const measureRound = async (
        together: string[],
        label: string,
        targets: LoadTarget[] = together.map((server) => children.get(server)!),
        warmup = 0,
      ): Promise<Record<string, RunResult> | undefined> => {
        if (targets.some(({ child }) => !child.alive)) return undefined;
        const name = together.join(' + ');
        await sleep(200);
        try {
          if (warmup > 0) await measureTogether(targets, scenario, { ...load, duration: warmup });
          await settle(opts, `${label} ${name}`);
          let res = await measureTogether(targets, scenario, { ...load, duration: opts.duration });
          for (let retry = 1; retry <= opts.retries && res[0]!.otherCpuShare > CONTENDED && targets.every(({ child }) => child.alive); retry++) {
            log(
              `  ${label} ${name.padEnd(16)} disturbed: other processes used ` +
                `${(res[0]!.otherCpuShare * 100).toFixed(0)}% of a core; again (${retry}/${opts.retries})`,
            );
            await sleep(1000);
            await settle(opts, `${label} ${name}`);
            const again = await measureTogether(targets, scenario, { ...load, duration: opts.duration });
            if (!(again[0]!.otherCpuShare >= res[0]!.otherCpuShare)) res = again;
          }
          const out: Record<string, RunResult> = {};
          together.forEach((server, i) => {
            const r = res[i]!;
            out[server] = r;
            const warn = r.non2xx + r.errors + r.timeouts > 0 ? `  [${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts]` : '';
            const other = Number.isFinite(r.otherCpuShare) ? `, others ${(r.otherCpuShare * 100).toFixed(0)}%` : '';
            log(
              `  ${label} ${server.padEnd(16)} ${Math.round(r.rps).toLocaleString('en-US').padStart(8)} req/s` +
                `  p99 ${r.latencyP99Ms.toFixed(1).padStart(5)} ms  ${r.cpuUsPerReq.toFixed(1).padStart(6)} µs CPU/req` +
                `  (server ${(r.serverCpuShare * 100).toFixed(0)}%, loadgen ${(r.loadCpuShare * 100).toFixed(0)}%${other} of a core)${warn}`,
            );
          });
          return out;
        } catch (err) {
          log(`  ${label} ${name}: failed: ${(err as Error).message}`);
          for (const server of together) skipped.push({ server, scenario: scenario.id, reason: `${label} failed: ${(err as Error).message}` });
          return undefined;
        }
      };

      for (let r = 0; r < opts.rounds; r++) {
        const round: Round = { kind: 'interleaved', results: {} };
        for (const server of rotate(servers, r)) {
          const res = (await measureRound([server], `round ${r + 1}/${opts.rounds}`))?.[server];
          if (res) {
            rounds.get(server)!.push(res);
            round.results[server] = res;
          }
        }
        measured.push(round);
      }
      const duels = DUELS.filter((pair) => pair.every((server) => servers.includes(server)));
      if (scenario.paired) {
        // Round by round, every duel once, the pair's order turned each round: whichever of the
        // two is started and loaded first gains ~1% (a server against itself reads 1.01x). Each
        // duel runs in fresh processes: two processes of one server differ by a few percent for
        // their whole life (heap sizes, the JIT's choices), which a duel between the same two
        // processes would repeat in every round instead of averaging out.
        for (let r = 0; r < opts.pairRounds; r++) {
          for (const pair of duels) {
            const together = r % 2 === 0 ? [...pair] : [...pair].reverse();
            const label = `duel ${r + 1}/${opts.pairRounds}`;
            const fresh = await startDuellists(together, pinning, skipped, scenario.id);
            if (fresh === undefined) continue;
            try {
              const results = await measureRound(together, label, fresh, opts.warmup);
              if (results) measured.push({ kind: 'duel', results });
            } finally {
              await Promise.all(fresh.map(({ child }) => child.stop()));
            }
          }
        }
      }
      for (const [server, results] of rounds) {
        if (results.length > 0) summaries.push(summariseLoad(scenario.id, server, results));
      }
      scenarioRounds.push({ scenario: scenario.id, rounds: measured });
    }
  } finally {
    await Promise.all([...children.values()].map(({ child }) => child.stop()));
  }
  return { summaries, rounds: scenarioRounds };
}

/**
 * Startup (issue 27): fresh processes of STARTUP_SERVERS, each registering the same
 * `--startup-routes` routes, interleaved, `--startup-rounds` of each. Every process starts twice
 * per round: free to use every CPU (the judged number: nothing else runs during a startup
 * sample, and a real server has its machine's cores for V8's background compiling and GC
 * threads), then pinned to one CPU like the load scenarios (shown beside it). Once it listens,
 * its first request is timed and checked (GET /openapi.json where there is one), then it closes.
 *
 * Tern keeps V8's compiled code for its bundle between starts (docs/deployment.md, "Start-up and
 * the compile cache"), so the run gives each server a compile-cache folder of its own, empty at
 * first: each server's first start, before the rounds, is the first start after an install
 * (reported on its own), and the rounds are the restarts a deployed server makes.
 */
async function runStartup(opts: Options, pinning: Pinning, skipped: Skip[]): Promise<StartupSummary[]> {
  const servers = Object.keys(STARTUP_SERVERS);
  // The runner pins itself to CPU 0 and children inherit that: "every CPU" has to be said.
  const allCpus: Pinning = { ...pinning, serverCpu: pinning.serverCpu === null ? null : `0-${os.cpus().length - 1}` };
  const variants: Array<{ label: string; pinning: Pinning }> = [{ label: 'all CPUs', pinning: allCpus }];
  if (pinning.serverCpu !== null) variants.push({ label: `CPU ${pinning.serverCpu}`, pinning });
  const n = opts.startupRounds;
  log(`\n== 6. startup with ${opts.startupRoutes} routes (${n} fresh process(es) per server and CPU setting)`);
  // A folder per server, as each deployed app has its own: the first start of an app writes the
  // functions its own start compiled, and a plain app's cache would lack the controller scanner's.
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tern-bench-compile-cache-'));
  const samples = new Map<string, { cold: StartupSample[]; free: StartupSample[]; pinned: StartupSample[] }>(
    servers.map((s) => [s, { cold: [], free: [], pinned: [] }]),
  );
  const failed = new Set<string>();

  /** Marks `server` failed: it is skipped from then on, and the report says why. */
  function fail(server: string, reason: string): undefined {
    failed.add(server);
    skipped.push({ server, scenario: 'startup', reason });
    log(`  ${server}: ${reason.split('\n')[0]}`);
    return undefined;
  }

  /** One fresh process of `server`: its sample, or undefined once the server has failed. */
  async function startOnce(server: string, label: string, variant: { label: string; pinning: Pinning }): Promise<StartupSample | undefined> {
    if (failed.has(server)) return undefined;
    await settle(opts, `${label} ${server}`);
    const sizes = { fillers: 0, routes: opts.startupRoutes };
    const env = { TERN_COMPILE_CACHE: path.join(cacheDir, server) };
    const { child, port } = await startChild(server, STARTUP_SERVERS[server]!.module, sizes, 'startup', variant.pinning, env);
    try {
      const msg = await child.waitFor(['startup', 'load-error', 'start-error'], 120_000);
      if (msg.type !== 'startup') return fail(server, `${msg.type}: ${msg.message}`);
      let first = { path: '', ms: NaN } as Awaited<ReturnType<typeof checkStartupServer>>;
      let checkError: string | undefined;
      try {
        first = await checkStartupServer(port, HOST, opts.startupRoutes, STARTUP_SERVERS[server]!);
      } catch (err) {
        checkError = (err as Error).message;
      }
      const sample: StartupSample = {
        spawnMs: msg.listeningAt - child.spawnedAt,
        startupMs: msg.startupMs,
        loadMs: msg.loadMs,
        buildMs: msg.buildMs,
        phases: msg.phases,
        cpuMs: msg.cpuMs,
        heapUsed: msg.heapUsed,
        rss: msg.rss,
        firstRequestPath: first.path,
        firstRequestMs: first.ms,
        ...(first.operations !== undefined ? { operations: first.operations } : {}),
        ...(checkError !== undefined ? { checkError } : {}),
      };
      log(
        `  ${label.padEnd(11)} ${server.padEnd(16)} ${variant.label.padEnd(8)} listening ${sample.spawnMs.toFixed(1).padStart(6)} ms after spawn` +
          `  (CPU ${msg.cpuMs.toFixed(0)} ms)  heap ${(msg.heapUsed / 1048576).toFixed(1)} MB` +
          (checkError ? `  CHECK FAILED: ${checkError}` : `  first GET ${first.path} ${first.ms.toFixed(1)} ms`),
      );
      return sample;
    } catch (err) {
      return fail(server, (err as Error).message);
    } finally {
      await child.stop(5000);
    }
  }

  try {
    for (const server of servers) {
      const sample = await startOnce(server, 'first start', variants[0]!);
      if (sample) samples.get(server)!.cold.push(sample);
    }
    for (let r = 0; r < n; r++) {
      for (const server of rotate(servers, r)) {
        for (const variant of variants) {
          const sample = await startOnce(server, `round ${r + 1}/${n}`, variant);
          if (sample) samples.get(server)![variant === variants[0] ? 'free' : 'pinned'].push(sample);
        }
      }
    }
  } finally {
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
  return [...samples]
    .filter(([, s]) => s.free.length > 0)
    .map(([server, s]) => summariseStartup(server, opts.startupRoutes, s.free, s.pinned, s.cold));
}

async function main(): Promise<void> {
  let opts: Options;
  try {
    opts = parseOptions(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n\n${HELP}`);
    process.exit(2);
  }
  installCleanup();
  const cpuCount = os.availableParallelism(); // before pinning narrows it to one
  const pinning = setUpPinning(opts.pin);
  log(`Tern bench: ${opts.servers.join(', ')}; ${pinning.note}`);
  log(
    `${opts.rounds} round(s) × ${opts.duration} s, ${opts.connections} connections, ${opts.warmup} s warm-up` +
      (opts.quick ? ' (quick mode)' : ''),
  );

  const skipped: Skip[] = [];
  const { summaries: load, rounds } = opts.loadScenarios.length > 0 ? await runLoad(opts, pinning, skipped) : { summaries: [], rounds: [] };
  const startup = opts.startup ? await runStartup(opts, pinning, skipped) : [];
  const sockets: SocketResult[] = [];
  // The per-server table and the memory figures come from the interleaved rounds, whose ratios
  // spread about ±10% round to round on a 2-core machine: at least 5 rounds outside quick mode.
  // The judged ratios come from the duels after them, when there are any.
  const socketRounds = opts.quick ? opts.rounds : Math.max(opts.rounds, 5);
  for (const scenario of opts.sockets) {
    log(
      `${scenario === 'echo' ? 14 : 15}. WebSocket ${scenario}: tern, ws${scenario === 'echo' ? ', fastify (@fastify/websocket)' : ''}; ` +
        `${socketRounds} rounds, then ${opts.pairRounds} duel(s) of tern and each`,
    );
    const options = { duration: opts.duration, rounds: socketRounds, pairRounds: opts.pairRounds, warmup: opts.warmup, serverCpu: pinning.serverCpu };
    sockets.push(await runSocketScenario(scenario, options, log));
  }
  const pairs = summarisePairs(rounds);
  const controller = rounds
    .map((s) => ({ scenario: s.scenario, pairs: controllerPairs(s) }))
    .filter((s) => s.pairs.length > 0)
    .map((s) => summariseController(s.scenario, s.pairs));

  const date = new Date().toISOString();
  const report: Report = {
    date,
    meta: {
      node: process.version,
      cpu: os.cpus()[0]?.model.trim() ?? 'unknown CPU',
      cpus: cpuCount,
      memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      pinning: pinning.note,
      droppedEnv: droppedEnv(),
      options: {
        duration: opts.duration,
        rounds: opts.rounds,
        connections: opts.connections,
        warmup: opts.warmup,
        retries: opts.retries,
        quietWait: opts.quietWait,
        quick: opts.quick,
        pairRounds: opts.pairRounds,
        startupRounds: opts.startupRounds,
      },
      versions: Object.fromEntries(
        ['@tern/core', 'fastify', 'express', '@nestjs/core', 'autocannon', 'class-validator'].map((p) => [p, versionOf(p)]),
      ),
    },
    load,
    rounds,
    pairs,
    controller,
    startup,
    sockets,
    skipped,
    targets: evaluateTargets({ load, pairs, controller, startup }),
  };

  const markdown = toMarkdown(report);
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const jsonFile = path.join(RESULTS_DIR, `${date.replace(/:/g, '-')}.json`);
  fs.writeFileSync(jsonFile, JSON.stringify(report, null, 2) + '\n');
  fs.writeFileSync(path.join(RESULTS_DIR, 'latest.md'), markdown + '\n');
  process.stdout.write('\n' + markdown + '\n');
  log(`results: ${path.relative(process.cwd(), jsonFile)} and ${path.relative(process.cwd(), path.join(RESULTS_DIR, 'latest.md'))}`);
}

main()
  .then(() => {
    killAll();
    process.exit(0);
  })
  .catch((err: unknown) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    killAll();
    process.exit(1);
  });
