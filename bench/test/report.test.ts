/**
 * The bench's verdicts: what the report says must follow from the measured rounds. Issue 27's
 * ratios are medians of per-round pairs; its startup targets divide by the bare node:http floor.
 */
import { childEnv, droppedEnv } from '../src/harness/children';
import type { RunResult } from '../src/harness/load';
import {
  comparePairs,
  controllerPairs,
  evaluateTargets,
  summariseController,
  summariseLoad,
  summarisePairs,
  summariseStartup,
  toMarkdown,
  type ControllerPair,
  type LoadSummary,
  type PairComparison,
  type Report,
  type Round,
  type ScenarioRounds,
  type StartupSample,
  type StartupSummary,
  type TargetInput,
} from '../src/harness/report';
import { DUELS, LOAD_SCENARIOS, type ScenarioId } from '../src/harness/scenarios';
import { SOCKET_LIMITS, judgeSockets, socketMeasured, type SocketDuel, type SocketResult } from '../src/sockets/socket-report';

function round(cpuUsPerReq: number, rps = 1_000_000 / cpuUsPerReq): RunResult {
  return {
    rps,
    totalRequests: rps * 5,
    durationS: 5,
    latencyP50Ms: 0,
    latencyP99Ms: 1,
    cpuUsPerReq,
    serverCpuShare: 0.98,
    loadCpuShare: 0.8,
    otherCpuShare: 0,
    non2xx: 0,
    errors: 0,
    timeouts: 0,
  };
}

const pairs = (plain: number[], controller: number[]): ControllerPair[] =>
  plain.map((p, i) => ({ plain: round(p), controller: round(controller[i]!) }));

/** Rounds of a scenario from CPU µs/req per server, one entry per round (undefined: not measured). */
function rounds(scenario: ScenarioId, cpu: Record<string, Array<number | undefined>>, kind: Round['kind'] = 'interleaved'): ScenarioRounds {
  const count = Math.max(...Object.values(cpu).map((v) => v.length));
  const out: Round[] = [];
  for (let r = 0; r < count; r++) {
    const results: Record<string, RunResult> = {};
    for (const [server, values] of Object.entries(cpu)) {
      if (values[r] !== undefined) results[server] = round(values[r]!);
    }
    out.push({ kind, results });
  }
  return { scenario, rounds: out };
}

const input = (partial: Partial<TargetInput>): TargetInput => ({ load: [], pairs: [], controller: [], startup: [], ...partial });
const target = (targets: ReturnType<typeof evaluateTargets>, id: string) => {
  const t = targets.find((x) => x.id === id);
  if (!t) throw new Error(`no target ${id}`);
  return t;
};

function report(partial: Partial<Report>): Report {
  const base: Report = {
    date: '2026-11-26T12:00:00.000Z',
    meta: {
      node: 'v20',
      cpu: 'test CPU',
      cpus: 2,
      memoryGiB: 24,
      pinning: 'none',
      droppedEnv: [],
      options: { duration: 5, rounds: 3, connections: 50, warmup: 1, retries: 2, quietWait: 20, quick: false, pairRounds: 4, startupRounds: 5 },
      versions: {},
    },
    load: [],
    rounds: [],
    pairs: [],
    controller: [],
    startup: [],
    skipped: [],
    targets: [],
  };
  const r = { ...base, ...partial };
  return { ...r, targets: partial.targets ?? evaluateTargets({ load: r.load, pairs: r.pairs, controller: r.controller, startup: r.startup }) };
}

