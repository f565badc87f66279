import { socketMarkdown, type SocketResult } from '../sockets/socket-report';
/** Summaries, target checks and the Markdown report (bench/results/latest.md and stdout). */
import { CONTENDED, RunResult } from './load';
import { STARTUP_FLOOR, STARTUP_SERVERS } from './protocol';
import { LOAD_SCENARIOS, ScenarioId } from './scenarios';
import { ITEM_JSON } from '../shared/payload';
import { PEOPLE_COUNT } from '../shared/people';
import { fmtRatio, judgedRatio, max, median, min, sum } from './stats';

export interface LoadSummary {
  scenario: ScenarioId;
  server: string;
  rounds: RunResult[];
  rps: number;
  rpsMin: number;
  rpsMax: number;
  latencyP99Ms: number;
  cpuUsPerReq: number;
  serverCpuShare: number;
  loadCpuShare: number;
  /** Rounds during which other processes still used more than CONTENDED of a core. */
  contendedRounds: number;
  non2xx: number;
  errors: number;
}

/** One round of each Tern server in one scenario, run back to back. */
export interface ControllerPair {
  plain: RunResult;
  controller: RunResult;
}

/** Scenario 5 for one load scenario: tern-controller against tern, pair by pair. */
export interface ControllerComparison {
  scenario: ScenarioId;
  pairs: ControllerPair[];
  /** Median over the pairs of tern-controller's CPU/request ÷ tern's: the judged number. */
  cpuRatio: number;
  cpuRatioMin: number;
  cpuRatioMax: number;
  /** Median over the pairs of tern-controller's req/s ÷ tern's. */
  rpsRatio: number;
  /** Medians over the pairs' rounds, for reading the ratio against absolute numbers. */
  plainCpuUsPerReq: number;
  controllerCpuUsPerReq: number;
}

/** One measured round of a scenario: every server measured in it, by name. */
export interface Round {
  /**
   * `interleaved`: every server, one after the other; `duel`: two servers loaded at once on the
   * server CPU (DUELS), which the judged comparisons are taken from when there are any.
   */
  kind: 'interleaved' | 'duel';
  results: Record<string, RunResult>;
}

export interface ScenarioRounds {
  scenario: ScenarioId;
  rounds: Round[];
}

/**
 * `server` against `baseline` in one scenario, round by round: the ratios of CPU per request
 * of the two within each round that measured both (issue 27: "median of per-round pairs").
 */
export interface PairComparison {
  scenario: ScenarioId;
  server: string;
  baseline: string;
  /** server CPU/req ÷ baseline CPU/req, one per round that measured both, in round order. */
  cpuRatios: number[];
  /** Where the rounds come from: the pair's duels, or (none run) the interleaved rounds. */
  rounds: Round['kind'];
  /** Median of cpuRatios: the judged number. */
  cpuRatio: number;
  cpuRatioMin: number;
  cpuRatioMax: number;
  /** Median over the same rounds of server req/s ÷ baseline req/s. */
  rpsRatio: number;
  serverCpuUsPerReq: number;
  baselineCpuUsPerReq: number;
}

export interface StartupSample {
  /** Spawning the process → listening, wall time, as the runner sees it (the judged number). */
  spawnMs: number;
  /** Node's time origin → listening (the process's own clock; a few ms less than spawnMs). */
  startupMs: number;
  loadMs: number;
  buildMs: number;
  /** The server's own phases of building (declaring, ready(), listen()), where it reports them. */
  phases: Record<string, number>;
  /** CPU time (user + system, all threads) the process had used when it was listening. */
  cpuMs: number;
  heapUsed: number;
  rss: number;
  /** The first request after listening (GET /openapi.json where there is one), as the client timed it. */
  firstRequestPath: string;
  firstRequestMs: number;
  /** Operations in the /openapi.json the first request fetched. */
  operations?: number;
  /** What the checks after listening found wrong (an incomplete /openapi.json…); absent when all was right. */
  checkError?: string;
}

export interface StartupSummary {
  server: string;
  routes: number;
  samples: StartupSample[];
  /** Medians over `samples` (free on every CPU). */
  spawnMs: number;
  startupMs: number;
  /** Spawn → listening with the process pinned to one CPU (NaN when not pinned). */
  pinnedSpawnMs: number;
  /** Spawn → listening of the server's first start, with Tern's compile cache still empty (NaN when not measured). */
  coldSpawnMs: number;
  pinnedSamples: StartupSample[];
  loadMs: number;
  buildMs: number;
  phases: Record<string, number>;
  cpuMs: number;
  heapUsedMB: number;
  rssMB: number;
  firstRequestPath: string;
  firstRequestMs: number;
  operations?: number;
  /** Every distinct check failure over all samples, pinned ones included. */
  checkErrors: string[];
}

export interface Skip {
  server: string;
  scenario: string;
  reason: string;
}

