/** Summaries, target checks and the Markdown report (bench/results/latest.md and stdout). */
import { CONTENDED, RunResult } from './load';
import { LOAD_SCENARIOS, ScenarioId } from './scenarios';
import { max, median, min, sum } from './stats';

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

export interface StartupSample {
  startupMs: number;
  loadMs: number;
  buildMs: number;
  /** CPU time (user + system, all threads) the process had used when it was listening. */
  cpuMs: number;
  heapUsed: number;
  rss: number;
}

export interface StartupSummary {
  server: string;
  routes: number;
  samples: StartupSample[];
  startupMs: number;
  /** Process start → listening with the process pinned to one CPU (NaN when not pinned). */
  pinnedStartupMs: number;
  pinnedSamples: StartupSample[];
  loadMs: number;
  buildMs: number;
  cpuMs: number;
  heapUsedMB: number;
  rssMB: number;
}

export interface Skip {
  server: string;
  scenario: string;
  reason: string;
}

export interface TargetCheck {
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
  /** Extra back-to-back rounds of the two Tern servers per load scenario (scenario 5). */
  controllerRounds: number;
}

export interface Report {
  date: string;
  meta: {
    node: string;
    cpu: string;
    cpus: number;
    memoryGiB: number;
    pinning: string;
    options: RunOptions;
    versions: Record<string, string>;
  };
  load: LoadSummary[];
  controller: ControllerComparison[];
  startup: StartupSummary[];
  skipped: Skip[];
  targets: TargetCheck[];
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

export function summariseStartup(server: string, routes: number, samples: StartupSample[], pinnedSamples: StartupSample[] = []): StartupSummary {
  return {
    server,
    routes,
    samples,
    startupMs: median(samples.map((s) => s.startupMs)),
    pinnedSamples,
    pinnedStartupMs: pinnedSamples.length > 0 ? median(pinnedSamples.map((s) => s.startupMs)) : NaN,
    loadMs: median(samples.map((s) => s.loadMs)),
    buildMs: median(samples.map((s) => s.buildMs)),
    cpuMs: median(samples.map((s) => s.cpuMs)),
    heapUsedMB: median(samples.map((s) => s.heapUsed)) / 1024 / 1024,
    rssMB: median(samples.map((s) => s.rss)) / 1024 / 1024,
  };
}

const fmtInt = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–');
const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '–');
const ratio = (a: number | undefined, b: number | undefined) =>
  a !== undefined && b !== undefined && Number.isFinite(a) && Number.isFinite(b) && b > 0 ? a / b : NaN;
const fmtRatio = (r: number) => (Number.isFinite(r) ? `${r.toFixed(2)}×` : '–');

/** A load generator above this share of its core may be what limits the numbers. */
export const LOADGEN_SATURATED = 0.9;

function find(load: LoadSummary[], scenario: ScenarioId, server: string): LoadSummary | undefined {
  return load.find((l) => l.scenario === scenario && l.server === server);
}

export function evaluateTargets(load: LoadSummary[], controller: ControllerComparison[], startup: StartupSummary[]): TargetCheck[] {
  const out: TargetCheck[] = [];
  const tern = (s: ScenarioId) => find(load, s, 'tern');
  const fastify = (s: ScenarioId) => find(load, s, 'fastify');

  for (const s of ['hello', 'route', 'mw', 'file'] as const) {
    const n = LOAD_SCENARIOS.find((x) => x.id === s)!.number;
    const t = tern(s);
    const f = fastify(s);
    const rps = ratio(t?.rps, f?.rps);
    const cpu = ratio(t?.cpuUsPerReq, f?.cpuUsPerReq);
    out.push({
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
      target: '3. body: Tern ≥ 1.0× Fastify and ≥ 3× NestJS-on-Express req/s',
      measured: `${fmtRatio(vsF)} Fastify, ${fmtRatio(vsN)} nest-express`,
      status: !Number.isFinite(vsF) || !Number.isFinite(vsN) ? 'n/a' : vsF >= 1.0 && vsN >= 3 ? 'PASS' : 'FAIL',
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
      target: '5. controller: tern-controller within 3% of tern (plain): median CPU/req ratio ≤ 1.03× in every scenario',
      measured: parts.length ? parts.join('; ') : '–',
      status: parts.length === 0 ? 'n/a' : worst <= 1.03 ? 'PASS' : 'FAIL',
    });
  }
  {
    const t = tern('users');
    const f = fastify('users');
    const rps = ratio(t?.rps, f?.rps);
    const cpu = ratio(t?.cpuUsPerReq, f?.cpuUsPerReq);
    const vsN = ratio(t?.rps, find(load, 'users', 'nest-express')?.rps);
    out.push({
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
      target: '9. log: with a pino logger on, Tern ≤ 1.0× Fastify CPU/request',
      measured: `${fmtRatio(cpu)} CPU/req, ${fmtRatio(rps)} req/s`,
      status: !Number.isFinite(cpu) ? 'n/a' : cpu <= 1.0 ? 'PASS' : 'FAIL',
    });
  }
  for (const server of ['tern', 'tern-controller']) {
    const s = startup.find((x) => x.server === server);
    out.push({
      target: `6. startup: ${server} with 1,000 routes listening < 300 ms after process start`,
      measured: s ? `${fmt(s.startupMs)} ms${Number.isFinite(s.pinnedStartupMs) ? ` (pinned to one CPU: ${fmt(s.pinnedStartupMs)} ms)` : ''}` : '–',
      status: !s || !Number.isFinite(s.startupMs) ? 'n/a' : s.startupMs < 300 ? 'PASS' : 'FAIL',
    });
  }
  return out;
}

