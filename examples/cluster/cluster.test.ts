/**
 * The cluster example as an operator sees it: a real primary with two workers on a loopback
 * port, run from the TypeScript sources in a child process. SIGTERM must drain (every accepted
 * request answered in full, readiness 503 first, then refused connections, no process left);
 * a worker killed outright must be replaced.
 */
import type { ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ROOT_DIR, startFromSources } from '../../test-support/source-process';
import { within } from '../../test-support/within';
import { restartDelay } from './primary';
import { readSettings } from './settings';


/** Long enough to start two ts-node workers on a 2-core machine busy with other work (about 3 s when idle). */
const START_TIMEOUT_MS = 90_000;
const DRAIN_DELAY_MS = 1_000;
/** Longer than the drain delay, so these requests are still running when the servers close. */
// Long enough that, even on a loaded machine, slow requests are still in flight when the port refuses.
const SLOW_MS = 10_000;
/** Workers wait for their slow requests whatever the machine's speed. */
const CLOSE_TIMEOUT_MS = 60_000;
/** How long anything that should happen promptly may take on a busy machine before the test gives up. */
const PATIENCE_MS = 60_000;

type Outcome =
  | { kind: 'answered'; status: number; headers: Record<string, string | string[] | undefined>; body: string }
  | { kind: 'refused' }
  | { kind: 'dropped'; code: string };

/** One GET on a new connection (or the agent's); a response cut short rejects. */
function get(port: number, path: string, agent: Agent | false = false): { connected: Promise<void>; outcome: Promise<Outcome> } {
  let onConnect!: () => void;
  const connected = new Promise<void>((resolve) => (onConnect = resolve));
  const outcome = new Promise<Outcome>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString();
        if (!res.complete || Buffer.byteLength(body) !== Number(res.headers['content-length'])) {
          reject(new Error(`incomplete answer to ${path}: ${body}`));
          return;
        }
        resolve({ kind: 'answered', status: res.statusCode ?? 0, headers: res.headers, body });
      });
    });
    req.setTimeout(PATIENCE_MS, () => req.destroy(new Error(`no answer to ${path} within ${PATIENCE_MS} ms`)));
    req.on('socket', (socket) => (socket.connecting ? socket.once('connect', onConnect) : onConnect()));
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNREFUSED') resolve({ kind: 'refused' });
      // Only a connection that never got a byte back may end like this (the kernel accepted it
      // while the listening socket was closing); a partial answer is caught above.
      else if (err.code === 'ECONNRESET' || err.message === 'socket hang up') resolve({ kind: 'dropped', code: err.code ?? err.message });
      else reject(err);
    });
    req.end();
  });
  return { connected, outcome };
}

async function answer(port: number, path: string): Promise<Extract<Outcome, { kind: 'answered' }>> {
  const outcome = await get(port, path).outcome;
  if (outcome.kind !== 'answered') throw new Error(`GET ${path}: ${JSON.stringify(outcome)}`);
  return outcome;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw err;
  }
}

async function until<T>(what: string | (() => string), timeoutMs: number, attempt: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await attempt();
    if (value !== undefined) return value;
    await sleep(20);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()}`);
}

/**
 * Opens a new connection to `path` every 20 ms until one is refused, and returns what
 * `atRefusal()` says at that moment with the probes that had settled, in the order they were
 * sent. Probes do not wait for each other: a connection the primary accepts just as the last
 * worker stops accepting can sit in node:cluster's hand-off until the primary exits, and a
 * probe loop stuck on it would only see the refusal once the slow requests had ended.
 */
async function probeUntilRefused<T>(port: number, path: string, timeoutMs: number, atRefusal: () => T): Promise<{ settled: Outcome[]; atRefusal: T }> {
  const outcomes: Array<Outcome | undefined> = [];
  const deadline = Date.now() + timeoutMs;
  let refused: T | undefined;
  let failure: unknown;
  while (refused === undefined && failure === undefined) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for connections refused`);
    const index = outcomes.push(undefined) - 1;
    get(port, path).outcome.then(
      (outcome) => {
        outcomes[index] = outcome;
        if (outcome.kind === 'refused' && refused === undefined) refused = atRefusal();
      },
      (err: unknown) => (failure ??= err),
    );
    await sleep(20);
  }
  if (failure !== undefined) throw failure;
  return { settled: outcomes.filter((o): o is Outcome => o !== undefined), atRefusal: refused as T };
}

