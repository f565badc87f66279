/**
 * The bench's verdicts: what the report says about scenario 5 (controllers vs plain routes) must
 * follow from the measured rounds, judged pair by pair.
 */
import type { RunResult } from '../src/harness/load';
import { evaluateTargets, summariseController, summariseLoad, toMarkdown, type ControllerPair, type Report } from '../src/harness/report';

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

function target5(report: ReturnType<typeof evaluateTargets>) {
  return report.find((t) => t.target.startsWith('5.'))!;
}

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

  it('passes at 1.03 and fails above it in any scenario, naming every scenario and its pair count', () => {
    const ok = ['hello', 'route', 'body', 'mw'].map((s) => summariseController(s as 'hello', pairs([10, 10, 10], [10.3, 10.1, 10.2])));
    const pass = target5(evaluateTargets([], ok, []));
    expect(pass.status).toBe('PASS');
    expect(pass.measured).toContain('route: 1.02× CPU/req');
    expect(pass.measured).toContain('(3 pairs)');

    const slowBody = [...ok.slice(0, 2), summariseController('body', pairs([10, 10, 10], [10.4, 10.5, 10.2])), ok[3]!];
    const fail = target5(evaluateTargets([], slowBody, []));
    expect(fail.status).toBe('FAIL');
    expect(fail.measured).toContain('body: 1.04× CPU/req');
  });

  it('is n/a when the two Tern servers were not both measured', () => {
    expect(target5(evaluateTargets([], [], [])).status).toBe('n/a');
  });

  it('prints the pairs table and how the pairs were made', () => {
    const comparison = summariseController('mw', pairs([13, 13.4, 12.9, 13.1], [12.8, 13.5, 13.0, 13.0]));
    const report: Report = {
      date: '2026-11-22T12:00:00.000Z',
      meta: {
        node: 'v20',
        cpu: 'test CPU',
        cpus: 2,
        memoryGiB: 24,
        pinning: 'none',
        options: { duration: 5, rounds: 3, connections: 50, warmup: 1, retries: 2, quietWait: 20, quick: false, controllerRounds: 1 },
        versions: {},
      },
      load: [],
      controller: [comparison],
      startup: [],
      skipped: [],
      targets: evaluateTargets([], [comparison], []),
    };
    const markdown = toMarkdown(report);
    expect(markdown).toContain('| 4. mw | 4 | 13.1 | 13.0 | 1.00× | 0.98×–1.01× | 1.00× |');
    expect(markdown).toContain('the 3 interleaved round(s) of the load scenarios, plus 1 round(s) of the two alone');
  });
});

describe('scenario 7: responses through a model', () => {
  const summary = (server: string, cpuUsPerReq: number) => summariseLoad('users', server, [round(cpuUsPerReq)]);
  const target7 = (load: ReturnType<typeof summary>[]) => evaluateTargets(load, [], []).find((t) => t.target.startsWith('7.'))!;

  it('passes when Tern matches Fastify on req/s and CPU/request and is 5× NestJS-on-Express', () => {
    const pass = target7([summary('tern', 100), summary('fastify', 100), summary('nest-express', 500)]);
    expect(pass.status).toBe('PASS');
    expect(pass.measured).toBe('1.00× req/s, 1.00× CPU/req; 5.00× nest-express');
  });

  it('fails when Tern costs more CPU per request than Fastify, or is under 5× NestJS', () => {
    expect(target7([summary('tern', 105), summary('fastify', 100), summary('nest-express', 1000)]).status).toBe('FAIL');
    expect(target7([summary('tern', 90), summary('fastify', 100), summary('nest-express', 400)]).status).toBe('FAIL');
  });

  it('is n/a without all three servers, and the report has a section 7', () => {
    expect(target7([summary('tern', 100), summary('fastify', 100)]).status).toBe('n/a');
    const load = [summary('tern', 100), summary('fastify', 110)];
    const report: Report = {
      date: '2026-11-23T12:00:00.000Z',
      meta: {
        node: 'v20',
        cpu: 'test CPU',
        cpus: 2,
        memoryGiB: 24,
        pinning: 'none',
        options: { duration: 5, rounds: 1, connections: 50, warmup: 1, retries: 2, quietWait: 20, quick: false, controllerRounds: 0 },
        versions: {},
      },
      load,
      controller: [],
      startup: [],
      skipped: [],
      targets: evaluateTargets(load, [], []),
    };
    expect(toMarkdown(report)).toContain('## 7. GET /users → 50 users of 12 fields through a response model');
  });
});