describe('issue 27: per-round pairs against Fastify with response schemas', () => {
  it('takes the median of the ratios within each round, not the ratio of the medians', () => {
    // Medians: tern 12, fastify-schemas 12 → 1.00×; per round: 0.9, 0.95, 1.25 → 0.95×.
    const s = rounds('hello', { tern: [9, 11.4, 15], 'fastify-schemas': [10, 12, 12] });
    const c = comparePairs(s, 'tern', 'fastify-schemas')!;
    expect(c.cpuRatios.map((r) => Number(r.toFixed(3)))).toEqual([0.9, 0.95, 1.25]);
    expect(c.cpuRatio).toBeCloseTo(0.95, 10);
    expect(c.cpuRatioMin).toBeCloseTo(0.9, 10);
    expect(c.cpuRatioMax).toBeCloseTo(1.25, 10);
    expect(c.serverCpuUsPerReq).toBe(11.4);
    expect(c.baselineCpuUsPerReq).toBe(12);
  });

  it('pairs only rounds that measured both servers', () => {
    const s = rounds('route', { tern: [10, undefined, 11], 'fastify-schemas': [10, 10, 10], node: [9, 9, undefined] });
    expect(comparePairs(s, 'tern', 'fastify-schemas')!.cpuRatios).toEqual([1, 1.1]);
    expect(comparePairs(s, 'tern', 'node')!.cpuRatios).toEqual([10 / 9]);
    expect(comparePairs(s, 'tern', 'express')).toBeUndefined();
    expect(summarisePairs([s]).map((p) => `${p.server}/${p.baseline}`)).toEqual(['tern/fastify-schemas', 'tern/node', 'fastify-schemas/node']);
  });

  it("judges a pair on its duels when it had any, and on the interleaved rounds when it had none", () => {
    const s: ScenarioRounds = {
      scenario: 'body',
      rounds: [
        // Interleaved rounds minutes apart: the machine's drift spreads their ratios.
        ...rounds('body', { tern: [80, 120, 100], 'fastify-schemas': [100, 100, 100], 'tern-controller': [100, 100, 100], node: [70, 70, 70] }).rounds,
        ...rounds('body', { tern: [96, 97], 'fastify-schemas': [100, 100] }, 'duel').rounds,
        ...rounds('body', { 'tern-controller': [101, 102], tern: [100, 100] }, 'duel').rounds,
      ],
    };
    const vsF = comparePairs(s, 'tern', 'fastify-schemas')!;
    expect(vsF.rounds).toBe('duel');
    expect(vsF.cpuRatios).toEqual([0.96, 0.97]);
    const controller = controllerPairs(s).map((p) => p.controller.cpuUsPerReq / p.plain.cpuUsPerReq);
    expect(controller).toEqual([1.01, 1.02]);
    // No duel of tern with node here: its interleaved rounds are what there is, and say so.
    const vsN = comparePairs(s, 'tern', 'node')!;
    expect(vsN.rounds).toBe('interleaved');
    expect(vsN.cpuRatios).toHaveLength(3);
    const [f] = summarisePairs([s]).filter((p) => p.server === 'tern' && p.baseline === 'fastify-schemas');
    expect(target(evaluateTargets(input({ pairs: [f!] })), 'issue27.body').measured).toBe('0.965× (2 duels, 0.96×–0.97×); ÷ node:http –');
  });

  const judged = (scenario: ScenarioId, ternCpu: number[], fastifyCpu: number[]): PairComparison[] =>
    summarisePairs([rounds(scenario, { tern: ternCpu, 'fastify-schemas': fastifyCpu, node: fastifyCpu.map((f) => f * 0.9) }, 'duel')]);

  it('passes S1, S2 and S4 at 1.00× and fails above', () => {
    for (const s of ['hello', 'route', 'mw'] as const) {
      const at = target(evaluateTargets(input({ pairs: judged(s, [10, 10, 10], [10, 10, 10]) })), `issue27.${s}`);
      expect(at.status).toBe('PASS');
      expect(at.measured).toBe('1.000× (3 duels, 1.00×–1.00×); ÷ node:http 1.11×');
      expect(target(evaluateTargets(input({ pairs: judged(s, [10.1, 10.1, 9], [10, 10, 10]) })), `issue27.${s}`).status).toBe('FAIL');
    }
  });

  it('asks 0.95× on S3 and on the 50-entity scenario', () => {
    for (const s of ['body', 'people'] as const) {
      expect(target(evaluateTargets(input({ pairs: judged(s, [95, 94, 99], [100, 100, 100]) })), `issue27.${s}`).status).toBe('PASS');
      const fail = target(evaluateTargets(input({ pairs: judged(s, [96, 94, 99], [100, 100, 100]) })), `issue27.${s}`);
      expect(fail.status).toBe('FAIL');
      expect(fail.measured).toContain('0.960× (3 duels, 0.94×–0.99×)');
    }
    expect(target(evaluateTargets(input({ pairs: judged('people', [90], [100]) })), 'issue27.people').target).toBe(
      'list of 50 entities through a response model: Tern ≤ 0.95× Fastify-with-response-schemas CPU/request (median of per-round pairs, duels)',
    );
  });

  it('is n/a without Fastify with response schemas, whatever plain Fastify did', () => {
    const pairsWithoutSchemas = summarisePairs([rounds('hello', { tern: [10], fastify: [20], node: [9] })]);
    const t = target(evaluateTargets(input({ pairs: pairsWithoutSchemas })), 'issue27.hello');
    expect(t.status).toBe('n/a');
    expect(t.measured).toBe('–; ÷ node:http 1.11×');
  });

  it("prints the issue's table: Tern ÷ Fastify with schemas and ÷ raw node:http per scenario", () => {
    const r = rounds('body', {
      tern: [40, 41, 42],
      'fastify-schemas': [44, 44, 43],
      'tern-controller': [40, 41, 43],
      node: [33, 34, 33],
    });
    const markdown = toMarkdown(report({ rounds: [r], pairs: summarisePairs([r]) }));
    expect(markdown).toContain('## Issue 27: Tern against Fastify with response schemas and raw node:http');
    expect(markdown).toContain('| scenario | Tern ÷ Fastify with response schemas | Tern ÷ raw node:http | target | status | pairs |');
    // Interleaved rounds only (no duels): every ratio says where it comes from.
    expect(markdown).toContain('| S3 981-byte validated body | 0.93× ⁱ | 1.21× ⁱ | ≤ 0.95× | PASS | 3 | 0.93× ⁱ | 1.30× ⁱ |');
    expect(markdown).toContain('median of per-round pairs: 4 duel(s) of each pair, both servers loaded at once on the server CPU');
    // Only the scenarios that ran have a row.
    expect(markdown).not.toContain('| S1 hello |');
  });
});

