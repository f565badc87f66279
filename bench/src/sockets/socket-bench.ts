/**
 * The socket scenarios of `npm run bench` (`--only echo,broadcast`): Tern's `app.ws` against raw
 * `ws` and @fastify/websocket, each server in its own child process (pinned like the HTTP
 * servers), the clients here.
 *
 * - echo: 50 clients each keep one 100-byte text frame in flight for the round; judged by the
 *   server's CPU time per message (Tern ≤ 1.10× raw ws, ≤ 1.0× @fastify/websocket).
 * - broadcast: 1,000 sockets in one room; one of them sends a frame, the server sends it to all,
 *   the next goes once all got it; judged by CPU time per broadcast (Tern ≤ 1.10× raw ws looping
 *   over its clients). Memory per idle connection (1,000 sockets) is reported beside raw ws.
 *
 * Rounds are interleaved and each ratio is the median of per-round ratios.
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import WebSocket from 'ws';
import type { SocketServerKind, Usage } from './socket-server';

export type SocketScenarioId = 'echo' | 'broadcast';

export interface SocketRunOptions {
  duration: number;
  rounds: number;
  warmup: number;
  /** The CPU the HTTP servers are pinned to (taskset's list syntax), or null. */
  serverCpu: number | string | null;
}

export interface SocketResult {
  scenario: SocketScenarioId;
  /** Median CPU microseconds per message (echo) or per broadcast, by server. */
  cpuMicros: Record<string, number>;
  /** Messages (or broadcasts) per second, median, by server. */
  rate: Record<string, number>;
  /** Judged ratios: medians of per-round Tern/other ratios, with their limits. */
  judged: Array<{ against: string; ratio: number; limit: number; pass: boolean }>;
  /** broadcast: bytes per idle connection (RSS and heap), by server. */
  idleBytes?: Record<string, { rss: number; heap: number }>;
}

const FRAME = 'x'.repeat(100);
const ECHO_CLIENTS = 50;
const ROOM_SIZE = 1000;

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
    server.child.removeAllListeners('exit');
    server.child.once('exit', () => resolve());
    server.child.kill('SIGKILL');
  });
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

/** Each client sends a frame as soon as its previous one came back; counts the echoes within the window. */
async function echoRound(server: ServerProcess, options: SocketRunOptions): Promise<{ cpu: number; rate: number }> {
  const clients = await openMany(`ws://127.0.0.1:${server.port}/echo`, ECHO_CLIENTS);
  let counting = false;
  let running = true;
  let received = 0;
  for (const ws of clients) {
    ws.on('message', () => {
      if (counting) received++;
      if (running) ws.send(FRAME);
    });
    ws.send(FRAME);
  }
  await sleep(options.warmup * 1000);
  const before = await server.usage();
  counting = true;
  const start = performance.now();
  await sleep(options.duration * 1000);
  counting = false;
  const seconds = (performance.now() - start) / 1000;
  const after = await server.usage();
  running = false;
  for (const ws of clients) ws.terminate();
  return { cpu: (after.cpuMicros - before.cpuMicrosAfterGc) / received, rate: received / seconds };
}