export interface TargetCheck {
  /** Stable name, for tests and for comparing runs: `issue27.hello`, `kept.5.controller`… */
  id: string;
  /** `issue 27`: what issue 27 judges; `issue 37`/`39`/`40`: those issues' scenarios; `kept`: the bench's earlier targets, still checked. */
  group: 'issue 27' | 'issue 37' | 'issue 39' | 'issue 40' | 'kept';
  target: string;
  measured: string;
  status: 'PASS' | 'FAIL' | 'n/a';
}

/** The measuring options a run records with its results. */
export interface RunOptions {
  duration: number;
  rounds: number;
  connections: number;
  warmup: number;
  retries: number;
  quietWait: number;
  quick: boolean;
  /** Extra rounds of the paired servers alone per paired scenario (issue 27 and scenario 5). */
  pairRounds: number;
  /** Fresh processes per server (and CPU setting) in the startup scenario. */
  startupRounds: number;
}

export interface Report {
  date: string;
  meta: {
    node: string;
    cpu: string;
    cpus: number;
    memoryGiB: number;
    pinning: string;
    /** Variables of the runner's environment that the server children did not get (children.ts). */
    droppedEnv: string[];
    options: RunOptions;
    versions: Record<string, string>;
  };
  load: LoadSummary[];
  /** Every measured round, by scenario (interleaved and paired): what the pair ratios come from. */
  rounds: ScenarioRounds[];
  pairs: PairComparison[];
  controller: ControllerComparison[];
  startup: StartupSummary[];
  /** The socket scenarios (14. echo, 15. broadcast), with their own judged ratios. */
  sockets?: SocketResult[];
  skipped: Skip[];
  targets: TargetCheck[];
}

/** What evaluateTargets judges. */
export interface TargetInput {
  load: LoadSummary[];
  pairs: PairComparison[];
  controller: ControllerComparison[];
  startup: StartupSummary[];
}

export function summariseLoad(scenario: ScenarioId, server: string, rounds: RunResult[]): LoadSummary {
  const rps = rounds.map((r) => r.rps);
  return {
    scenario,
    server,
    rounds,
    rps: median(rps),
    rpsMin: min(rps),
    rpsMax: max(rps),
    latencyP99Ms: median(rounds.map((r) => r.latencyP99Ms)),
    cpuUsPerReq: median(rounds.map((r) => r.cpuUsPerReq)),
    serverCpuShare: median(rounds.map((r) => r.serverCpuShare)),
    loadCpuShare: max(rounds.map((r) => r.loadCpuShare)),
    contendedRounds: rounds.filter((r) => r.otherCpuShare > CONTENDED).length,
    non2xx: sum(rounds.map((r) => r.non2xx)),
    errors: sum(rounds.map((r) => r.errors + r.timeouts)),
  };
}

export function summariseController(scenario: ScenarioId, pairs: ControllerPair[]): ControllerComparison {
  const cpu = pairs.map((p) => p.controller.cpuUsPerReq / p.plain.cpuUsPerReq);
  return {
    scenario,
    pairs,
    cpuRatio: median(cpu),
    cpuRatioMin: min(cpu),
    cpuRatioMax: max(cpu),
    rpsRatio: median(pairs.map((p) => p.controller.rps / p.plain.rps)),
    plainCpuUsPerReq: median(pairs.map((p) => p.plain.cpuUsPerReq)),
    controllerCpuUsPerReq: median(pairs.map((p) => p.controller.cpuUsPerReq)),
  };
}

/**
 * The rounds that compare `a` with `b`, as [a's result, b's result]: their duels when they had
 * any, since a duel's ratio holds still while the machine's speed moves; else every round that
 * measured both (interleaved rounds, minutes apart, whose ratios the machine's drift spreads).
 */
function judgedRounds(s: ScenarioRounds, a: string, b: string): { kind: Round['kind']; pairs: Array<[RunResult, RunResult]> } {
  const both = (kind?: Round['kind']): Array<[RunResult, RunResult]> =>
    s.rounds
      .filter((round) => kind === undefined || round.kind === kind)
      .map((round): [RunResult | undefined, RunResult | undefined] => [round.results[a], round.results[b]])
      .filter((p): p is [RunResult, RunResult] => p[0] !== undefined && p[1] !== undefined)
      .filter(([x, y]) => Number.isFinite(x.cpuUsPerReq) && Number.isFinite(y.cpuUsPerReq) && y.cpuUsPerReq > 0);
  const duels = both('duel');
  return duels.length > 0 ? { kind: 'duel', pairs: duels } : { kind: 'interleaved', pairs: both() };
}

/** Scenario 5's pairs: the Tern servers' duels, or every round that measured both. */
export function controllerPairs(s: ScenarioRounds): ControllerPair[] {
  return judgedRounds(s, 'tern-controller', 'tern').pairs.map(([controller, plain]) => ({ plain, controller }));
}

