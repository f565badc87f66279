/**
 * The chat as an operator starts it (`main.ts` from the sources, in a child process). With
 * REDIS_URL on a real Redis, a primary and two node:cluster workers: a message sent to a socket
 * on one worker reaches a socket in the same room on the other, which process-local rooms could
 * never do (each client's welcome frame names the worker serving it, so the test proves the two
 * are different workers). Without REDIS_URL, one process. The Redis half needs REDIS_TEST_URL
 * (.ci/run starts redis-server) and is skipped, with a printed reason, without it.
 *
 * Every wait is bounded generously and none is a speed check: on a 2-core machine busy with other
 * work, starting the ts-node workers alone can take tens of seconds.
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { startFromSources, waitForOutput } from '../../test-support/source-process';
import { within as waitWithin } from '../../test-support/within';
import { connect, type ClientSocket } from '../../test-support/ws-client';

const redisUrl = process.env.REDIS_TEST_URL;
/** Starting a primary and two ts-node workers on a loaded machine. */
const START_TIMEOUT_MS = 120_000;
/** Anything else that should happen promptly (a frame, a sign-in, a shutdown). */
const PATIENCE_MS = 60_000;
/** Connections tried before concluding that node:cluster does not spread them over both workers. */
const MAX_PROBES = 20;

interface Welcome {
  event: 'welcome';
  room: string;
  worker: number;
}

interface Running {
  process: ChildProcess;
  output: () => string;
  /** `ws://` and `http://` origin shared by every worker. */
  port: number;
  /** Pids of the processes that serve (the workers, or the single process). */
  servers: number[];
}

const children: ChildProcess[] = [];
const serverPids: number[] = [];

/** Starts `main.ts` and waits until `servers` processes listen (the primary's lines, or the single process's). */
async function startChat(env: Record<string, string>, servers: number): Promise<Running> {
  const chat = startFromSources(join(__dirname, 'main.ts'), { PORT: '0', HOST: '127.0.0.1', REDIS_URL: '', WORKERS: '', CHAT_SECRET: '', ...env });
  children.push(chat.child);
  return waitForOutput(chat, (output) => {
    const workers = [...output.matchAll(/worker (\d+) listening on 127\.0\.0\.1:(\d+)/g)].map((m) => ({ pid: Number(m[1]), port: Number(m[2]) }));
    serverPids.push(...workers.map((w) => w.pid).filter((pid) => !serverPids.includes(pid)));
    if (servers > 1 && workers.length >= servers) return { process: chat.child, output: chat.output, port: workers[0].port, servers: workers.map((w) => w.pid) };
    const single = /Chat on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
    if (servers === 1 && single) return { process: chat.child, output: chat.output, port: Number(single[1]), servers: [chat.child.pid as number] };
    return undefined;
  }, START_TIMEOUT_MS, `${servers} chat server process(es) listening`);
}

/** SIGTERM, then the exit code (rejects when it did not exit within PATIENCE_MS). */
async function stop(running: Running): Promise<number | null> {
  if (running.process.exitCode !== null || running.process.signalCode !== null) return running.process.exitCode;
  const exited = new Promise<number | null>((resolve) => running.process.once('exit', (code) => resolve(code)));
  running.process.kill('SIGTERM');
  return within('the exit after SIGTERM', exited);
}

// Whatever failed, no process of this file outlives it: the primaries, then any worker they left.
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const pid of serverPids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone, as it should be
    }
  }
});

/** `promise`, or a rejection saying what did not happen within PATIENCE_MS. */
const within = <T>(what: string, promise: Promise<T>): Promise<T> => waitWithin(what, promise, PATIENCE_MS);

/** The next frame of `client` equal to `expected`, skipping others (joins of other clients). */
async function frameEqualTo(client: ClientSocket, expected: unknown, what: string): Promise<void> {
  const skipped: string[] = [];
  let found = false;
  const search = (async () => {
    while (!found) {
      const frame = JSON.stringify(await client.nextJson());
      if (frame === JSON.stringify(expected)) found = true;
      else skipped.push(frame);
    }
  })();
  try {
    await within(what, search);
  } catch (err) {
    throw new Error(`${(err as Error).message}; frames before it: ${skipped.join(' ')}`);
  }
}