/** One member sends, the server sends it to the whole room; the next once every member has it. */
async function broadcastRound(server: ServerProcess, options: SocketRunOptions): Promise<{ cpu: number; rate: number; idle: { rss: number; heap: number } }> {
  const empty = await server.usage();
  const members = await openMany(`ws://127.0.0.1:${server.port}/room`, ROOM_SIZE);
  await sleep(200);
  const full = await server.usage();
  const idle = { rss: (full.rss - empty.rss) / ROOM_SIZE, heap: (full.heapUsed - empty.heapUsed) / ROOM_SIZE };
  let pending = 0;
  let done: () => void = () => undefined;
  for (const ws of members) ws.on('message', () => --pending === 0 && done());
  const broadcast = () =>
    new Promise<void>((resolve) => {
      pending = members.length;
      done = resolve;
      members[0].send(FRAME);
    });
  const until = Date.now() + options.warmup * 1000;
  while (Date.now() < until) await broadcast();
  const before = await server.usage();
  const start = performance.now();
  let count = 0;
  while (performance.now() - start < options.duration * 1000) {
    await broadcast();
    count++;
  }
  const seconds = (performance.now() - start) / 1000;
  const after = await server.usage();
  for (const ws of members) ws.terminate();
  return { cpu: (after.cpuMicros - before.cpuMicrosAfterGc) / count, rate: count / seconds, idle };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Runs one scenario: `rounds` interleaved rounds of every server, a fresh process per round. */
export async function runSocketScenario(scenario: SocketScenarioId, options: SocketRunOptions, log: (line: string) => void): Promise<SocketResult> {
  const kinds: SocketServerKind[] = scenario === 'echo' ? ['tern', 'ws', 'fastify'] : ['tern', 'ws'];
  const limits: Record<string, number> = scenario === 'echo' ? { ws: 1.1, fastify: 1.0 } : { ws: 1.1 };
  const cpu: Record<string, number[]> = {};
  const rate: Record<string, number[]> = {};
  const idle: Record<string, Array<{ rss: number; heap: number }>> = {};
  for (let round = 0; round < options.rounds; round++) {
    // Turned each round, so no server always runs first.
    const order = kinds.map((_, i) => kinds[(i + round) % kinds.length]);
    for (const kind of order) {
      const server = await startServer(kind, options.serverCpu);
      try {
        const result = scenario === 'echo' ? await echoRound(server, options) : await broadcastRound(server, options);
        (cpu[kind] ??= []).push(result.cpu);
        (rate[kind] ??= []).push(result.rate);
        if ('idle' in result) (idle[kind] ??= []).push(result.idle as { rss: number; heap: number });
        log(`  ${scenario} round ${round + 1} ${kind}: ${result.cpu.toFixed(2)} µs CPU per ${scenario === 'echo' ? 'message' : 'broadcast'}, ${Math.round(result.rate)}/s`);
      } finally {
        await stop(server);
      }
    }
  }
  const judged = Object.entries(limits).map(([against, limit]) => {
    const ratio = median(cpu.tern.map((value, i) => value / cpu[against][i]));
    return { against, ratio, limit, pass: ratio <= limit };
  });
  return {
    scenario,
    cpuMicros: Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, median(v)])),
    rate: Object.fromEntries(Object.entries(rate).map(([k, v]) => [k, median(v)])),
    judged,
    idleBytes:
      scenario === 'broadcast'
        ? Object.fromEntries(Object.entries(idle).map(([k, v]) => [k, { rss: median(v.map((x) => x.rss)), heap: median(v.map((x) => x.heap)) }]))
        : undefined,
  };
}

/** The report's section for the socket scenarios. */
export function socketMarkdown(results: readonly SocketResult[]): string[] {
  if (results.length === 0) return [];
  const lines = ['## WebSockets', '', 'CPU: the server process\'s CPU time (user + system) over the round divided by the messages echoed (echo) or the broadcasts delivered to every member (broadcast); medians of the rounds. Ratios: medians of per-round Tern/other ratios.', ''];
  for (const result of results) {
    lines.push(`### ${result.scenario === 'echo' ? `Echo: ${ECHO_CLIENTS} clients, 100-byte text frames` : `Broadcast: one frame to ${ROOM_SIZE} sockets in a room`}`, '');
    lines.push('| server | CPU µs per ' + (result.scenario === 'echo' ? 'message' : 'broadcast') + ' | per second |', '| --- | --- | --- |');
    for (const [kind, micros] of Object.entries(result.cpuMicros)) lines.push(`| ${kind} | ${micros.toFixed(2)} | ${Math.round(result.rate[kind])} |`);
    lines.push('');
    for (const j of result.judged) lines.push(`- Tern / ${j.against}: **${j.ratio.toFixed(3)}×** (limit ${j.limit.toFixed(2)}×) **${j.pass ? 'PASS' : 'FAIL'}**`);
    if (result.idleBytes) {
      lines.push('', '| server | RSS per idle connection | heap per idle connection |', '| --- | --- | --- |');
      for (const [kind, bytes] of Object.entries(result.idleBytes)) lines.push(`| ${kind} | ${Math.round(bytes.rss)} B | ${Math.round(bytes.heap)} B |`);
    }
    lines.push('');
  }
  return lines;
}