/** `server` against `baseline`, round by round; undefined when no round measured both. */
export function comparePairs(s: ScenarioRounds, server: string, baseline: string): PairComparison | undefined {
  const judged = judgedRounds(s, server, baseline);
  const both = judged.pairs;
  if (both.length === 0) return undefined;
  const cpuRatios = both.map(([a, b]) => a.cpuUsPerReq / b.cpuUsPerReq);
  return {
    scenario: s.scenario,
    server,
    baseline,
    cpuRatios,
    rounds: judged.kind,
    cpuRatio: median(cpuRatios),
    cpuRatioMin: min(cpuRatios),
    cpuRatioMax: max(cpuRatios),
    rpsRatio: median(both.map(([a, b]) => a.rps / b.rps)),
    serverCpuUsPerReq: median(both.map(([a]) => a.cpuUsPerReq)),
    baselineCpuUsPerReq: median(both.map(([, b]) => b.cpuUsPerReq)),
  };
}

/** Fastify as its guide tells users to write it: a response schema on every route. */
export const FASTIFY_SCHEMAS = 'fastify-schemas';

/** The pairs the report compares in every scenario that measured both: [server, baseline]. */
export const PAIR_COMPARISONS: ReadonlyArray<readonly [string, string]> = [
  ['tern', FASTIFY_SCHEMAS],
  ['tern', 'node'],
  ['tern-controller', FASTIFY_SCHEMAS],
  [FASTIFY_SCHEMAS, 'node'],
  // Issue 39: scenario 16, the same zod schema on both sides.
  ['tern-zod', 'fastify-zod'],
  // Issue 40: scenario 17.
  ['tern-connect', 'tern'],
  ['tern-connect', 'fastify-middie'],
  // Issue 37: scenarios 11, 12 and 13.
  ['tern-limit', 'tern'],
  ['tern-session', 'tern'],
  ['tern-limit-redis', 'fastify-limit-redis'],
];

export function summarisePairs(rounds: ScenarioRounds[]): PairComparison[] {
  const out: PairComparison[] = [];
  for (const s of rounds) {
    for (const [server, baseline] of PAIR_COMPARISONS) {
      const c = comparePairs(s, server, baseline);
      if (c) out.push(c);
    }
  }
  return out;
}

export function summariseStartup(
  server: string,
  routes: number,
  samples: StartupSample[],
  pinnedSamples: StartupSample[] = [],
  coldSamples: StartupSample[] = [],
): StartupSummary {
  const phaseNames = [...new Set(samples.flatMap((s) => Object.keys(s.phases)))];
  const withDoc = samples.filter((s) => s.operations !== undefined);
  return {
    server,
    routes,
    samples,
    spawnMs: median(samples.map((s) => s.spawnMs)),
    startupMs: median(samples.map((s) => s.startupMs)),
    pinnedSamples,
    pinnedSpawnMs: pinnedSamples.length > 0 ? median(pinnedSamples.map((s) => s.spawnMs)) : NaN,
    coldSpawnMs: coldSamples.length > 0 ? median(coldSamples.map((s) => s.spawnMs)) : NaN,
    loadMs: median(samples.map((s) => s.loadMs)),
    buildMs: median(samples.map((s) => s.buildMs)),
    phases: Object.fromEntries(phaseNames.map((name) => [name, median(samples.map((s) => s.phases[name] ?? NaN))])),
    cpuMs: median(samples.map((s) => s.cpuMs)),
    heapUsedMB: median(samples.map((s) => s.heapUsed)) / 1024 / 1024,
    rssMB: median(samples.map((s) => s.rss)) / 1024 / 1024,
    firstRequestPath: samples[0]?.firstRequestPath ?? '',
    firstRequestMs: median(samples.map((s) => s.firstRequestMs)),
    ...(withDoc.length > 0 ? { operations: min(withDoc.map((s) => s.operations!)) } : {}),
    checkErrors: [...new Set([...samples, ...pinnedSamples].flatMap((s) => (s.checkError ? [s.checkError] : [])))],
  };
}

const fmtInt = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–');
const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '–');
const ratio = (a: number | undefined, b: number | undefined) =>
  a !== undefined && b !== undefined && Number.isFinite(a) && Number.isFinite(b) && b > 0 ? a / b : NaN;

/** A load generator above this share of its core may be what limits the numbers. */
export const LOADGEN_SATURATED = 0.9;

function find(load: LoadSummary[], scenario: ScenarioId, server: string): LoadSummary | undefined {
  return load.find((l) => l.scenario === scenario && l.server === server);
}

function findPair(pairs: PairComparison[], scenario: ScenarioId, server: string, baseline: string): PairComparison | undefined {
  return pairs.find((p) => p.scenario === scenario && p.server === server && p.baseline === baseline);
}

/**
 * Issue 27's per-request targets: Tern's CPU per request ÷ Fastify-with-response-schemas', the
 * median of per-round pairs, at most `limit`.
 */
export const ISSUE_LOAD_TARGETS: ReadonlyArray<{ scenario: ScenarioId; label: string; limit: number }> = [
  { scenario: 'hello', label: 'S1 hello', limit: 1.0 },
  { scenario: 'route', label: 'S2 two converted path params', limit: 1.0 },
  { scenario: 'body', label: `S3 ${ITEM_JSON.length}-byte validated body`, limit: 0.95 },
  { scenario: 'mw', label: 'S4 three middleware', limit: 1.0 },
  { scenario: 'people', label: `list of ${PEOPLE_COUNT} entities through a response model`, limit: 0.95 },
];

