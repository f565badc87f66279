/**
 * What the socket scenarios (14. echo, 15. broadcast) conclude from their measurements, apart
 * from the processes and sockets that take them (socket-bench.ts), so that the verdicts can be
 * tested on made-up numbers.
 */
import { judgedRatio, median } from '../harness/stats';

export type SocketScenarioId = 'echo' | 'broadcast';

/** 14. echo: clients, each keeping one frame in flight. */
export const ECHO_CLIENTS = 50;
/** 15. broadcast: the sockets in the one room. */
export const ROOM_SIZE = 1000;

/** The judged limits of Tern's CPU per message (or broadcast) ÷ each other server's. */
export const SOCKET_LIMITS: Record<SocketScenarioId, Record<string, number>> = {
  echo: { ws: 1.1, fastify: 1.0 },
  broadcast: { ws: 1.1 },
};

/** One duel: Tern and `against` loaded at once over the same window, CPU µs per message of each. */
export interface SocketDuel {
  against: string;
  cpuMicros: Record<string, number>;
}

export interface SocketJudged {
  against: string;
  /** Median of `ratios` (the mean of the middle two of an even count, as the HTTP pairs'). */
  ratio: number;
  /** Tern ÷ `against`, one per duel, or one per interleaved round when there were no duels. */
  ratios: number[];
  from: 'duel' | 'interleaved';
  limit: number;
  pass: boolean;
}

export interface SocketResult {
  scenario: SocketScenarioId;
  /** Median CPU microseconds per message (echo) or per broadcast, by server, of the interleaved rounds. */
  cpuMicros: Record<string, number>;
  /** Messages (or broadcasts) per second, median, by server, of the interleaved rounds. */
  rate: Record<string, number>;
  /** Judged ratios: medians of the duels' Tern/other ratios, else of the interleaved rounds'. */
  judged: SocketJudged[];
  /** Every duel's figures, in the order run. */
  duels: SocketDuel[];
  /** broadcast: bytes per idle connection (RSS and heap), by server, of the interleaved rounds. */
  idleBytes?: Record<string, { rss: number; heap: number }>;
}

/**
 * Tern against each server of `limits`: the median of the duels' ratios when that pair had any
 * (both loaded at once, so the machine's drift between rounds moves both alike), else of the
 * interleaved rounds' (`interleaved[server][round]`, every server measured in every round).
 */
export function judgeSockets(limits: Record<string, number>, interleaved: Record<string, number[]>, duels: readonly SocketDuel[]): SocketJudged[] {
  return Object.entries(limits).map(([against, limit]) => {
    const fromDuels = duels.filter((d) => d.against === against).map((d) => d.cpuMicros.tern! / d.cpuMicros[against]!);
    const from = fromDuels.length > 0 ? 'duel' : 'interleaved';
    const ratios = from === 'duel' ? fromDuels : (interleaved.tern ?? []).map((value, i) => value / interleaved[against]![i]!);
    const ratio = median(ratios);
    return { against, ratio, ratios, from, limit, pass: ratio <= limit };
  });
}

/** "0.980× (4 duels, 0.95×–1.01×)": the judged ratio, what it is the median of, their spread. */
export function socketMeasured(j: SocketJudged): string {
  return judgedRatio(j.ratio, j.ratios, j.from === 'duel' ? 'duel' : 'interleaved round');
}

/** The report's section for the socket scenarios. */
export function socketMarkdown(results: readonly SocketResult[]): string[] {
  if (results.length === 0) return [];
  const lines = [
    '## WebSockets',
    '',
    "CPU: the server process's CPU time (user + system) over the round divided by the messages echoed (echo) or the broadcasts delivered to every member (broadcast); " +
      'the tables are medians of the interleaved rounds (one server at a time). Judged ratios: medians of the duels\' Tern/other ratios (both servers loaded at once on the ' +
      'server CPU, so that the machine\'s drift moves both alike), or, for a pair without duels, of the interleaved rounds\'.',
    '',
  ];
  for (const result of results) {
    lines.push(`### ${result.scenario === 'echo' ? `Echo: ${ECHO_CLIENTS} clients, 100-byte text frames` : `Broadcast: one frame to ${ROOM_SIZE} sockets in a room`}`, '');
    lines.push('| server | CPU µs per ' + (result.scenario === 'echo' ? 'message' : 'broadcast') + ' | per second |', '| --- | --- | --- |');
    for (const [kind, micros] of Object.entries(result.cpuMicros)) lines.push(`| ${kind} | ${micros.toFixed(2)} | ${Math.round(result.rate[kind]!)} |`);
    lines.push('');
    for (const j of result.judged) lines.push(`- Tern / ${j.against}: **${socketMeasured(j)}** (limit ${j.limit.toFixed(2)}×) **${j.pass ? 'PASS' : 'FAIL'}**`);
    if (result.idleBytes) {
      lines.push('', '| server | RSS per idle connection | heap per idle connection |', '| --- | --- | --- |');
      for (const [kind, bytes] of Object.entries(result.idleBytes)) lines.push(`| ${kind} | ${Math.round(bytes.rss)} B | ${Math.round(bytes.heap)} B |`);
    }
    lines.push('');
  }
  return lines;
}
