/**
 * The socket scenarios of `npm run bench` (`--only echo,broadcast`): Tern's `app.ws` against raw
 * `ws` and @fastify/websocket, each server in its own child process (pinned like the HTTP
 * servers), the clients here.
 *
 * - echo: 50 clients each keep one 100-byte text frame in flight; judged by the server's CPU
 *   time per message (Tern ≤ 1.10× raw ws, ≤ 1.0× @fastify/websocket).
 * - broadcast: 1,000 sockets in one room; one of them sends a frame, the server sends it to all,
 *   the next goes once all got it; judged by CPU time per broadcast (Tern ≤ 1.10× raw ws looping
 *   over its clients). Memory per idle connection (1,000 sockets) is reported beside raw ws.
 *
 * First interleaved rounds, one server at a time (the per-server table and the memory figures),
 * then duels: Tern and each other server loaded at once on the server CPU. The judged ratio is
 * the median of the duels' ratios (socket-report.ts), else of the rounds'.
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import WebSocket from 'ws';
import { median } from '../harness/stats';
import { ECHO_CLIENTS, ROOM_SIZE, SOCKET_LIMITS, judgeSockets, type SocketDuel, type SocketResult, type SocketScenarioId } from './socket-report';
import type { SocketServerKind, Usage } from './socket-server';

export interface SocketRunOptions {
  duration: number;
  rounds: number;
  /** Duels of each judged pair after the rounds; 0 judges the rounds. */
  pairRounds: number;
  warmup: number;
  /** The CPU the HTTP servers are pinned to (taskset's list syntax), or null. */
  serverCpu: number | string | null;
}

const FRAME = 'x'.repeat(100);

interface ServerProcess {
  child: ChildProcess;
  port: number;
  usage(): Promise<Usage>;
}

function startServer(kind: SocketServerKind, serverCpu: number | string | null): Promise<ServerProcess> {
  const child = fork(path.join(__dirname, 'socket-server.js'), [kind], { execArgv: ['--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  if (serverCpu !== null && child.pid !== undefined) {
    try {
      execFileSync('taskset', ['-a', '-p', '-c', String(serverCpu), String(child.pid)], { stdio: 'ignore' });
    } catch {
      // Unpinned: the note in the report says pinning failed for the HTTP servers too.
    }
  }
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`socket server ${kind} exited with ${code}`)));
    child.once('message', (message: { port: number }) => {
      resolve({
        child,
        port: message.port,
        usage: () =>
          new Promise((done) => {
            child.once('message', (reply: { usage: Usage }) => done(reply.usage));
            child.send('usage');
          }),
      });
    });
  });
}

function stop(server: ServerProcess): Promise<void> {
  return new Promise((resolve) => {
    if (server.child.exitCode !== null || server.child.signalCode !== null) return resolve();
    server.child.removeAllListeners('exit');
    server.child.once('exit', () => resolve());
    server.child.kill('SIGKILL');
  });
}

/** Processes of `kinds`, each listening; when one fails, the others are stopped before it throws. */
async function startServers(kinds: SocketServerKind[], serverCpu: number | string | null): Promise<ServerProcess[]> {
  const started = await Promise.allSettled(kinds.map((kind) => startServer(kind, serverCpu)));
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    await Promise.all(started.map((s) => (s.status === 'fulfilled' ? stop(s.value) : undefined)));
    throw failed.reason;
  }
  return started.map((s) => (s as PromiseFulfilledResult<ServerProcess>).value);
}