describe('scenario 5: controllers against plain routes', () => {
  it('takes the median of the round-by-round ratios, with their spread', () => {
    const c = summariseController('route', pairs([12, 13, 12.5], [12.24, 13.52, 12.5]));
    expect(c.cpuRatio).toBeCloseTo(1.02, 5);
    expect(c.cpuRatioMin).toBeCloseTo(1.0, 5);
    expect(c.cpuRatioMax).toBeCloseTo(1.04, 5);
    expect(c.rpsRatio).toBeCloseTo(1 / 1.02, 5);
    expect(c.plainCpuUsPerReq).toBe(12.5);
    expect(c.controllerCpuUsPerReq).toBe(12.5);
  });

  it('pairs the two Tern servers in every round that measured both', () => {
    const r = rounds('mw', { tern: [10, 10, undefined], 'tern-controller': [10.2, 10.4, 10] });
    expect(controllerPairs(r).map((p) => p.controller.cpuUsPerReq / p.plain.cpuUsPerReq)).toEqual([1.02, 1.04]);
  });

  it('passes at 1.03 and fails above it in any scenario, naming every scenario and its pair count', () => {
    const ok = ['hello', 'route', 'body', 'mw'].map((s) => summariseController(s as 'hello', pairs([10, 10, 10], [10.3, 10.1, 10.2])));
    const pass = target(evaluateTargets(input({ controller: ok })), 'issue27.controller');
    expect(pass.status).toBe('PASS');
    expect(pass.measured).toContain('route: 1.02× CPU/req');
    expect(pass.measured).toContain('(3 pairs)');

    const slowBody = [...ok.slice(0, 2), summariseController('body', pairs([10, 10, 10], [10.4, 10.5, 10.2])), ok[3]!];
    const fail = target(evaluateTargets(input({ controller: slowBody })), 'issue27.controller');
    expect(fail.status).toBe('FAIL');
    expect(fail.measured).toContain('body: 1.04× CPU/req');
  });

  it('is n/a when the two Tern servers were not both measured', () => {
    expect(target(evaluateTargets(input({})), 'issue27.controller').status).toBe('n/a');
  });

  it('prints the pairs table and how the pairs were made', () => {
    const comparison = summariseController('mw', pairs([13, 13.4, 12.9, 13.1], [12.8, 13.5, 13.0, 13.0]));
    const markdown = toMarkdown(report({ controller: [comparison], meta: { ...report({}).meta, options: { ...report({}).meta.options, pairRounds: 1 } } }));
    expect(markdown).toContain('| 4. mw | 4 | 13.1 | 13.0 | 1.00× | 0.98×–1.01× | 1.00× |');
    expect(markdown).toContain('Ratios are medians over pairs: the 1 duel(s) of the two Tern servers, both loaded at once on the server CPU');
  });
});