async function signIn(port: number, name: string): Promise<string> {
  const response = await within(`POST /sign-in for ${name}`, fetch(`http://127.0.0.1:${port}/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  }));
  expect(response.status).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

interface Member {
  name: string;
  client: ClientSocket;
  worker: number;
}

/** Opens a socket to `room` as `name`, reads the welcome frame naming its worker, and waits until it is in the room. */
async function enterRoom(port: number, room: string, name: string): Promise<Member> {
  const token = await signIn(port, name);
  const client = await within(`${name}'s socket`, connect(`ws://127.0.0.1:${port}/rooms/${room}?token=${token}`));
  const welcome = await within(`${name}'s welcome frame`, client.nextJson<Welcome>());
  expect(welcome).toMatchObject({ event: 'welcome', room });
  // The worker announces a join once it is subscribed to the room: from then on the socket hears
  // what any worker publishes there.
  await frameEqualTo(client, { event: 'joined', name }, `${name}'s own joined frame`);
  return { name, client, worker: welcome.worker };
}

describe('examples/chat with REDIS_URL: two cluster workers sharing rooms on Redis', () => {
  if (!redisUrl) {
    it.todo('runs when REDIS_TEST_URL names a Redis server (.ci/run starts one)');
    console.warn('Chat on two workers skipped: REDIS_TEST_URL is not set (.ci/run installs and starts redis-server and sets it).');
    return;
  }
  let chat: Running;
  const members: Member[] = [];

  beforeAll(async () => {
    chat = await startChat({ REDIS_URL: redisUrl, REDIS_KEY_PREFIX: `chat-test:${randomUUID()}:` }, 2);
  });
  afterAll(async () => {
    for (const member of members) member.client.ws.terminate();
    if (chat) await stop(chat);
  });

  it('starts two workers by default, and the primary serves nothing itself', () => {
    expect(chat.servers).toHaveLength(2);
    expect(chat.servers).not.toContain(chat.process.pid);
    expect(chat.output()).toContain('2 worker(s)');
  });

  it('relays a message sent on one worker to the room’s socket on the other, both ways', async () => {
    const room = `r-${randomUUID()}`;
    // node:cluster hands new connections to the workers in turn; connect until each has one.
    const onWorker = new Map<number, Member>();
    for (let probe = 0; onWorker.size < 2 && probe < MAX_PROBES; probe++) {
      const member = await enterRoom(chat.port, room, `user-${probe}`);
      members.push(member);
      if (!onWorker.has(member.worker)) onWorker.set(member.worker, member);
    }
    expect([...onWorker.keys()].sort()).toEqual([...chat.servers].sort());
    const [first, second] = [...onWorker.values()];
    expect(first.worker).not.toBe(second.worker);

    first.client.ws.send(JSON.stringify({ text: `hello from worker ${first.worker}` }));
    await frameEqualTo(second.client, { event: 'message', name: first.name, text: `hello from worker ${first.worker}` }, `the message from worker ${first.worker} on worker ${second.worker}`);
    second.client.ws.send(JSON.stringify({ text: `hello from worker ${second.worker}` }));
    await frameEqualTo(first.client, { event: 'message', name: second.name, text: `hello from worker ${second.worker}` }, `the message from worker ${second.worker} on worker ${first.worker}`);
  });

  it('closes every socket with 1001 on SIGTERM and exits 0 once both workers have', async () => {
    const open = members.filter((m) => m.client.ws.readyState === m.client.ws.OPEN);
    expect(open.length).toBeGreaterThanOrEqual(2);
    expect(await stop(chat)).toBe(0);
    for (const member of open) expect((await within(`${member.name}'s close frame`, member.client.closed)).code).toBe(1001);
  });
});

describe('examples/chat without REDIS_URL: one process', () => {
  it('serves every socket from one process, rooms in its memory', async () => {
    const chat = await startChat({}, 1);
    try {
      const room = `r-${randomUUID()}`;
      const ada = await enterRoom(chat.port, room, 'Ada');
      const bob = await enterRoom(chat.port, room, 'Bob');
      expect([ada.worker, bob.worker]).toEqual([chat.process.pid, chat.process.pid]);
      expect(chat.output()).not.toContain('worker');
      bob.client.ws.send(JSON.stringify({ text: 'hi Ada' }));
      await frameEqualTo(ada.client, { event: 'message', name: 'Bob', text: 'hi Ada' }, 'Bob’s message to Ada');
      expect(await stop(chat)).toBe(0);
      expect((await within('Ada’s close frame', ada.client.closed)).code).toBe(1001);
    } finally {
      await stop(chat);
    }
  });
});
