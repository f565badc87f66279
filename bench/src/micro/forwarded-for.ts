/**
 * Micro-benchmark of a fully trusted, maximal `X-Forwarded-For` (issue 42 item 9; not a test,
 * not part of `npm run bench`): a 14 KiB header of IPv4 hops read through `req.ip` on an app
 * with `trustProxy`, per request, for each kind of trust (everyone, a CIDR list, a hop count),
 * against a one-hop header as the baseline; then the walk alone (no request around it): Tern's
 * bounded walk, and proxy-addr's `all()` as Tern called it before issue 42. Runs from the
 * TypeScript sources:
 *
 *   TS_NODE_PROJECT=tsconfig.test.json node -r ts-node/register/transpile-only bench/src/micro/forwarded-for.ts [--rounds 7] [--requests 200]
 */
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { parseArgs } from 'node:util';
import { TernApp, type TernAppOptions } from '../../../packages/core/src';
import { compileTrustProxy, ForwardedView, type TrustFunction } from '../../../packages/core/src/http/proxy';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '7' }, requests: { type: 'string', default: '200' } } });
const rounds = Number(values.rounds);
const requests = Number(values.requests);

/** `10.a.b.c, ...` (or `fd00::n`) hops up to `bytes` characters: what a trusted chain of proxies could pass on. */
function hops(bytes: number, v6: boolean): string {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < bytes; i++) {
    const hop = v6 ? `fd00::${(i & 0xffff).toString(16)}` : `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
    parts.push(hop);
    length += hop.length + 2;
  }
  return parts.join(', ');
}

async function measure(trustProxy: TernAppOptions['trustProxy'], header: string): Promise<number> {
  const app = new TernApp({ trustProxy, logger: false, openapi: { openapiPath: false } });
  app.get('/ip', async (req) => ({ ip: req.ip }));
  await app.ready();
  const send = () => app.inject({ url: '/ip', remoteAddress: '10.0.0.1', headers: { 'x-forwarded-for': header } });
  for (let i = 0; i < 20; i++) await send();
  const medians: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < requests; i++) await send();
    medians.push(Number(process.hrtime.bigint() - started) / 1e6 / requests);
  }
  medians.sort((a, b) => a - b);
  return medians[Math.floor(medians.length / 2)];
}

/** Median µs of `walk()` over rounds of 200 calls. */
function time(walk: () => unknown): number {
  for (let i = 0; i < 50; i++) walk();
  const medians: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < 200; i++) walk();
    medians.push(Number(process.hrtime.bigint() - started) / 1e3 / 200);
  }
  medians.sort((a, b) => a - b);
  return medians[Math.floor(medians.length / 2)];
}

function walks(trustProxy: TernAppOptions['trustProxy'], header: string): { bounded: number; unbounded: number } {
  const trust = compileTrustProxy(trustProxy) as TrustFunction;
  const raw = { headers: { 'x-forwarded-for': header }, socket: { remoteAddress: '10.0.0.1' }, connection: { remoteAddress: '10.0.0.1' } } as unknown as IncomingMessage;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const proxyAddr = require('proxy-addr') as { all(req: IncomingMessage, trust: TrustFunction): Array<string | undefined> };
  return {
    bounded: time(() => new ForwardedView(raw, trust).ip),
    unbounded: time(() => proxyAddr.all(raw, (address, hop) => address !== undefined && isIP(address) !== 0 && trust(address, hop))),
  };
}

async function main(): Promise<void> {
  console.log(`median ms per request (app.inject, one route answering req.ip) over ${rounds} rounds of ${requests}`);
  const trusts: Array<[string, TernAppOptions['trustProxy'], boolean]> = [
    ['true, IPv4 hops', true, false],
    ["'10.0.0.0/8', IPv4 hops", '10.0.0.0/8', false],
    ["'fd00::/8, 10.0.0.0/8', IPv6", 'fd00::/8, 10.0.0.0/8', true],
    ['10000 hops, IPv4 hops', 10_000, false],
  ];
  for (const [name, trust, v6] of trusts) {
    const long = hops(14 * 1024, v6);
    const short = await measure(trust, v6 ? 'fd00::1' : '198.51.100.7');
    const full = await measure(trust, long);
    console.log(`trustProxy ${name.padEnd(30)} one hop ${short.toFixed(3)} ms   14 KiB (${long.split(',').length} hops) ${full.toFixed(3)} ms`);
  }
  console.log('the walk alone, median µs per request, 14 KiB header: bounded (now) / proxy-addr all() (before)');
  for (const [name, trust, v6] of trusts) {
    const { bounded, unbounded } = walks(trust, hops(14 * 1024, v6));
    console.log(`trustProxy ${name.padEnd(30)} ${bounded.toFixed(1)} µs / ${unbounded.toFixed(1)} µs`);
  }
}

void main();