describe('issue 27: startup against the bare node:http process', () => {
  function sample(spawnMs: number, extra: Partial<StartupSample> = {}): StartupSample {
    return {
      spawnMs,
      startupMs: spawnMs - 3,
      loadMs: 30,
      buildMs: spawnMs - 110,
      phases: { declare: 6, ready: 50 },
      cpuMs: spawnMs * 1.2,
      heapUsed: 10 * 1024 * 1024,
      rss: 60 * 1024 * 1024,
      firstRequestPath: '/openapi.json',
      firstRequestMs: 9,
      operations: 1000,
      ...extra,
    };
  }
  const floor = () => summariseStartup('node-bare', 1000, [80, 79, 78, 81, 79].map((ms) => sample(ms, { firstRequestPath: '/r99/m9/42', operations: undefined })));

  it('summarises medians of spawn → listening, the phases and the first request', () => {
    const s = summariseStartup('tern', 1000, [120, 126, 124, 125, 121].map((ms, i) => sample(ms, { firstRequestMs: 8 + i })));
    expect(s.spawnMs).toBe(124);
    expect(s.phases).toEqual({ declare: 6, ready: 50 });
    expect(s.firstRequestMs).toBe(10);
    expect(s.operations).toBe(1000);
    expect(s.checkErrors).toEqual([]);
  });

  it('reports the first start, with an empty compile cache, beside the judged restarts', () => {
    const s = summariseStartup('tern', 1000, [120, 126, 124].map((ms) => sample(ms)), [], [sample(171)]);
    expect(s.spawnMs).toBe(124);
    expect(s.coldSpawnMs).toBe(171);
    expect(summariseStartup('tern', 1000, [sample(120)]).coldSpawnMs).toBeNaN();
    const markdown = toMarkdown(report({ startup: [floor(), s] }));
    expect(markdown).toContain('| first start, empty compile cache (ms) |');
    expect(markdown).toMatch(/\| tern \| 124\.0 \| 1\.57× \|.*\| 171\.0 \|$/m);
  });

  it('passes plain routes at 1.6× the floor and controllers at 1.8×, and fails above', () => {
    const plain = (ms: number) => summariseStartup('tern', 1000, [sample(ms)]);
    const ctrl = (ms: number) => summariseStartup('tern-controller', 1000, [sample(ms)]);
    const t = (startup: StartupSummary[], id: string) => target(evaluateTargets(input({ startup })), id);
    expect(t([floor(), plain(126.4)], 'issue27.startup.tern').status).toBe('PASS');
    expect(t([floor(), plain(127)], 'issue27.startup.tern').status).toBe('FAIL');
    expect(t([floor(), ctrl(142.2)], 'issue27.startup.tern-controller').status).toBe('PASS');
    expect(t([floor(), ctrl(143)], 'issue27.startup.tern-controller').status).toBe('FAIL');
    expect(t([floor(), plain(213)], 'issue27.startup.tern').measured).toBe(
      '213.0 ms ÷ 79.0 ms = 2.70×; /openapi.json: complete, 1,000 operations, first request 9.0 ms',
    );
  });

  it('fails a fast start whose /openapi.json was incomplete on its first request', () => {
    const s = summariseStartup('tern', 1000, [sample(100, { checkError: '/openapi.json is incomplete: GET /r3/m4/{id} is missing' })]);
    const t = target(evaluateTargets(input({ startup: [floor(), s] })), 'issue27.startup.tern');
    expect(t.status).toBe('FAIL');
    expect(t.measured).toContain('**/openapi.json is incomplete: GET /r3/m4/{id} is missing**');
  });

  it('is n/a without the floor', () => {
    expect(target(evaluateTargets(input({ startup: [summariseStartup('tern', 1000, [sample(100)])] })), 'issue27.startup.tern').status).toBe('n/a');
  });

  it('says which variables of the machine the server children ran without', () => {
    expect(toMarkdown(report({ meta: { ...report({}).meta, droppedEnv: ['NODE_EXTRA_CA_CERTS'] } }))).toContain(
      'Server children run without `NODE_EXTRA_CA_CERTS` (set on this machine',
    );
    expect(toMarkdown(report({}))).not.toContain('Server children run without');
  });

  it('starts the children without NODE_EXTRA_CA_CERTS, in production mode, with the rest of the environment', () => {
    const saved = { ...process.env };
    try {
      process.env.NODE_EXTRA_CA_CERTS = '/etc/ssl/certs/ca-certificates.crt';
      process.env.TERN_BENCH_PROBE = 'kept';
      expect(droppedEnv()).toEqual(['NODE_EXTRA_CA_CERTS']);
      const env = childEnv();
      expect(env.NODE_EXTRA_CA_CERTS).toBeUndefined();
      expect(env.TERN_BENCH_PROBE).toBe('kept');
      expect(env.NODE_ENV).toBe('production');
      delete process.env.NODE_EXTRA_CA_CERTS;
      expect(droppedEnv()).toEqual([]);
    } finally {
      process.env = saved;
    }
  });

  it('prints the start-up rows with their ratio to the floor', () => {
    const startup = [floor(), summariseStartup('tern', 1000, [sample(213)]), summariseStartup('express', 1000, [sample(104, { operations: undefined, firstRequestPath: '/r99/m9/42' })])];
    const markdown = toMarkdown(report({ startup }));
    expect(markdown).toContain('Start-up with 1,000 routes, wall time from spawning a fresh process to listening (median of 5, interleaved');
    expect(markdown).toMatch(/\| tern: `app\.get\('\/rI\/mJ\/\{id:int\}', \{ summary, tags \}, handler\)` \| 213\.0 \| 2\.70× \| ≤ 1\.6× \| FAIL \| complete, 1,000 operations, first request 9\.0 ms \|/);
    expect(markdown).toContain('| express: Express, `/rI/mJ/:id`, the id checked by hand | 104.0 | 1.32× |  |  | first request /r99/m9/42 9.0 ms |');
    expect(markdown).toContain('| server | spawn → listening (ms) | ÷ node-bare |');
  });
});

