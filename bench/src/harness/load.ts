/**
 * Measured autocannon runs against server children, with each child's CPU time over the
 * same window. Every run is bounded: autocannon stops itself after `duration`, and a watchdog
 * calls stop() if it has not finished `duration + 15 s` later.
 */
import autocannon from 'autocannon';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { ServerChild } from './children';
import type { LoadScenario } from './scenarios';

export interface RunResult {
  /** Completed requests per second over the run. */
  rps: number;
  totalRequests: number;
  durationS: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  /** Server child CPU (user + system) per completed request, in microseconds. */
  cpuUsPerReq: number;
  /** Server child CPU time over the window divided by wall time (1.0 = one full core). */
  serverCpuShare: number;
  /** Load generator (this process) CPU over the window divided by wall time. */
  loadCpuShare: number;
  /**
   * CPU used by everything else on the machine over the window (user + nice + system + steal
   * from /proc/stat, minus the server's and the load generator's), in cores; NaN off Linux.
   * Above CONTENDED the round is considered disturbed (another process was busy).
   */
  otherCpuShare: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

export interface LoadOptions {
  host: string;
  port: number;
  connections: number;
  duration: number;
}

/** Other processes using more than this share of a core make a round "contended". */
export const CONTENDED = 0.2;

let clockTicks: number | null = null;
function ticksPerSecond(): number {
  if (clockTicks === null) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

/** Busy CPU time of the whole machine since boot in ms (user + nice + system + steal), or null. */
function machineBusyMs(): number | null {
  try {
    const line = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
    const f = line.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal ...: softirq/irq (the loopback traffic
    // of the benchmark itself) are left out, they belong to neither side alone.
    const busy = (f[0] ?? 0) + (f[1] ?? 0) + (f[2] ?? 0) + (f[7] ?? 0);
    return (busy * 1000) / ticksPerSecond();
  } catch {
    return null;
  }
}

/**
 * Waits (up to `maxMs`) until the rest of the machine uses at most CONTENDED of a core, sampling
 * /proc/stat over 500 ms windows while no load runs. Returns the waiting time in ms.
 */
export async function waitForQuiet(maxMs: number): Promise<number> {
  const t0 = performance.now();
  for (;;) {
    const busy0 = machineBusyMs();
    if (busy0 === null) return 0;
    const own0 = process.cpuUsage();
    const w0 = performance.now();
    await new Promise((r) => setTimeout(r, 500));
    const own = process.cpuUsage(own0);
    const other = (machineBusyMs()! - busy0 - (own.user + own.system) / 1000) / (performance.now() - w0);
    const waited = performance.now() - t0;
    if (other <= CONTENDED || waited >= maxMs) return waited;
  }
}

/** One autocannon run with a watchdog: autocannon stops itself after `duration`; this is the safety net. */
export function runAutocannon(opts: autocannon.Options, duration: number): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    let finished = false;
    const instance = autocannon(opts, (err, result) => {
      finished = true;
      clearTimeout(watchdog);
      if (err) reject(err);
      else resolve(result);
    });
    const watchdog = setTimeout(() => {
      if (!finished) instance.stop();
    }, (duration + 15) * 1000);
  });
}

/** One server child and the port its load goes to. */
export interface LoadTarget {
  child: ServerChild;
  port: number;
}

/** One autocannon run against one server, with the child's CPU time over the same window. */
export async function measure(child: ServerChild, scenario: LoadScenario, o: LoadOptions): Promise<RunResult> {
  const [result] = await measureTogether([{ child, port: o.port }], scenario, o);
  return result!;
}

/**
 * Loads every target at once, each with its own autocannon of `o.connections` connections, over
 * one window, and returns one result per target in their order. With two targets on one CPU
 * this is a duel: both servers share the core's time slices, so whatever slows the machine
 * down during the window (the host's other tenants, caches, frequency) slows both alike, and
 * the ratio of their CPU per request stays put when each one's absolute figure does not.
 */
export async function measureTogether(
  targets: LoadTarget[],
  scenario: LoadScenario,
  o: Omit<LoadOptions, 'port'>,
): Promise<RunResult[]> {
  const optionsFor = (port: number): autocannon.Options => ({
    url: `http://${o.host}:${port}${scenario.path}`,
    connections: o.connections,
    duration: o.duration,
    pipelining: 1,
    timeout: 10,
    method: scenario.method,
    ...(scenario.headers ? { headers: scenario.headers } : {}),
    ...(scenario.body !== undefined ? { body: scenario.body } : {}),
  });

  await Promise.all(
    targets.map(({ child }) => {
      const started = child.waitFor(['cpu-started'], 5000);
      child.send({ type: 'cpu-start' });
      return started;
    }),
  );
  const loadBase = process.cpuUsage();
  const busy0 = machineBusyMs();
  const wall0 = performance.now();

  const results = await Promise.all(targets.map(({ port }) => runAutocannon(optionsFor(port), o.duration)));

  const wallMs = performance.now() - wall0;
  const loadCpu = process.cpuUsage(loadBase);
  const busy1 = machineBusyMs();
  const cpus = await Promise.all(
    targets.map(({ child }) => {
      const cpuMsg = child.waitFor(['cpu'], 5000);
      child.send({ type: 'cpu-stop' });
      return cpuMsg;
    }),
  );

  const loadUs = loadCpu.user + loadCpu.system;
  const serversUs = cpus.reduce((sum, cpu) => sum + cpu.userUs + cpu.systemUs, 0);
  const otherCpuShare =
    busy0 === null || busy1 === null ? NaN : Math.max(0, busy1 - busy0 - serversUs / 1000 - loadUs / 1000) / wallMs;
  return results.map((result, i) => {
    const cpu = cpus[i]!;
    const total = result.requests.total;
    const cpuUs = cpu.userUs + cpu.systemUs;
    const durationS = result.duration > 0 ? result.duration : wallMs / 1000;
    return {
      rps: total / durationS,
      totalRequests: total,
      durationS,
      latencyP50Ms: result.latency.p50,
      latencyP99Ms: result.latency.p99,
      cpuUsPerReq: total > 0 ? cpuUs / total : NaN,
      serverCpuShare: cpuUs / 1000 / cpu.wallMs,
      loadCpuShare: loadUs / 1000 / wallMs,
      otherCpuShare,
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
    };
  });
}