function open(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

async function openMany(url: string, count: number): Promise<WebSocket[]> {
  const sockets: WebSocket[] = [];
  // In batches: a thousand handshakes at once overflow the listen backlog.
  for (let i = 0; i < count; i += 100) sockets.push(...(await Promise.all(Array.from({ length: Math.min(100, count - i) }, () => open(url)))));
  return sockets;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One server's clients, open and idle until start(); `done` counts the messages (or broadcasts) completed. */
interface Load {
  readonly done: number;
  start(): void;
  /** Stops sending and closes the clients. */
  end(): void;
}

/** Each client sends a frame as soon as its previous one came back. */
async function echoLoad(server: ServerProcess): Promise<Load> {
  const clients = await openMany(`ws://127.0.0.1:${server.port}/echo`, ECHO_CLIENTS);
  let running = true;
  let done = 0;
  for (const ws of clients) {
    ws.on('message', () => {
      done++;
      if (running) ws.send(FRAME);
    });
  }
  return {
    get done() {
      return done;
    },
    start: () => clients.forEach((ws) => ws.send(FRAME)),
    end: () => {
      running = false;
      for (const ws of clients) ws.terminate();
    },
  };
}

/** One member sends, the server sends it to the whole room; the next once every member has it. */
async function broadcastLoad(server: ServerProcess): Promise<Load> {
  const members = await openMany(`ws://127.0.0.1:${server.port}/room`, ROOM_SIZE);
  let running = true;
  let done = 0;
  let pending = 0;
  const next = () => {
    if (!running) return;
    pending = members.length;
    members[0]!.send(FRAME);
  };
  for (const ws of members) {
    ws.on('message', () => {
      if (--pending > 0) return;
      done++;
      next();
    });
  }
  return {
    get done() {
      return done;
    },
    start: next,
    end: () => {
      running = false;
      for (const ws of members) ws.terminate();
    },
  };
}

const openLoad = (scenario: SocketScenarioId, server: ServerProcess) => (scenario === 'echo' ? echoLoad(server) : broadcastLoad(server));

/**
 * Measures every server over the same `seconds`, each loaded by its own clients: CPU µs per
 * message and messages per second of each. The window of each runs from its usage after the
 * forced collection to its usage before the next, so no server pays for the collections.
 */
async function measureWindow(servers: ServerProcess[], loads: Load[], seconds: number): Promise<Array<{ cpu: number; rate: number }>> {
  // The count is taken after the usage arrives at the start and before it is asked for at the
  // end: the messages counted are those of the CPU window, but for the few in flight.
  const opening = async (i: number) => {
    const usage = await servers[i]!.usage();
    return { usage, count: loads[i]!.done, at: performance.now() };
  };
  const closing = async (i: number) => {
    const count = loads[i]!.done;
    const at = performance.now();
    return { usage: await servers[i]!.usage(), count, at };
  };
  const before = await Promise.all(servers.map((_, i) => opening(i)));
  await sleep(seconds * 1000);
  const after = await Promise.all(servers.map((_, i) => closing(i)));
  return servers.map((_, i) => {
    const messages = after[i]!.count - before[i]!.count;
    return { cpu: (after[i]!.usage.cpuMicros - before[i]!.usage.cpuMicrosAfterGc) / messages, rate: messages / ((after[i]!.at - before[i]!.at) / 1000) };
  });
}

/** One server alone (an interleaved round); broadcast also measures its memory per idle connection. */
async function round(scenario: SocketScenarioId, server: ServerProcess, options: SocketRunOptions): Promise<{ cpu: number; rate: number; idle?: { rss: number; heap: number } }> {
  let idle: { rss: number; heap: number } | undefined;
  let load: Load;
  if (scenario === 'broadcast') {
    const empty = await server.usage();
    load = await broadcastLoad(server);
    await sleep(200);
    const full = await server.usage();
    idle = { rss: (full.rss - empty.rss) / ROOM_SIZE, heap: (full.heapUsed - empty.heapUsed) / ROOM_SIZE };
  } else {
    load = await echoLoad(server);
  }
  try {
    load.start();
    await sleep(options.warmup * 1000);
    const [result] = await measureWindow([server], [load], options.duration);
    return { ...result!, idle };
  } finally {
    load.end();
  }
}

/**
 * Two servers loaded at once, in `order` (the first one's clients open and start first), warmed
 * up together, then measured over the same window: both share the server CPU, so the machine's
 * drift moves both alike and their ratio holds still.
 */
async function duel(scenario: SocketScenarioId, servers: ServerProcess[], options: SocketRunOptions): Promise<Array<{ cpu: number; rate: number }>> {
  const loads: Load[] = [];
  try {
    for (const server of servers) loads.push(await openLoad(scenario, server));
    for (const load of loads) load.start();
    await sleep(options.warmup * 1000);
    return await measureWindow(servers, loads, options.duration);
  } finally {
    for (const load of loads) load.end();
  }
}

const line = (scenario: SocketScenarioId, label: string, kind: string, result: { cpu: number; rate: number }) =>
  `  ${scenario} ${label} ${kind}: ${result.cpu.toFixed(2)} µs CPU per ${scenario === 'echo' ? 'message' : 'broadcast'}, ${Math.round(result.rate)}/s`;

/**
 * Runs one scenario: `rounds` interleaved rounds of every server, then `pairRounds` duels of
 * Tern and each other server, a fresh process per round and per duel.
 */
export async function runSocketScenario(scenario: SocketScenarioId, options: SocketRunOptions, log: (line: string) => void): Promise<SocketResult> {
  const limits = SOCKET_LIMITS[scenario];
  const kinds: SocketServerKind[] = ['tern', ...(Object.keys(limits) as SocketServerKind[])];
  const cpu: Record<string, number[]> = {};
  const rate: Record<string, number[]> = {};
  const idle: Record<string, Array<{ rss: number; heap: number }>> = {};
  for (let r = 0; r < options.rounds; r++) {
    // Turned each round, so no server always runs first.
    const order = kinds.map((_, i) => kinds[(i + r) % kinds.length]!);
    for (const kind of order) {
      const [server] = await startServers([kind], options.serverCpu);
      try {
        const result = await round(scenario, server!, options);
        (cpu[kind] ??= []).push(result.cpu);
        (rate[kind] ??= []).push(result.rate);
        if (result.idle) (idle[kind] ??= []).push(result.idle);
        log(line(scenario, `round ${r + 1}`, kind, result));
      } finally {
        await stop(server!);
      }
    }
  }
  const duels: SocketDuel[] = [];
  for (let r = 0; r < options.pairRounds; r++) {
    for (const against of Object.keys(limits) as SocketServerKind[]) {
      // Whichever server's load starts first may gain a little: the order turns every duel.
      const order: SocketServerKind[] = r % 2 === 0 ? ['tern', against] : [against, 'tern'];
      const servers = await startServers(order, options.serverCpu);
      try {
        const results = await duel(scenario, servers, options);
        const label = `duel ${r + 1}/${options.pairRounds}`;
        results.forEach((result, i) => log(line(scenario, label, order[i]!, result)));
        const cpuMicros = Object.fromEntries(order.map((kind, i) => [kind, results[i]!.cpu]));
        duels.push({ against, cpuMicros });
        log(`  ${scenario} ${label} tern ÷ ${against}: ${(cpuMicros.tern! / cpuMicros[against]!).toFixed(3)}×`);
      } finally {
        await Promise.all(servers.map(stop));
      }
    }
  }
  return {
    scenario,
    cpuMicros: Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, median(v)])),
    rate: Object.fromEntries(Object.entries(rate).map(([k, v]) => [k, median(v)])),
    judged: judgeSockets(limits, cpu, duels),
    duels,
    idleBytes:
      scenario === 'broadcast'
        ? Object.fromEntries(Object.entries(idle).map(([k, v]) => [k, { rss: median(v.map((x) => x.rss)), heap: median(v.map((x) => x.heap)) }]))
        : undefined,
  };
}