describe('scenario 7: responses through a model (kept, against Fastify as shipped)', () => {
  const summary = (server: string, cpuUsPerReq: number): LoadSummary => summariseLoad('users', server, [round(cpuUsPerReq)]);
  const target7 = (load: LoadSummary[]) => target(evaluateTargets(input({ load })), 'kept.users');

  it('passes when Tern matches Fastify on req/s and CPU/request and is 5× NestJS-on-Express', () => {
    const pass = target7([summary('tern', 100), summary('fastify', 100), summary('nest-express', 500)]);
    expect(pass.status).toBe('PASS');
    expect(pass.group).toBe('kept');
    expect(pass.measured).toBe('1.00× req/s, 1.00× CPU/req; 5.00× nest-express');
  });

  it('fails when Tern costs more CPU per request than Fastify, or is under 5× NestJS', () => {
    expect(target7([summary('tern', 105), summary('fastify', 100), summary('nest-express', 1000)]).status).toBe('FAIL');
    expect(target7([summary('tern', 90), summary('fastify', 100), summary('nest-express', 400)]).status).toBe('FAIL');
  });

  it('is n/a without all three servers, and the report has a section 7 with a column for Fastify with schemas', () => {
    expect(target7([summary('tern', 100), summary('fastify', 100)]).status).toBe('n/a');
    const load = [summary('tern', 100), summary('fastify', 110), summary('fastify-schemas', 125)];
    const markdown = toMarkdown(report({ load }));
    expect(markdown).toContain('## 7. GET /users → 50 users of 12 fields through a response model');
    expect(markdown).toContain('| tern | 10,000 | 10,000–10,000 | 1.0 | 100.0 | 98% | 1.10× | 0.91× | 0.80× | – | – |');
  });
});

