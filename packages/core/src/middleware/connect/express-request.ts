/**
 * The Express additions to Node's request that Connect middleware reads, each answered from
 * Tern's own view of the request (so `req.ip` follows the app's `trustProxy`): getters and
 * methods defined on the request from one shared table. docs/express-middleware.md lists them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQueryString } from 'node:querystring';
import { TernRequest } from '../../http/request';

/** Where a decorated Node request keeps the Tern request it belongs to. */
export const OWNER_REQUEST = Symbol('ternRequest');
const QUERY = Symbol('query');
/** How many own keys Node's request had when a layer last looked: keys past it are what Connect middleware added. */
export const KEYS_SEEN = Symbol('keysSeen');

/** A Node request with the Express additions (the names Connect middleware reads). */
export interface ExpressRequest extends IncomingMessage {
  [OWNER_REQUEST]: TernRequest;
  [QUERY]?: Record<string, string | string[]>;
  [KEYS_SEEN]: number;
  originalUrl: string;
  res?: ServerResponse;
  body?: unknown;
  user?: unknown;
}

/**
 * The additions that must be read lazily (they cost something, or follow Tern's proxy settings),
 * as getters; `this` is the decorated Node request. The others are set as plain values in
 * `expressRequest`, which V8 handles far faster than defined properties.
 */
const additions: PropertyDescriptorMap & ThisType<ExpressRequest> = {
  query: {
    get(this: ExpressRequest) {
      // Express 5's default ("simple") parser is node:querystring: a repeated name gives a list.
      return (this[QUERY] ??= parseQueryString(this[OWNER_REQUEST].search) as Record<string, string | string[]>);
    },
    set(this: ExpressRequest, value: Record<string, string | string[]>) {
      this[QUERY] = value;
    },
    configurable: true,
  },
  ip: {
    get(this: ExpressRequest) {
      return this[OWNER_REQUEST].ip;
    },
    configurable: true,
  },
  protocol: {
    get(this: ExpressRequest) {
      return this[OWNER_REQUEST].protocol;
    },
    configurable: true,
  },
  secure: {
    get(this: ExpressRequest) {
      return this[OWNER_REQUEST].protocol === 'https';
    },
    configurable: true,
  },
  hostname: {
    get(this: ExpressRequest) {
      const host = this[OWNER_REQUEST].host;
      if (host === undefined) return undefined;
      // An IPv6 literal keeps its brackets; only a trailing `:port` goes.
      const end = host.startsWith('[') ? host.indexOf(']') + 1 : host.indexOf(':');
      return end > 0 ? host.slice(0, end) : host;
    },
    configurable: true,
  },
  app: {
    get(this: ExpressRequest) {
      return Object.getPrototypeOf(this[OWNER_REQUEST]) === TernRequest.prototype ? UNTRUSTING_APP : TRUSTING_APP;
    },
    configurable: true,
  },
};

/**
 * `req.app`, a stand-in for the Express application, for the one thing packages ask it:
 * `get('trust proxy')` (express-rate-limit checks it against `X-Forwarded-For`). It reports
 * Tern's `trustProxy`: `false` when off, a description when on (never `true`, which would claim
 * every proxy is trusted). Every other setting is undefined.
 */
const UNTRUSTING_APP = Object.freeze({ get: (setting: string): unknown => (setting === 'trust proxy' ? false : undefined) });
const TRUSTING_APP = Object.freeze({ get: (setting: string): unknown => (setting === 'trust proxy' ? "Tern's trustProxy" : undefined) });

function header(this: ExpressRequest, name: string): string | string[] | undefined {
  if (typeof name !== 'string') throw new TypeError('req.get(name): name must be a string');
  const lower = name.toLowerCase();
  if (lower === 'referer' || lower === 'referrer') return this.headers.referrer ?? this.headers.referer;
  return this.headers[lower];
}

/**
 * Decorates Tern's Node request (once per request) with the Express additions and links it to
 * the Tern request, which stays the source of truth for path, query, address and parameters.
 * The additions are defined on the request itself from one shared descriptor table: V8 then
 * gives every decorated request the same hidden class. Swapping the prototype, as Express
 * does, measured 3× the CPU per request (every property read in Node's HTTP code goes slow).
 */
export function expressRequest(req: TernRequest, rawRes: ServerResponse): ExpressRequest {
  const raw = req.raw as ExpressRequest;
  if (raw[OWNER_REQUEST] === req) return raw;
  raw[OWNER_REQUEST] = req;
  Object.defineProperties(raw, additions);
  const plain = raw as unknown as Record<string, unknown>;
  plain.get = header;
  plain.header = header;
  plain.baseUrl = '';
  plain.path = req.path;
  plain.params = req.pathParams;
  plain.xhr = String(raw.headers['x-requested-with'] ?? '').toLowerCase() === 'xmlhttprequest';
  // What Express sets once per request: the URL as received, and the response it answers with.
  raw.originalUrl ??= raw.url ?? '/';
  raw.res = rawRes;
  raw[KEYS_SEEN] = Object.keys(raw).length;
  return raw;
}