/** Issue 27's startup targets: spawn → listening with 1,000 routes ÷ the bare node:http process's. */
export const ISSUE_STARTUP_TARGETS: ReadonlyArray<{ server: string; label: string; limit: number }> = [
  { server: 'tern', label: 'plain routes', limit: 1.6 },
  { server: 'tern-controller', label: 'controllers', limit: 1.8 },
];

/** Issue 39: S3 with a zod model, Tern ÷ Fastify with fastify-type-provider-zod, CPU per request. */
export const ZOD_BODY_LIMIT = 1.0;

/** Controllers may cost at most this much more CPU per request than plain routes. */
export const CONTROLLER_LIMIT = 1.03;

function pairMeasured(p: PairComparison | undefined): string {
  return p ? judgedRatio(p.cpuRatio, p.cpuRatios, p.rounds === 'duel' ? 'duel' : 'interleaved pair') : '–';
}

/** A pair's judged ratio, marked ⁱ when it comes from interleaved rounds (no duels). */
const fmtPair = (p: PairComparison | undefined) => `${fmtRatio(p?.cpuRatio)}${p && p.rounds !== 'duel' ? ' ⁱ' : ''}`;

/** Spawn → listening of `server` ÷ the floor's, or NaN. */
export function startupRatio(startup: StartupSummary[], server: string): number {
  return ratio(startup.find((s) => s.server === server)?.spawnMs, startup.find((s) => s.server === STARTUP_FLOOR)?.spawnMs);
}

function openApiVerdict(s: StartupSummary): string {
  if (s.checkErrors.length > 0) return `**${s.checkErrors[0]}**${s.checkErrors.length > 1 ? ` (+${s.checkErrors.length - 1} more)` : ''}`;
  if (s.operations === undefined) return `first request ${s.firstRequestPath} ${fmt(s.firstRequestMs)} ms`;
  return `complete, ${fmtInt(s.operations)} operations, first request ${fmt(s.firstRequestMs)} ms`;
}