describe('the targets tables', () => {
  it("prints issue 27's targets apart from the earlier ones, every one PASS, FAIL or n/a", () => {
    const r = report({});
    const markdown = toMarkdown(r);
    const issue = markdown.indexOf('## Targets (Tern): issue 27');
    const kept = markdown.indexOf('## Targets (Tern): earlier targets, against Fastify as shipped');
    expect(issue).toBeGreaterThan(-1);
    expect(kept).toBeGreaterThan(issue);
    expect(r.targets.filter((t) => t.group === 'issue 27').map((t) => t.id)).toEqual([
      'issue27.hello',
      'issue27.route',
      'issue27.body',
      'issue27.mw',
      'issue27.people',
      'issue27.controller',
      'issue27.startup.tern',
      'issue27.startup.tern-controller',
    ]);
    for (const t of r.targets) expect(['PASS', 'FAIL', 'n/a']).toContain(t.status);
  });

  it("judges issue 39's zod variant of S3 on the tern-zod ÷ fastify-zod duels", () => {
    const none = report({}).targets.find((t) => t.id === 'issue39.body-zod');
    expect(none).toMatchObject({ group: 'issue 39', status: 'n/a' });
    expect(none?.target).toMatch(/fastify-type-provider-zod/);
    const pass = summarisePairs([rounds('body-zod', { 'tern-zod': [80, 90, 70], 'fastify-zod': [100, 100, 100] }, 'duel')]);
    expect(target(evaluateTargets(input({ pairs: pass })), 'issue39.body-zod')).toMatchObject({ status: 'PASS', measured: expect.stringContaining('0.800×') });
    const fail = summarisePairs([rounds('body-zod', { 'tern-zod': [110, 120, 105], 'fastify-zod': [100, 100, 100] }, 'duel')]);
    expect(target(evaluateTargets(input({ pairs: fail })), 'issue39.body-zod').status).toBe('FAIL');
  });
});

