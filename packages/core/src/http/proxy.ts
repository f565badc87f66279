import type { IncomingMessage } from 'node:http';
import { isIP, isIPv6 } from 'node:net';
import { TernTypeError } from '../errors';
import { onFirstUse } from './on-first-use';

/**
 * Which peers may tell Tern who the client is (`X-Forwarded-For`, `-Proto`, `-Host`, or
 * `Forwarded` with `proxyHeaders: 'forwarded'`):
 * - `false` (default): nobody; `req.ip`, `req.protocol`, `req.host` describe the connection;
 * - `true`: every hop (only when the proxy in front overwrites those headers and the app is
 *   unreachable without it);
 * - a number: that many hops in front of the app (1: the proxy connecting to it);
 * - addresses or CIDR ranges (`'10.0.0.0/8'`, `'loopback'`, `'uniquelocal'`), as a list or a
 *   comma-separated string: hops whose address is in them;
 * - a function `(address, hop) => boolean`, hop 0 being the connection's peer.
 *
 * @example
 * new TernApp({ trustProxy: ['10.0.0.0/8', 'loopback'] });
 */
export type TrustProxy = boolean | number | string | readonly string[] | ((address: string, hop: number) => boolean);

/** A compiled `TrustProxy`: is the hop at `address`, `hop` steps from the app, trusted? */
export type TrustFunction = (address: string | undefined, hop: number) => boolean;

/**
 * The one family of headers the trusted proxies speak: `'x-forwarded'` (`X-Forwarded-For`,
 * `-Proto`, `-Host`) or `'forwarded'` (RFC 7239 `Forwarded`). Never both: a proxy sets one
 * family and passes the other on from the client untouched.
 *
 * @example
 * new TernApp({ trustProxy: 'loopback', proxyHeaders: 'forwarded' });
 */
export type ProxyHeaders = 'x-forwarded' | 'forwarded';

/** What the trusted proxies say about a request; undefined where they say nothing usable. */
export interface ProxyView {
  readonly ip: string | undefined;
  readonly protocol: string | undefined;
  readonly host: string | undefined;
}

/** Checks the `proxyHeaders` option once, at construction. */
export function checkProxyHeaders(option: unknown): ProxyHeaders {
  if (option === undefined) return 'x-forwarded';
  if (option === 'x-forwarded' || option === 'forwarded') return option;
  throw new TernTypeError('TERN_INVALID_ARGUMENT', `proxyHeaders must be 'x-forwarded' or 'forwarded', got ${typeof option === 'string' ? `'${option}'` : option === null ? 'null' : `a ${typeof option}`}.`);
}

/**
 * A forwarded protocol worth believing: `http` or `https`, lower-cased. An HTTP request arrived
 * over one of them; anything else (`javascript`, `ws`) would only mislead code building URLs.
 */
export function validProtocol(value: string | undefined): string | undefined {
  const lower = value?.toLowerCase();
  return lower === 'http' || lower === 'https' ? lower : undefined;
}

/**
 * A DNS name or IPv4 address: dot-separated labels of letters, digits, `-` and `_` (each at most
 * 63 characters, no `-` at either end), an optional final dot. No percent-encoding, spaces,
 * control characters or anything else that could change a URL, a header or a log line built
 * from it. Each label starts after a dot, so the match is linear.
 */
