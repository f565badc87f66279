import { maxHeaderSize, type IncomingMessage } from 'node:http';
import { isIPv4, isIPv6 } from 'node:net';
import { MAX_PROXY_HOPS, validHost, validProtocol, type ProxyView, type TrustFunction } from './proxy';
import { onFirstUse } from './on-first-use';

/** One element of `Forwarded`: what one proxy wrote, parameter names lower-cased. */
type ForwardedElement = Readonly<Record<string, string>>;

type ParseForwarded = (header: string) => ForwardedElement[];

/** forwarded-parse is loaded by the first app that reads `Forwarded`; others never pay for it. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const loadParser = onFirstUse(() => require('forwarded-parse') as ParseForwarded);

/**
 * The elements of the header, or undefined when it does not parse. Longer than Node accepts for
 * all of a request's headers (16 KiB unless raised) only through `inject()` or a raised limit:
 * refused too, so the work stays bounded.
 */
function parseElements(header: string | string[]): ForwardedElement[] | undefined {
  const text = Array.isArray(header) ? header.join(',') : header;
  if (text.length > maxHeaderSize) return undefined;
  try {
    return loadParser()(text);
  } catch {
    return undefined;
  }
}

function param(element: ForwardedElement, name: string): string | undefined {
  return Object.hasOwn(element, name) ? element[name] : undefined;
}

/** `:port` or an obfuscated `:_port` after a node. */
const PORT = String.raw`(?::(?:\d{1,5}|_[A-Za-z0-9._-]+))?`;
const IPV4_NODE = new RegExp(String.raw`^([0-9.]+)${PORT}$`);
const IPV6_NODE = new RegExp(String.raw`^\[([0-9A-Fa-f:.]+)\]${PORT}$`);

/**
 * The address of a `for` node (`192.0.2.60`, `"192.0.2.60:4711"`, `"[2001:db8::17]:4711"`),
 * without brackets and port. Undefined for `unknown`, an obfuscated `_name`, or anything else:
 * no address to trust, nor to hand to code that parses `req.ip`.
 */
function nodeAddress(node: string | undefined): string | undefined {
  if (node === undefined) return undefined;
  const v4 = IPV4_NODE.exec(node)?.[1];
  if (v4 !== undefined) return isIPv4(v4) ? v4 : undefined;
  const v6 = IPV6_NODE.exec(node)?.[1];
  return v6 !== undefined && isIPv6(v6) ? v6 : undefined;
}

/**
 * The request as the trusted proxies describe it in RFC 7239 `Forwarded`. The addresses are the
 * socket's peer, then each element's `for` from right to left; the walk goes on while the hop
 * is trusted, and the first address that is not is the client, exactly as for
 * `X-Forwarded-For`. A node without an address (`unknown`, obfuscated, missing) ends the walk
 * with no client address. Unlike `X-Forwarded-*`, each element keeps one proxy's values
 * together: `proto` and `host` come from the element naming the client, written by the
 * outermost trusted proxy. Nothing is read unless the socket's peer is trusted, and at most
 * `MAX_PROXY_HOPS` hops are walked.
 */
export class ForwardedHeaderView implements ProxyView {
  readonly ip: string | undefined;
  /** The element written by the outermost trusted proxy; undefined when none counts. */
  private readonly element: ForwardedElement | undefined;

  constructor(raw: IncomingMessage, trust: TrustFunction) {
    const peer = raw.socket?.remoteAddress;
    const header = raw.headers.forwarded;
    if (peer === undefined || header === undefined || !trust(peer, 0) || (typeof header === 'string' && header.trim() === '')) {
      this.ip = peer;
      return;
    }
    const elements = parseElements(header);
    // A client can always break the header (an unclosed quote swallows what the proxy appends):
    // the peer is then not the client, and naming it would let anyone pose as the proxy.
    this.ip = undefined;
    if (elements === undefined) return;
    for (let i = elements.length - 1, hop = 1; i >= 0; i--, hop++) {
      // As for X-Forwarded-For: a chain still trusted past MAX_PROXY_HOPS names no client.
      if (hop > MAX_PROXY_HOPS) {
        this.element = undefined;
        this.ip = undefined;
        return;
      }
      this.element = elements[i];
      this.ip = nodeAddress(param(elements[i], 'for'));
      if (this.ip === undefined || !trust(this.ip, hop)) return;
    }
  }

  /** The protocol the outermost trusted proxy received the request with; undefined when it does not say. */
  get protocol(): string | undefined {
    return this.element && validProtocol(param(this.element, 'proto'));
  }

  /** The host the outermost trusted proxy received the request for; undefined when it does not say. */
  get host(): string | undefined {
    return this.element && validHost(param(this.element, 'host'));
  }
}