describe("issue 37's targets", () => {
  /** Interleaved rounds and then duels of one scenario, as runLoad records a paired scenario. */
  const measured = (scenario: ScenarioId, interleaved: Record<string, number[]>, duels: Record<string, number[]>): ScenarioRounds => ({
    scenario,
    rounds: [...rounds(scenario, interleaved).rounds, ...rounds(scenario, duels, 'duel').rounds],
  });
  // Each scenario's interleaved rounds point the other way from its duels: the verdicts below
  // hold only if the duels are what is judged.
  const scenarios = [
    measured('limit', { tern: [10, 10, 10], 'tern-limit': [12, 12, 12] }, { 'tern-limit': [10.5, 10.9, 10.7], tern: [10, 10, 10] }),
    measured('session', { tern: [10, 10, 10], 'tern-session': [10.5, 10.5, 10.5] }, { 'tern-session': [11.6, 11.8, 11.7], tern: [10, 10, 10] }),
    measured(
      'limit-redis',
      { 'tern-limit-redis': [44, 44, 44], 'fastify-limit-redis': [40, 40, 40] },
      { 'tern-limit-redis': [36, 37, 38], 'fastify-limit-redis': [40, 40, 40] },
    ),
  ];
  // The interleaved medians, as the report's per-scenario tables show them.
  const load = scenarios.flatMap((s) =>
    Object.keys(s.rounds[0]!.results).map((server) =>
      summariseLoad(s.scenario, server, s.rounds.filter((r) => r.kind === 'interleaved').map((r) => r.results[server]!)),
    ),
  );

  it('judge a rate limit and a session read against plain Tern, and Redis counting against @fastify/rate-limit, on their duels', () => {
    const targets = evaluateTargets(input({ load, pairs: summarisePairs(scenarios) }));
    expect(target(targets, 'issue37.limit')).toMatchObject({ group: 'issue 37', status: 'PASS', measured: '1.070× (3 duels, 1.05×–1.09×)' });
    expect(target(targets, 'issue37.limit').target).toBe(
      '11. limit: S1 with rateLimit on memoryStore(): tern-limit ≤ 1.10× tern CPU/request (median of per-round pairs, duels)',
    );
    expect(target(targets, 'issue37.session')).toMatchObject({ status: 'FAIL', measured: '1.170× (3 duels, 1.16×–1.18×)' });
    expect(target(targets, 'issue37.session').target).toContain('≤ 1.15× tern CPU/request');
    expect(target(targets, 'issue37.limit-redis')).toMatchObject({ status: 'PASS', measured: '0.925× (3 duels, 0.90×–0.95×)' });
    expect(target(targets, 'issue37.limit-redis').target).toContain('tern-limit-redis ≤ 1.00× fastify-limit-redis');
  });

  it('fall back to the interleaved rounds without duels (--pair-rounds 0), and say so', () => {
    const interleavedOnly = scenarios.map((s) => ({ ...s, rounds: s.rounds.filter((r) => r.kind === 'interleaved') }));
    const targets = evaluateTargets(input({ load, pairs: summarisePairs(interleavedOnly) }));
    expect(target(targets, 'issue37.limit')).toMatchObject({ status: 'FAIL', measured: '1.200× (3 interleaved pairs, 1.20×–1.20×)' });
    expect(target(targets, 'issue37.session').status).toBe('PASS');
    expect(target(targets, 'issue37.limit-redis').status).toBe('FAIL');
  });

  it('are pairs the bench duels, in scenarios it runs duels in', () => {
    for (const [scenario, server, baseline] of [
      ['limit', 'tern-limit', 'tern'],
      ['session', 'tern-session', 'tern'],
      ['limit-redis', 'tern-limit-redis', 'fastify-limit-redis'],
    ] as const) {
      const s = LOAD_SCENARIOS.find((x) => x.id === scenario);
      expect({ scenario, paired: s?.paired, servers: s?.servers }).toEqual({ scenario, paired: true, servers: expect.arrayContaining([server, baseline]) });
      expect(DUELS).toContainEqual([server, baseline]);
    }
  });

  it('say n/a for a scenario that did not run (13 without a Redis: both its servers are skipped)', () => {
    const targets = evaluateTargets(input({ load, pairs: summarisePairs(scenarios.filter((s) => s.scenario !== 'limit-redis')) }));
    expect(target(targets, 'issue37.limit-redis').status).toBe('n/a');
    expect(target(targets, 'issue37.limit').status).toBe('PASS');
    expect(target(evaluateTargets(input({})), 'issue37.limit').status).toBe('n/a');
  });
});