interface RunningCluster {
  primary: ChildProcess;
  port: number;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const started: RunningCluster[] = [];
const workerPids = new Set<number>();

async function startCluster(env: Record<string, string> = {}): Promise<RunningCluster> {
  const { child: primary, output } = startFromSources(join(__dirname, 'main.ts'), { WORKERS: '2', PORT: '0', HOST: '127.0.0.1', ...env });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    primary.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const cluster: RunningCluster = { primary, port: 0, output, exited };
  started.push(cluster);

  const ports = await until(() => `two workers listening; the cluster said:\n${output()}`, START_TIMEOUT_MS, async () => {
    if (primary.exitCode !== null) throw new Error(`the cluster exited at startup:\n${output()}`);
    const listening = [...output().matchAll(/worker \d+ listening on 127\.0\.0\.1:(\d+)/g)].map((m) => Number(m[1]));
    return listening.length >= 2 ? listening : undefined;
  });
  expect(new Set(ports).size).toBe(1);
  cluster.port = ports[0];
  return cluster;
}

/** Asks until `count` different worker pids have answered `/`. */
async function answeringPids(port: number, count: number, excluding: number[] = []): Promise<number[]> {
  const pids = new Set<number>();
  // A replacement worker starts from sources too: as slow as the first ones on a busy machine.
  return until(`${count} new worker(s) answering`, START_TIMEOUT_MS, async () => {
    const { pid } = JSON.parse((await answer(port, '/')).body) as { pid: number };
    if (!excluding.includes(pid)) pids.add(pid);
    workerPids.add(pid);
    return pids.size >= count ? [...pids] : undefined;
  });
}

function exitOf(cluster: RunningCluster): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return within(() => `the primary's exit; it said:\n${cluster.output()}`, cluster.exited, PATIENCE_MS);
}

