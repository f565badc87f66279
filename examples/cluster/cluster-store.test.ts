/**
 * The cluster example with its store, as an operator runs it: a real primary and two workers.
 * On one real Redis (REDIS_URL) the workers enforce one combined rate limit and keep one session
 * per visitor, whichever worker a connection lands on; on memoryStore() the primary warns that
 * they cannot. The Redis half needs REDIS_TEST_URL (.ci/run starts redis-server) and is skipped,
 * with a printed reason, without it.
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startFromSources, waitForOutput } from '../../test-support/source-process';

jest.setTimeout(90_000);

/** Two ts-node workers on a 2-core machine shared with other work can take a while. */
const START_TIMEOUT_MS = 45_000;
const redisUrl = process.env.REDIS_TEST_URL;

interface Answer {
  status: number;
  body: { pid?: number; visits?: number };
  setCookie?: string;
}

/** One request on a new connection (so node:cluster hands it to the next worker in turn). */
function send(port: number, method: string, path: string, cookie?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, agent: false, headers: cookie ? { cookie } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const setCookie = res.headers['set-cookie']?.find((c) => c.startsWith('tern_session='));
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString() || '{}'), setCookie: setCookie?.split(';')[0] });
      });
      res.on('error', reject);
    });
    req.setTimeout(10_000, () => req.destroy(new Error(`no answer to ${path} within 10 s`)));
    req.on('error', reject);
    req.end();
  });
}

interface RunningCluster {
  primary: ChildProcess;
  port: number;
  output: () => string;
}

const started: ChildProcess[] = [];

async function startCluster(env: Record<string, string>): Promise<RunningCluster> {
  const cluster = startFromSources(join(__dirname, 'main.ts'), { WORKERS: '2', PORT: '0', HOST: '127.0.0.1', REDIS_URL: '', ...env });
  started.push(cluster.child);
  const ports = await waitForOutput(cluster, (output) => {
    const listening = [...output.matchAll(/worker \d+ listening on 127\.0\.0\.1:(\d+)/g)].map((m) => Number(m[1]));
    return listening.length >= 2 ? listening : undefined;
  }, START_TIMEOUT_MS, 'two workers listening');
  return { primary: cluster.child, port: ports[0], output: cluster.output };
}

/** SIGTERM, then waits for the primary (and so its workers) to exit. */
async function stop(cluster: RunningCluster): Promise<void> {
  const exited = new Promise((resolve) => cluster.primary.once('exit', resolve));
  cluster.primary.kill('SIGTERM');
  await Promise.race([exited, sleep(15_000)]);
}

afterAll(() => {
  for (const primary of started) if (primary.exitCode === null && primary.signalCode === null) primary.kill('SIGKILL');
});

describe('cluster example on one Redis', () => {
  if (!redisUrl) {
    it.todo('runs when REDIS_TEST_URL names a Redis server (.ci/run starts one)');
    console.warn('Cluster on Redis skipped: REDIS_TEST_URL is not set (.ci/run installs and starts redis-server and sets it).');
    return;
  }
  let cluster: RunningCluster;
  beforeAll(async () => {
    cluster = await startCluster({ REDIS_URL: redisUrl, REDIS_KEY_PREFIX: `cluster-test:${randomUUID()}:`, RATE_LIMIT: '6' });
  });
  afterAll(() => stop(cluster));

  it('enforces one combined rate limit across both workers', async () => {
    const answers: Answer[] = [];
    for (let i = 0; i < 12; i++) answers.push(await send(cluster.port, 'GET', '/limited'));
    const pids = new Set(answers.map((a) => a.body.pid).filter((pid) => pid !== undefined));
    const served = answers.filter((a) => a.status === 200);
    // Both workers answered, yet only six requests in all got through: the count is shared.
    expect(pids.size).toBe(2);
    expect(served).toHaveLength(6);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(6);
    expect(answers.slice(0, 6).every((a) => a.status === 200)).toBe(true);
  });

  it('keeps one session per visitor across both workers', async () => {
    const first = await send(cluster.port, 'POST', '/visits');
    expect(first.body.visits).toBe(1);
    const cookie = first.setCookie;
    expect(cookie).toBeDefined();
    const pids = new Set([first.body.pid]);
    const visits = [1];
    for (let i = 0; i < 5; i++) {
      const answer = await send(cluster.port, 'POST', '/visits', cookie);
      visits.push(answer.body.visits as number);
      pids.add(answer.body.pid);
    }
    expect(visits).toEqual([1, 2, 3, 4, 5, 6]);
    expect(pids.size).toBe(2);
  });

  it('does not warn about memoryStore', () => {
    expect(cluster.output()).not.toContain('memoryStore()');
  });
});

describe('cluster example on memoryStore()', () => {
  it('has the primary warn once that two workers keep their own rate limits and sessions', async () => {
    const cluster = await startCluster({});
    try {
      const deadline = Date.now() + 10_000;
      while (!cluster.output().includes('memoryStore()') && Date.now() < deadline) await sleep(50);
      const warnings = cluster.output().split('\n').filter((line) => line.includes('memoryStore()'));
      expect(warnings).toEqual([
        'warning: 2 workers, but rateLimit on 1 route(s) and session() use memoryStore(): each worker keeps its own counts and sessions. ' +
          'Give the app a shared store: new TernApp({ store: redisStore({ url: process.env.REDIS_URL }) }) (docs/store.md).',
      ]);
    } finally {
      await stop(cluster);
    }
  });
});