export function evaluateTargets(input: TargetInput): TargetCheck[] {
  const { load, pairs, controller, startup } = input;
  const out: TargetCheck[] = [];

  // Issue 27: what it judges.
  out.push(...connectTargets(pairs));
  for (const t of ISSUE_LOAD_TARGETS) {
    const vsF = findPair(pairs, t.scenario, 'tern', FASTIFY_SCHEMAS);
    const vsN = findPair(pairs, t.scenario, 'tern', 'node');
    out.push({
      id: `issue27.${t.scenario}`,
      group: 'issue 27',
      target: `${t.label}: Tern ≤ ${t.limit.toFixed(2)}× Fastify-with-response-schemas CPU/request (median of per-round pairs, duels)`,
      measured: `${pairMeasured(vsF)}; ÷ node:http ${fmtRatio(vsN?.cpuRatio)}`,
      status: !vsF || !Number.isFinite(vsF.cpuRatio) ? 'n/a' : vsF.cpuRatio <= t.limit ? 'PASS' : 'FAIL',
    });
  }
  {
    // Issue 39: the zod variant of S3, Tern's Standard Schema path against fastify-type-provider-zod.
    const vsZ = findPair(pairs, 'body-zod', 'tern-zod', 'fastify-zod');
    out.push({
      id: 'issue39.body-zod',
      group: 'issue 39',
      target: `S3 with a zod model: Tern ≤ ${ZOD_BODY_LIMIT.toFixed(2)}× Fastify + fastify-type-provider-zod CPU/request (median of per-round pairs, duels)`,
      measured: pairMeasured(vsZ),
      status: !vsZ || !Number.isFinite(vsZ.cpuRatio) ? 'n/a' : vsZ.cpuRatio <= ZOD_BODY_LIMIT ? 'PASS' : 'FAIL',
    });
  }
  {
    // Same framework on both sides: judged on CPU per request, which the machine's noise moves
    // far less than req/s (shown too), as the median of round-by-round ratios.
    const parts: string[] = [];
    let worst = 0;
    for (const s of LOAD_SCENARIOS) {
      const c = controller.find((x) => x.scenario === s.id);
      if (c && Number.isFinite(c.cpuRatio)) {
        parts.push(`${s.id}: ${fmtRatio(c.cpuRatio)} CPU/req, ${fmtRatio(c.rpsRatio)} req/s (${c.pairs.length} pairs)`);
        worst = Math.max(worst, c.cpuRatio);
      }
    }
    out.push({
      id: 'issue27.controller',
      group: 'issue 27',
      target: `5. controller: tern-controller within 3% of tern (plain): median CPU/req ratio ≤ ${CONTROLLER_LIMIT.toFixed(2)}× in every scenario`,
      measured: parts.length ? parts.join('; ') : '–',
      status: parts.length === 0 ? 'n/a' : worst <= CONTROLLER_LIMIT ? 'PASS' : 'FAIL',
    });
  }
  const floor = startup.find((s) => s.server === STARTUP_FLOOR);
  for (const t of ISSUE_STARTUP_TARGETS) {
    const s = startup.find((x) => x.server === t.server);
    const r = startupRatio(startup, t.server);
    out.push({
      id: `issue27.startup.${t.server}`,
      group: 'issue 27',
      target:
        `6. startup, ${t.label} (${t.server}): spawn → listening with ${fmtInt(s?.routes ?? floor?.routes ?? 1000)} routes ≤ ${t.limit.toFixed(1)}× ` +
        'the bare node:http process, /openapi.json complete on its first request',
      measured: s && floor ? `${fmt(s.spawnMs)} ms ÷ ${fmt(floor.spawnMs)} ms = ${fmtRatio(r)}; /openapi.json: ${openApiVerdict(s)}` : '–',
      status: !s || !Number.isFinite(r) ? 'n/a' : r <= t.limit && s.checkErrors.length === 0 ? 'PASS' : 'FAIL',
    });
  }

  // The bench's earlier targets, still checked (against Fastify as shipped, without schemas).
  const tern = (s: ScenarioId) => find(load, s, 'tern');
  const fastify = (s: ScenarioId) => find(load, s, 'fastify');
  for (const s of ['hello', 'route', 'mw', 'file'] as const) {
    const n = LOAD_SCENARIOS.find((x) => x.id === s)!.number;
    const t = tern(s);
    const f = fastify(s);
    const rps = ratio(t?.rps, f?.rps);
    const cpu = ratio(t?.cpuUsPerReq, f?.cpuUsPerReq);
    out.push({
      id: `kept.${s}`,
      group: 'kept',
      target: `${n}. ${s}: Tern ≥ 0.95× Fastify req/s and ≤ 1.05× its CPU/request`,
      measured: `${fmtRatio(rps)} req/s, ${fmtRatio(cpu)} CPU/req`,
      status: !Number.isFinite(rps) || !Number.isFinite(cpu) ? 'n/a' : rps >= 0.95 && cpu <= 1.05 ? 'PASS' : 'FAIL',
    });
  }
  {
    const t = tern('body');
    const vsF = ratio(t?.rps, fastify('body')?.rps);
    const vsN = ratio(t?.rps, find(load, 'body', 'nest-express')?.rps);
    out.push({
      id: 'kept.body',
      group: 'kept',
      target: '3. body: Tern ≥ 1.0× Fastify and ≥ 3× NestJS-on-Express req/s',
      measured: `${fmtRatio(vsF)} Fastify, ${fmtRatio(vsN)} nest-express`,
      status: !Number.isFinite(vsF) || !Number.isFinite(vsN) ? 'n/a' : vsF >= 1.0 && vsN >= 3 ? 'PASS' : 'FAIL',
    });
  }
  {
    const t = tern('users');
    const f = fastify('users');
    const rps = ratio(t?.rps, f?.rps);
    const cpu = ratio(t?.cpuUsPerReq, f?.cpuUsPerReq);
    const vsN = ratio(t?.rps, find(load, 'users', 'nest-express')?.rps);
    out.push({
      id: 'kept.users',
      group: 'kept',
      target: '7. users: Tern ≥ 1.0× Fastify req/s and ≤ 1.0× its CPU/request, ≥ 5× NestJS-on-Express req/s',
      measured: `${fmtRatio(rps)} req/s, ${fmtRatio(cpu)} CPU/req; ${fmtRatio(vsN)} nest-express`,
      status: !Number.isFinite(rps) || !Number.isFinite(cpu) || !Number.isFinite(vsN) ? 'n/a' : rps >= 1.0 && cpu <= 1.0 && vsN >= 5 ? 'PASS' : 'FAIL',
    });
  }
  {
    // Both servers log every request with pino; Fastify writes two lines to Tern's one, as shipped.
    const t = find(load, 'log', 'tern-log');
    const f = find(load, 'log', 'fastify-log');
    const rps = ratio(t?.rps, f?.rps);
    const cpu = ratio(t?.cpuUsPerReq, f?.cpuUsPerReq);
    out.push({
      id: 'kept.log',
      group: 'kept',
      target: '9. log: with a pino logger on, Tern ≤ 1.0× Fastify CPU/request',
      measured: `${fmtRatio(cpu)} CPU/req, ${fmtRatio(rps)} req/s`,
      status: !Number.isFinite(cpu) ? 'n/a' : cpu <= 1.0 ? 'PASS' : 'FAIL',
    });
  }
  // Issue 37: what a rate limit and a session read cost, and Redis counting against Fastify's.
  // Judged in duels: the limits sit a few percent from 1.0×, inside the ±10–15% that the
  // machine's drift puts between interleaved rounds.
  for (const [scenario, server, baseline, limit, what] of STORE_TARGETS) {
    const vs = findPair(pairs, scenario, server, baseline);
    out.push({
      id: `issue37.${scenario}`,
      group: 'issue 37',
      target: `${what}: ${server} ≤ ${limit.toFixed(2)}× ${baseline} CPU/request (median of per-round pairs, duels)`,
      measured: pairMeasured(vs),
      status: !vs || !Number.isFinite(vs.cpuRatio) ? 'n/a' : vs.cpuRatio <= limit ? 'PASS' : 'FAIL',
    });
  }
  return out;
}