describe('cluster example', () => {
  // One cluster for the whole story, in order: both workers serve, one is killed and replaced,
  // then SIGTERM drains them all. Starting workers from sources is the slow part.
  let cluster: RunningCluster;
  let workers: number[] = [];

  beforeAll(async () => {
    cluster = await startCluster({ DRAIN_DELAY_MS: String(DRAIN_DELAY_MS), CLOSE_TIMEOUT_MS: String(CLOSE_TIMEOUT_MS) });
  });

  afterAll(() => {
    // A failed test must not leave processes behind.
    for (const { primary } of started.splice(0)) if (primary.exitCode === null && primary.signalCode === null) primary.kill('SIGKILL');
    for (const pid of workerPids) if (alive(pid)) process.kill(pid, 'SIGKILL');
  });

  it('spreads new connections over both workers, which share one port', async () => {
    workers = await answeringPids(cluster.port, 2);
    expect(workers).not.toContain(cluster.primary.pid);
    expect(await answer(cluster.port, '/healthz')).toMatchObject({ status: 200, body: '{"status":"ok"}' });
    expect(await answer(cluster.port, '/readyz')).toMatchObject({ status: 200, body: '{"status":"ready"}' });
  });

  it('forks a replacement for a worker killed outright, which then answers', async () => {
    const [victim, survivor] = workers;
    process.kill(victim, 'SIGKILL');
    // Until the primary has seen the death, node:cluster may still hand a connection to the
    // dead worker, where it hangs: a balancer in front retries, this test waits.
    await until('the primary to see the death', PATIENCE_MS, async () =>
      new RegExp(`worker ${victim} died \\(SIGKILL\\); restarting in \\d+ ms`).test(cluster.output()) || undefined,
    );
    const [replacement] = await answeringPids(cluster.port, 1, [victim, survivor]);

    expect(alive(victim)).toBe(false);
    workers = [survivor, replacement];
  });

  it('drains on SIGTERM: readiness 503 first, accepted requests answered in full, then refused, no process left', async () => {
    const { port, primary } = cluster;
    expect(await answeringPids(port, 2)).toEqual(expect.arrayContaining(workers));

    // Slow requests on keep-alive connections, accepted before the signal.
    const keepAlive = new Agent({ keepAlive: true });
    const slow = Array.from({ length: 6 }, () => get(port, `/slow?ms=${SLOW_MS}`, keepAlive));
    await Promise.all(slow.map((s) => s.connected));
    const slowDone = new Set<number>();
    slow.forEach((s, i) => void s.outcome.then(() => slowDone.add(i), () => slowDone.add(i)));

    primary.kill('SIGTERM');

    // New connections during the drain: readiness must say 503 before the port refuses.
    const { settled: readiness, atRefusal: slowPendingWhenRefused } = await probeUntilRefused(port, '/readyz', PATIENCE_MS, () =>
      slow.map((_, i) => i).filter((i) => !slowDone.has(i)),
    );
    const statuses = readiness.flatMap((o) => (o.kind === 'answered' ? [o.status] : []));
    expect(statuses).toContain(503);
    const sinceClosing = statuses.slice(statuses.indexOf(503));
    expect(sinceClosing).toEqual(sinceClosing.map(() => 503));

    // Every accepted request got its whole answer; those still running when the servers closed
    // were told to close their keep-alive connection.
    const answers = await Promise.all(slow.map((s) => s.outcome));
    expect(answers.map((o) => [o.kind, o.kind === 'answered' && o.status, o.kind === 'answered' && JSON.parse(o.body).waitedMs])).toEqual(
      answers.map(() => ['answered', 200, SLOW_MS]),
    );
    expect(slowPendingWhenRefused.length).toBeGreaterThan(0);
    for (const i of slowPendingWhenRefused) expect(answers[i]).toMatchObject({ headers: { connection: 'close' } });
    keepAlive.destroy();

    expect(await exitOf(cluster)).toEqual({ code: 0, signal: null });
    expect(await get(port, '/').outcome).toEqual({ kind: 'refused' });
    for (const pid of [primary.pid ?? 0, ...workers]) expect([pid, alive(pid)]).toEqual([pid, false]);
  });
});

describe('cluster supervision rules', () => {
  it('waits longer before each restart while workers keep crashing, up to a ceiling', () => {
    expect([1, 2, 3, 4].map((n) => restartDelay(n))).toEqual([100, 200, 400, 800]);
    expect(restartDelay(50)).toBe(10_000);
    expect(restartDelay(3, { baseMs: 10, maxMs: 25 })).toBe(25);
  });

  it('forks one worker per CPU unless WORKERS says otherwise, and rejects a malformed setting', () => {
    expect(readSettings({}, 8).workers).toBe(8);
    expect(readSettings({ WORKERS: '2' }, 8).workers).toBe(2);
    expect(readSettings({ DRAIN_DELAY_MS: '500', CLOSE_TIMEOUT_MS: '1000' }).shutdownTimeoutMs).toBe(3_500);
    expect(() => readSettings({ WORKERS: '0' })).toThrow('WORKERS must be at least 1.');
    expect(() => readSettings({ PORT: 'eighty' })).toThrow("PORT must be a non-negative integer, got 'eighty'.");
  });
});

describe('cluster image', () => {
  /** The Dockerfile's instructions, without comments and blank lines. */
  const instructions = (text: string) => text.split('\n').filter((line) => line.trim() !== '' && !/^\s*#(?! syntax=)/.test(line));

  it('is the one docs/deployment.md shows', () => {
    const doc = readFileSync(join(ROOT_DIR, 'docs/deployment.md'), 'utf8');
    const shown = /```dockerfile\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';
    expect(instructions(shown)).toEqual(instructions(readFileSync(join(__dirname, 'Dockerfile'), 'utf8')));
  });
});
