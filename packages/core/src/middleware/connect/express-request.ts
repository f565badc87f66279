/**
 * The Express additions to Node's request that Connect middleware reads, each answered from
 * Tern's own view of the request, from one shared table. docs/express-middleware.md lists them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQueryString } from 'node:querystring';
import { TernIncomingMessage } from '../../http/node-messages';
import { onFirstUse } from '../../http/on-first-use';
import { TernRequest } from '../../http/request';

/** Where a decorated Node request keeps its link to Tern's view of it. */
export const LINK = Symbol('ternLink');
const QUERY = Symbol('query');

/** What the additions read, one object per request (one property on Node's request, not one each). */
export interface RequestLink {
  /** The Tern request: the source of truth for path, query, address and parameters. */
  req: TernRequest;
  /** The response Express would give the request as `req.res`. */
  rawRes: ServerResponse;
  /** The URL as received, which Express keeps as `req.originalUrl`. */
  originalUrl: string;
  /** How many own keys Node's request had when Tern last looked: keys past it are what Connect middleware added. */
  keysSeen: number;
}

/** A Node request with the Express additions (the names Connect middleware reads). */
export interface ExpressRequest extends IncomingMessage {
  [LINK]: RequestLink;
  [QUERY]?: Record<string, string | string[]>;
  originalUrl: string;
  res?: ServerResponse;
  body?: unknown;
  user?: unknown;
}

/**
 * An addition Express sets as a plain value, which middleware may assign (`req.baseUrl`,
 * `req.originalUrl = req.originalUrl || req.url`): read through `value` until then, and an own
 * value from the first assignment on, as Express's own property would be.
 */
function assignable(name: string, value: (req: ExpressRequest) => unknown): PropertyDescriptor {
  return {
    get(this: ExpressRequest) {
      return value(this);
    },
    set(this: ExpressRequest, assigned: unknown) {
      Object.defineProperty(this, name, { value: assigned, writable: true, enumerable: true, configurable: true });
    },
    configurable: true,
  };
}

function readOnly(value: (req: ExpressRequest) => unknown): PropertyDescriptor {
  return {
    get(this: ExpressRequest) {
      return value(this);
    },
    configurable: true,
  };
}

/**
 * The additions, each read from Tern's request when asked (so `req.ip` follows the app's
 * `trustProxy`) and costing nothing until then. `installExpressAdditions` puts them on the
 * prototype of the requests Tern's own server creates; a request from elsewhere (`inject()`,
 * `app.handler` on a server of the user's) gets them defined on itself.
 */
const additions: PropertyDescriptorMap = {
  get: { value: header, writable: true, configurable: true },
  header: { value: header, writable: true, configurable: true },
  query: {
    get(this: ExpressRequest) {
      // Express 5's default ("simple") parser is node:querystring: a repeated name gives a list.
      return (this[QUERY] ??= parseQueryString(this[LINK].req.search) as Record<string, string | string[]>);
    },
    set(this: ExpressRequest, value: Record<string, string | string[]>) {
      this[QUERY] = value;
    },
    configurable: true,
  },
  originalUrl: assignable('originalUrl', (req) => req[LINK].originalUrl),
  baseUrl: assignable('baseUrl', () => ''),
  path: assignable('path', (req) => req[LINK].req.path),
  params: assignable('params', (req) => req[LINK].req.pathParams),
  res: assignable('res', (req) => req[LINK].rawRes),
  xhr: readOnly((req) => String(req.headers['x-requested-with'] ?? '').toLowerCase() === 'xmlhttprequest'),
  ip: readOnly((req) => req[LINK].req.ip),
  protocol: readOnly((req) => req[LINK].req.protocol),
  secure: readOnly((req) => req[LINK].req.protocol === 'https'),
  hostname: readOnly((req) => {
    const host = req[LINK].req.host;
    if (host === undefined) return undefined;
    // An IPv6 literal keeps its brackets; only a trailing `:port` goes.
    const end = host.startsWith('[') ? host.indexOf(']') + 1 : host.indexOf(':');
    return end > 0 ? host.slice(0, end) : host;
  }),
  app: readOnly((req) => (Object.getPrototypeOf(req[LINK].req) === TernRequest.prototype ? UNTRUSTING_APP : TRUSTING_APP)),
};

/** The names of the additions: Tern's request keeps its own meaning for each. */
export const REQUEST_ADDITIONS: ReadonlySet<string> = new Set(Object.keys(additions));

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

/** Puts the additions on the prototype of the requests Tern's own server creates: once, the first time `fromConnect` is called. */
export const installExpressAdditions = onFirstUse(() => Object.defineProperties(TernIncomingMessage.prototype, additions));

/**
 * Links Tern's Node request (once per request) to the Tern request, which stays the source of
 * truth for path, query, address and parameters, and to the response Express would give it.
 */
export function expressRequest(req: TernRequest, rawRes: ServerResponse): ExpressRequest {
  const raw = req.raw as ExpressRequest;
  if (raw[LINK]?.req === req) return raw;
  const assigned = Object.getOwnPropertyDescriptor(raw, 'originalUrl')?.value as string | undefined;
  if (!(raw instanceof TernIncomingMessage)) Object.defineProperties(raw, additions);
  // A mounting app may have recorded the URL as received already.
  raw[LINK] = { req, rawRes, originalUrl: assigned ?? raw.url ?? '/', keysSeen: 0 };
  raw[LINK].keysSeen = Object.keys(raw).length;
  return raw;
}