/**
 * Issue 37's targets: scenario, the server judged, its baseline (each pair one of DUELS), the
 * CPU/request limit, what it is.
 */
const STORE_TARGETS: ReadonlyArray<readonly [ScenarioId, string, string, number, string]> = [
  ['limit', 'tern-limit', 'tern', 1.1, '11. limit: S1 with rateLimit on memoryStore()'],
  ['session', 'tern-session', 'tern', 1.15, '12. session: S1 with a session read on memoryStore()'],
  ['limit-redis', 'tern-limit-redis', 'fastify-limit-redis', 1.0, '13. limit-redis: rateLimit on redisStore() against @fastify/rate-limit on the same Redis'],
];

/** Issue 27's table: Tern ÷ Fastify with response schemas and ÷ raw node:http, per scenario. */
function issueSection(report: Report): string[] {
  const lines: string[] = [];
  const rows = ISSUE_LOAD_TARGETS.filter((t) => report.pairs.some((p) => p.scenario === t.scenario));
  const floor = report.startup.find((s) => s.server === STARTUP_FLOOR);
  if (rows.length === 0 && !floor) return lines;
  lines.push('## Issue 27: Tern against Fastify with response schemas and raw node:http', '');
  if (rows.length > 0) {
    lines.push(
      'CPU per request, server pinned to one core, ' +
        `${report.meta.options.connections} connections, median of per-round pairs: ${report.meta.options.pairRounds} duel(s) of each ` +
        'pair, both servers loaded at once on the server CPU, so that the machine\'s drift moves both alike ' +
        '(a pair without duels, marked ⁱ, is judged on the interleaved rounds):',
      '',
      '| scenario | Tern ÷ Fastify with response schemas | Tern ÷ raw node:http | target | status | pairs | tern-controller ÷ Fastify with schemas | Fastify with schemas ÷ node:http |',
      '|---|---:|---:|---:|---|---:|---:|---:|',
    );
    for (const t of rows) {
      const vsF = findPair(report.pairs, t.scenario, 'tern', FASTIFY_SCHEMAS);
      const vsN = findPair(report.pairs, t.scenario, 'tern', 'node');
      const c = findPair(report.pairs, t.scenario, 'tern-controller', FASTIFY_SCHEMAS);
      const fn = findPair(report.pairs, t.scenario, FASTIFY_SCHEMAS, 'node');
      const status = report.targets.find((x) => x.id === `issue27.${t.scenario}`)?.status ?? 'n/a';
      lines.push(
        `| ${t.label} | ${fmtPair(vsF)} | ${fmtPair(vsN)} | ≤ ${t.limit.toFixed(2)}× | ${status} | ` +
          `${vsF?.cpuRatios.length ?? 0} | ${fmtPair(c)} | ${fmtPair(fn)} |`,
      );
    }
    lines.push('');
  }
  if (floor) {
    lines.push(
      `Start-up with ${fmtInt(floor.routes)} routes, wall time from spawning a fresh process to listening ` +
        `(median of ${floor.samples.length}, interleaved, free on every CPU):`,
      '',
      '| process | spawn → listening (ms) | ÷ bare node:http | target | status | first request |',
      '|---|---:|---:|---:|---|---|',
    );
    for (const s of report.startup) {
      const t = ISSUE_STARTUP_TARGETS.find((x) => x.server === s.server);
      const status = t ? (report.targets.find((x) => x.id === `issue27.startup.${s.server}`)?.status ?? 'n/a') : '';
      lines.push(
        `| ${s.server}: ${STARTUP_SERVERS[s.server]?.what ?? ''} | ${fmt(s.spawnMs)} | ${fmtRatio(startupRatio(report.startup, s.server))} | ` +
          `${t ? `≤ ${t.limit.toFixed(1)}×` : ''} | ${status} | ${openApiVerdict(s)} |`,
      );
    }
    lines.push('');
  }
  return lines;
}