const HOST_NAME = /^[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\.?$/;
const PORT = /^[1-9][0-9]{0,4}$/;

/**
 * A forwarded host worth believing: `host[:port]`, the host a DNS name, an IPv4 address or a
 * bracketed IPv6 address, the port 1 to 65535. Anything else (`x%0d%0aSet-Cookie:a`,
 * `evil.example:99999`, `a/b`, `user@host`) is undefined, so `req.host` falls back to `Host`.
 */
export function validHost(value: string | undefined): string | undefined {
  if (value === undefined || value.length > 261) return undefined;
  let host = value;
  let port: string | undefined;
  if (value.startsWith('[')) {
    const close = value.indexOf(']');
    if (close < 0 || !isIPv6(value.slice(1, close))) return undefined;
    const rest = value.slice(close + 1);
    if (rest !== '' && !rest.startsWith(':')) return undefined;
    host = value.slice(0, close + 1);
    port = rest === '' ? undefined : rest.slice(1);
  } else {
    const colon = value.indexOf(':');
    if (colon >= 0) {
      host = value.slice(0, colon);
      port = value.slice(colon + 1);
    }
    if (host.length > 253 || !HOST_NAME.test(host)) return undefined;
  }
  if (port !== undefined && (!PORT.test(port) || Number(port) > 65_535)) return undefined;
  return value;
}

interface ProxyAddr {
  compile(addresses: string[]): TrustFunction;
}

/**
 * How many trusted hops (the socket's peer included) a walk through `X-Forwarded-For` or
 * `Forwarded` goes past at most, so the client is at most this many hops away. Real chains have
 * a handful; a longer fully trusted chain names no client (`req.ip` undefined), so a 14 KiB
 * header of trusted hops costs 33 trust checks, not a thousand.
 */
export const MAX_PROXY_HOPS = 32;

/**
 * How much of the end of `X-Forwarded-For` is read at most: 33 entries of the longest address
 * text (45 characters, an IPv4-mapped IPv6 address) with their separators fit well within it.
 */
export const MAX_FORWARDED_FOR_BYTES = 4096;

/** proxy-addr is loaded by the first app that trusts proxies; others never pay for it. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const loadProxyAddr = onFirstUse(() => require('proxy-addr') as ProxyAddr);

/** Compiles the option once, at construction; undefined when no proxy is trusted. */
export function compileTrustProxy(option: TrustProxy | undefined): TrustFunction | undefined {
  if (option === undefined || option === false) return undefined;
  if (option === true) return () => true;
  if (typeof option === 'function') return (address, hop) => address !== undefined && option(address, hop) === true;
  if (typeof option === 'number') {
    if (!Number.isInteger(option) || option < 0) {
      throw new TernTypeError('TERN_INVALID_ARGUMENT', `trustProxy: a hop count must be a non-negative integer, got ${option}.`);
    }
    return option === 0 ? undefined : (_address, hop) => hop < option;
  }
  const list = typeof option === 'string' ? option.split(',').map((item) => item.trim()) : option;
  if (!Array.isArray(list) || list.some((item) => typeof item !== 'string')) {
    throw new TernTypeError('TERN_INVALID_ARGUMENT', 'trustProxy expects a boolean, a hop count, addresses/CIDR ranges or a function.');
  }
  try {
    return loadProxyAddr().compile([...list]);
  } catch (err) {
    throw new TernTypeError('TERN_INVALID_ARGUMENT', `trustProxy: ${(err as Error).message}.`);
  }
}

/**
 * The request as the trusted proxies describe it. Walks `X-Forwarded-For` from the app outwards
 * while each hop is trusted (proxy-addr): the first untrusted address is the client. Of
 * `X-Forwarded-Proto`/`-Host`, only the last entry counts, and only when the socket's peer is
 * trusted: that entry was written by a proxy Tern trusts, while one further left may come from
 * the client (a proxy that appends to what the client sent). As Fastify does; Express reads the
 * first entry, which a client can choose.
 */
export class ForwardedView implements ProxyView {
  /** The chain from the peer to the client, as far as it is trusted. */
  private readonly chain: Array<string | undefined>;

  constructor(
    private readonly raw: IncomingMessage,
    private readonly trust: TrustFunction,
  ) {
    this.chain = trustedChain(raw, trust);
  }

  /** The socket's peer is a trusted proxy (the chain went past it, or it sent no X-Forwarded-For). */
  private get peerTrusted(): boolean {
    return this.chain.length > 1 || this.trust(this.chain[0], 0);
  }

  /** The client's address; undefined when the entry that names it is no IP address. */
  get ip(): string | undefined {
    const address = this.chain[this.chain.length - 1];
    return address !== undefined && isIP(address) !== 0 ? address : undefined;
  }

  /** The protocol the trusted peer says the request came with; undefined when it does not say. */
  get protocol(): string | undefined {
    return validProtocol(this.entry('x-forwarded-proto'));
  }

  /** The host the trusted peer says the request was for; undefined when it does not say. */
  get host(): string | undefined {
    return validHost(this.entry('x-forwarded-host'));
  }

  private entry(name: string): string | undefined {
    const header = this.raw.headers[name];
    if (!this.peerTrusted || header === undefined) return undefined;
    const value = Array.isArray(header) ? header[header.length - 1] : header;
    return value.slice(value.lastIndexOf(',') + 1).trim() || undefined;
  }
}

/**
 * The socket's peer, then the `X-Forwarded-For` entries from right to left, as far as each is
 * trusted: the last one is the client (the first untrusted address, or the leftmost entry), as
 * proxy-addr's `all()` walks. Unlike it, the walk is bounded: it reads at most the last
 * `MAX_FORWARDED_FOR_BYTES` of the header and checks at most `MAX_PROXY_HOPS` hops; a chain still
 * trusted past either names no client (`undefined` last). An entry that is no IP address
 * (`unknown`, `<script>`) names no hop to trust: the walk ends there, and `ip` refuses to hand
 * it out, as for `Forwarded`.
 */
function trustedChain(raw: IncomingMessage, trust: TrustFunction): Array<string | undefined> {
  const chain: Array<string | undefined> = [raw.socket?.remoteAddress];
  const sent = raw.headers['x-forwarded-for'];
  if (sent === undefined || !trustedHop(trust, chain[0], 0)) return chain;
  // Node joins repeated lines with ', '; a list only comes from `inject()` or hand-built requests.
  const header = Array.isArray(sent) ? sent.join(', ') : sent;
  const cut = header.length > MAX_FORWARDED_FOR_BYTES;
  const text = cut ? header.slice(header.length - MAX_FORWARDED_FOR_BYTES) : header;
  let end = text.length;
  while (end > 0) {
    const comma = text.lastIndexOf(',', end - 1);
    // The leftmost piece of a cut header is part of an entry: no address can be read from it.
    if (comma < 0 && cut) {
      chain.push(undefined);
      return chain;
    }
    const entry = text.slice(comma + 1, end).trim();
    end = comma < 0 ? 0 : comma;
    if (entry === '') continue;
    chain.push(entry);
    if (end === 0 || !trustedHop(trust, entry, chain.length - 1)) return chain;
    if (chain.length > MAX_PROXY_HOPS) {
      chain.push(undefined);
      return chain;
    }
  }
  return chain;
}

function trustedHop(trust: TrustFunction, address: string | undefined, hop: number): boolean {
  return address !== undefined && isIP(address) !== 0 && trust(address, hop);
}