export function toMarkdown(report: Report): string {
  const { meta } = report;
  const lines: string[] = [];
  lines.push(`# Tern benchmark, ${report.date}`, '');
  lines.push(
    `Node ${meta.node} · ${meta.cpus} × ${meta.cpu} · ${meta.memoryGiB} GiB · ${meta.pinning}  `,
    `${meta.options.quick ? '**quick mode** (smoke test: numbers are indicative only) · ' : ''}` +
      `${meta.options.rounds} round(s) of ${meta.options.duration} s per server and scenario, ` +
      `${meta.options.connections} connections, ${meta.options.warmup} s warm-up, servers interleaved per round  `,
    `Versions: ${Object.entries(meta.versions)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
    '',
    'req/s: median of the rounds. p99: median of the rounds\' p99 latency. CPU/req: server process ' +
      'CPU time (user + system) over the measured window divided by the requests completed in it. ' +
      'Ratios divide the row by Fastify, or by the hand-routed node:http server.',
    '',
  );

  for (const s of LOAD_SCENARIOS) {
    const rows = report.load.filter((l) => l.scenario === s.id);
    if (rows.length === 0) continue;
    const f = find(report.load, s.id, 'fastify');
    const n = find(report.load, s.id, 'node');
    lines.push(`## ${s.number}. ${s.title}`, '');
    lines.push(
      '| server | req/s | (min–max) | p99 ms | CPU µs/req | server CPU | req/s ÷ Fastify | CPU ÷ Fastify | req/s ÷ node | CPU ÷ node |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
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
      `Ratios are medians over pairs: one round of each server, one right after the other (the ` +
        `${report.meta.options.rounds} interleaved round(s) of the load scenarios, plus ${report.meta.options.controllerRounds} ` +
        'round(s) of the two alone, alternating which goes first). The µs columns are medians over the same rounds.',
      '',
    );
  }

  if (report.startup.length > 0) {
    lines.push(`## 6. Startup and memory with ${report.startup[0]!.routes.toLocaleString('en-US')} routes`, '');
    lines.push(
      '| server | process start → listening (ms) | loading modules (ms) | building + listen (ms) | CPU until listening (ms) | heap used after GC (MB) | RSS (MB) | listening, pinned to one CPU (ms) |',
      '|---|---:|---:|---:|---:|---:|---:|---:|',
    );
    for (const s of report.startup) {
      lines.push(
        `| ${s.server} | ${fmt(s.startupMs)} | ${fmt(s.loadMs)} | ${fmt(s.buildMs)} | ${fmt(s.cpuMs)} | ${fmt(s.heapUsedMB)} | ${fmt(s.rssMB)} | ${fmt(s.pinnedStartupMs)} |`,
      );
    }
    lines.push(
      '',
      'Medians over the rounds; each sample is a fresh process, free to use every CPU (nothing else runs while it starts); ' +
        'the last column is the same start pinned to one CPU, as the servers are in the load scenarios. The first column counts from Node\'s own start, so it includes ' +
        'Node\'s boot (the `node` row is close to that floor); "loading modules" runs from the start of the child script to the ' +
        'server module loaded, "building + listen" from there to listening. CPU until listening is the process\'s CPU time ' +
        '(all threads, so it can exceed the wall time) and is less affected by other load on the machine than the wall times.',
      '',
    );
  }

  if (report.targets.length > 0) {
    lines.push('## Targets (Tern)', '', '| target | measured | status |', '|---|---|---|');
    for (const t of report.targets) lines.push(`| ${t.target} | ${t.measured} | ${t.status} |`);
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
  for (const s of report.skipped) notes.push(`Skipped ${s.server} (${s.scenario}): ${s.reason.split('\n')[0]}`);
  if (notes.length > 0) lines.push('## Notes', '', ...notes.map((n) => `- ${n}`), '');
  return lines.join('\n');
}