export function toMarkdown(report: Report): string {
  const { meta } = report;
  const lines: string[] = [];
  lines.push(`# Tern benchmark, ${report.date}`, '');
  lines.push(
    `Node ${meta.node} · ${meta.cpus} × ${meta.cpu} · ${meta.memoryGiB} GiB · ${meta.pinning}  `,
    ...(meta.droppedEnv.length > 0
      ? [`Server children run without ${meta.droppedEnv.map((n) => `\`${n}\``).join(', ')} (set on this machine; it only adds a constant to every process's boot: see bench/src/harness/children.ts)  `]
      : []),
    `${meta.options.quick ? '**quick mode** (smoke test: numbers are indicative only) · ' : ''}` +
      `${meta.options.rounds} round(s) of ${meta.options.duration} s per server and scenario, ` +
      `${meta.options.connections} connections, ${meta.options.warmup} s warm-up, servers interleaved per round  `,
    `Versions: ${Object.entries(meta.versions)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
    '',
    ...issueSection(report),
    ...socketMarkdown(report.sockets ?? []),
  );
  if (report.load.length > 0) {
    lines.push(
      'req/s: median of the rounds. p99: median of the rounds\' p99 latency. CPU/req: server process ' +
      'CPU time (user + system) over the measured window divided by the requests completed in it. ' +
      'Ratios in these tables divide medians: the row by Fastify (as shipped), by Fastify with response ' +
      'schemas, or by the hand-routed node:http server; the judged ratios above are medians of per-round pairs.',
      '',
    );
  }

  for (const s of LOAD_SCENARIOS) {
    const rows = report.load.filter((l) => l.scenario === s.id);
    if (rows.length === 0) continue;
    const f = find(report.load, s.id, 'fastify');
    const fs = find(report.load, s.id, FASTIFY_SCHEMAS);
    const n = find(report.load, s.id, 'node');
    lines.push(`## ${s.number}. ${s.title}`, '');
    lines.push(
      '| server | req/s | (min–max) | p99 ms | CPU µs/req | server CPU | req/s ÷ Fastify | CPU ÷ Fastify | CPU ÷ Fastify with schemas | req/s ÷ node | CPU ÷ node |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    );
    for (const r of rows) {
      const flags: string[] = [];
      if (r.loadCpuShare > LOADGEN_SATURATED) flags.push('†');
      if (r.contendedRounds > 0) flags.push('§');
      if (r.non2xx > 0 || r.errors > 0) flags.push(`‡ (${r.non2xx} non-2xx, ${r.errors} errors)`);
      lines.push(
        `| ${r.server}${flags.length ? ' ' + flags.join(' ') : ''} | ${fmtInt(r.rps)} | ${fmtInt(r.rpsMin)}–${fmtInt(r.rpsMax)} | ` +
          `${fmt(r.latencyP99Ms)} | ${fmt(r.cpuUsPerReq)} | ${fmt(r.serverCpuShare * 100, 0)}% | ` +
          `${fmtRatio(ratio(r.rps, f?.rps))} | ${fmtRatio(ratio(r.cpuUsPerReq, f?.cpuUsPerReq))} | ` +
          `${fmtRatio(ratio(r.cpuUsPerReq, fs?.cpuUsPerReq))} | ` +
          `${fmtRatio(ratio(r.rps, n?.rps))} | ${fmtRatio(ratio(r.cpuUsPerReq, n?.cpuUsPerReq))} |`,
      );
    }
    lines.push('');
  }

  if (report.controller.length > 0) {
    lines.push('## 5. Tern: decorated controller vs plain `app.get`', '');
    lines.push(
      '| scenario | pairs | tern CPU µs/req | tern-controller CPU µs/req | CPU/req ratio | (min–max) | req/s ratio |',
      '|---|---:|---:|---:|---:|---:|---:|',
    );
    for (const s of LOAD_SCENARIOS) {
      const c = report.controller.find((x) => x.scenario === s.id);
      if (!c) continue;
      lines.push(
        `| ${s.number}. ${s.id} | ${c.pairs.length} | ${fmt(c.plainCpuUsPerReq)} | ${fmt(c.controllerCpuUsPerReq)} | ${fmtRatio(c.cpuRatio)} | ` +
          `${fmtRatio(c.cpuRatioMin)}–${fmtRatio(c.cpuRatioMax)} | ${fmtRatio(c.rpsRatio)} |`,
      );
    }
    lines.push(
      '',
      `Ratios are medians over pairs: the ${report.meta.options.pairRounds} duel(s) of the two Tern servers, both loaded at once ` +
        'on the server CPU, their order turned every round (or, with no duels, the interleaved rounds). The µs columns are medians over the same rounds.',
      '',
    );
  }

  if (report.startup.length > 0) {
    const phaseNames = [...new Set(report.startup.flatMap((s) => Object.keys(s.phases)))];
    lines.push(`## 6. Startup with ${report.startup[0]!.routes.toLocaleString('en-US')} routes \`GET /rI/mJ/{id}\``, '');
    lines.push(
      `| server | spawn → listening (ms) | ÷ ${STARTUP_FLOOR} | Node start → listening (ms) | loading modules (ms) | building + listen (ms) | ` +
        phaseNames.map((p) => `${p} (ms) | `).join('') +
        'first request | first request (ms) | CPU until listening (ms) | heap used after GC (MB) | RSS (MB) | spawn → listening, pinned to one CPU (ms) | first start, empty compile cache (ms) |',
      `|---|---:|---:|---:|---:|---:|${phaseNames.map(() => '---:|').join('')}---|---:|---:|---:|---:|---:|---:|`,
    );
    for (const s of report.startup) {
      lines.push(
        `| ${s.server} | ${fmt(s.spawnMs)} | ${fmtRatio(startupRatio(report.startup, s.server))} | ${fmt(s.startupMs)} | ${fmt(s.loadMs)} | ${fmt(s.buildMs)} | ` +
          phaseNames.map((p) => `${fmt(s.phases[p] ?? NaN)} | `).join('') +
          `${s.firstRequestPath ? `\`GET ${s.firstRequestPath}\`` : '–'} | ${fmt(s.firstRequestMs)} | ${fmt(s.cpuMs)} | ${fmt(s.heapUsedMB)} | ${fmt(s.rssMB)} | ${fmt(s.pinnedSpawnMs)} | ${fmt(s.coldSpawnMs)} |`,
      );
    }
    lines.push(
      '',
      'Medians over the rounds; each sample is a fresh process, free to use every CPU (nothing else runs while it starts); ' +
        'the last column is the same start pinned to one CPU, as the servers are in the load scenarios. "Spawn → listening" ' +
        'runs from the runner\'s `spawn()` to the listening callback (wall clock on both sides), so it includes Node\'s own boot; ' +
        '"Node start → listening" is the process\'s own clock, from its time origin. "Loading modules" runs from the start of the ' +
        'child script to the server module loaded (the framework\'s `require`), "building + listen" from there to listening, split into the ' +
        'server\'s own phases where it reports them. The first request (GET /openapi.json where the server serves one, else a route) is ' +
        'timed by the client after listening and checked. CPU until listening is the process\'s CPU time ' +
        '(all threads, so it can exceed the wall time). Each server starts once before the rounds, in a compile-cache folder of its own that ' +
        'is still empty (the last column: for Tern, the first start after an install, which compiles its bundle); the rounds are restarts, ' +
        'which Tern compiles from that cache (docs/deployment.md, "Start-up and the compile cache").',
      '',
    );
  }

  const groups: Array<[TargetCheck['group'], string]> = [
    ['issue 27', '## Targets (Tern): issue 27'],
    ['issue 37', '## Targets (Tern): issue 37, rate limits and sessions'],
    ['issue 39', '## Targets (Tern): issue 39, models from schema libraries'],
    ['issue 40', '## Targets (Tern): issue 40, Express/Connect middleware'],
    ['kept', '## Targets (Tern): earlier targets, against Fastify as shipped'],
  ];
  for (const [group, title] of groups) {
    const targets = report.targets.filter((t) => t.group === group);
    if (targets.length === 0) continue;
    lines.push(title, '', '| target | measured | status |', '|---|---|---|');
    for (const t of targets) lines.push(`| ${t.target} | ${t.measured} | ${t.status} |`);
    lines.push('');
  }

  const notes: string[] = [];
  if (report.load.some((l) => l.loadCpuShare > LOADGEN_SATURATED)) {
    notes.push(
      `† the load generator used more than ${LOADGEN_SATURATED * 100}% of its core during a round: that row may be limited by autocannon, not by the server (compare CPU/req, which is not).`,
    );
  }
  if (report.load.some((l) => l.contendedRounds > 0)) {
    notes.push(
      `§ in at least one round other processes on the machine used more than ${CONTENDED * 100}% of a core even after the retries: that row is noisier than the others.`,
    );
  }
  if (report.load.some((l) => l.non2xx > 0 || l.errors > 0)) {
    notes.push('‡ some responses were not 2xx, or requests failed: the row is not comparable.');
  }
  for (const s of report.startup) {
    for (const e of s.checkErrors) notes.push(`Startup check failed for ${s.server}: ${e.split('\n')[0]}`);
  }
  for (const s of report.skipped) notes.push(`Skipped ${s.server} (${s.scenario}): ${s.reason.split('\n')[0]}`);
  if (notes.length > 0) lines.push('## Notes', '', ...notes.map((n) => `- ${n}`), '');
  return lines.join('\n');
}

/**
 * Issue 40's targets, from scenario 17's duels (CPU per request, median of per-round pairs):
 * scenario 4's three layers written as Connect middleware through `fromConnect` cost at most
 * 1.10× the same layers as Tern middleware, and at most what Fastify pays running them through
 * @fastify/middie.
 */
export const CONNECT_TARGETS: ReadonlyArray<{ baseline: string; label: string; limit: number }> = [
  { baseline: 'tern', label: 'the same layers as Tern middleware', limit: 1.1 },
  { baseline: 'fastify-middie', label: 'Fastify running them through @fastify/middie', limit: 1.0 },
];

function connectTargets(pairs: PairComparison[]): TargetCheck[] {
  return CONNECT_TARGETS.map((t) => {
    const vs = findPair(pairs, 'connect', 'tern-connect', t.baseline);
    return {
      id: `issue40.${t.baseline}`,
      group: 'issue 40',
      target: `17. Connect middleware through fromConnect: ≤ ${t.limit.toFixed(2)}× ${t.label}, CPU/request (median of per-round pairs, duels)`,
      measured: pairMeasured(vs),
      status: !vs || !Number.isFinite(vs.cpuRatio) ? 'n/a' : vs.cpuRatio <= t.limit ? 'PASS' : 'FAIL',
    };
  });
}