describe('issue 40: Connect middleware through fromConnect (scenario 17)', () => {
  const duels = (cpu: Record<string, number[]>) => summarisePairs([rounds('connect', cpu, 'duel')]);

  it('judges the duels: within 1.10× of Tern middleware and at most Fastify + middie passes, beyond fails', () => {
    const passing = evaluateTargets(input({ pairs: duels({ tern: [10, 10, 10], 'tern-connect': [10.9, 10.5, 11.5], 'fastify-middie': [11, 11, 11] }) }));
    expect([target(passing, 'issue40.tern').status, target(passing, 'issue40.fastify-middie').status]).toEqual(['PASS', 'PASS']);
    expect(target(passing, 'issue40.tern').measured).toContain('1.090× (3 duels');
    const failing = evaluateTargets(input({ pairs: duels({ tern: [10, 10, 10], 'tern-connect': [11.5, 11.2, 12], 'fastify-middie': [11, 11, 11] }) }));
    expect([target(failing, 'issue40.tern').status, target(failing, 'issue40.fastify-middie').status]).toEqual(['FAIL', 'FAIL']);
  });

  it('says n/a when scenario 17 did not run', () => {
    expect(evaluateTargets(input({})).filter((t) => t.group === 'issue 40').map((t) => t.status)).toEqual(['n/a', 'n/a']);
  });
});

describe('issue 38: the socket scenarios (14 echo, 15 broadcast)', () => {
  // Interleaved rounds by server (CPU µs per message): Tern 9% above raw ws, 10% above Fastify.
  const interleaved = { tern: [11, 10.9, 11.2, 10.8, 11], ws: [10, 10, 10, 10, 10], fastify: [10, 9.9, 10.1, 10, 10] };
  const duel = (against: string, tern: number, other: number): SocketDuel => ({ against, cpuMicros: { tern, [against]: other } });

  it('judges a pair on the median of its duels when it had any, not on the interleaved rounds', () => {
    const duels = [duel('fastify', 9.8, 10), duel('fastify', 9.5, 10), duel('fastify', 10.1, 10), duel('fastify', 9.9, 10)];
    const judged = judgeSockets(SOCKET_LIMITS.echo, interleaved, duels);
    const fastify = judged.find((j) => j.against === 'fastify')!;
    expect(fastify).toMatchObject({ from: 'duel', limit: 1.0, pass: true });
    // An even count's median is the mean of the middle two, as the HTTP pairs'.
    expect(fastify.ratio).toBeCloseTo(0.985, 5);
    expect(socketMeasured(fastify)).toBe('0.985× (4 duels, 0.95×–1.01×)');
    // No duels of Tern and ws: that pair falls back to the interleaved rounds' ratios.
    const ws = judged.find((j) => j.against === 'ws')!;
    expect(ws).toMatchObject({ from: 'interleaved', limit: 1.1, pass: true });
    expect(ws.ratio).toBeCloseTo(1.1, 5);
    expect(socketMeasured(ws)).toBe('1.100× (5 interleaved rounds, 1.08×–1.12×)');
  });

  it('fails a pair whose duels are over its limit even when its interleaved rounds were under it', () => {
    const [ws] = judgeSockets(SOCKET_LIMITS.broadcast, { tern: [100, 100, 100], ws: [100, 100, 100] }, [duel('ws', 112, 100), duel('ws', 111, 100)]);
    expect(ws).toMatchObject({ against: 'ws', from: 'duel', pass: false });
    expect(ws!.ratio).toBeCloseTo(1.115, 5);
  });

  it('says in the report what each judged ratio is the median of', () => {
    const result: SocketResult = {
      scenario: 'echo',
      cpuMicros: { tern: 11, ws: 10, fastify: 10 },
      rate: { tern: 9000, ws: 10000, fastify: 9500 },
      judged: judgeSockets(SOCKET_LIMITS.echo, interleaved, [duel('ws', 10.2, 10), duel('fastify', 10.3, 10)]),
      duels: [],
    };
    const markdown = toMarkdown(report({ sockets: [result] }));
    expect(markdown).toContain('- Tern / ws: **1.020× (1 duel)** (limit 1.10×) **PASS**');
    expect(markdown).toContain('- Tern / fastify: **1.030× (1 duel)** (limit 1.00×) **FAIL**');
  });
});
