/**
 * What Connect middleware left on Node's request and response that Tern takes over when the
 * last of a run calls `next()`: the status it set, the properties it added (`req.user`,
 * `req.session`, ...) made readable on Tern's request, and a body a Connect parser read.
 */
import { adoptParsedBody, bodyTakenByTern, declaredBodyTooLarge, type TernRequest } from '../../http/request';
import { isJsonType, mediaTypeOf } from '../../http/media-type';
import type { TernResponse } from '../../http/response';
import { appendVary } from '../vary';
import { LINK, REQUEST_ADDITIONS, type ExpressRequest } from './express-request';
import type { ExpressResponse } from './express-response';

/**
 * What a middleware left on Node's request and response that Tern must take over when it calls
 * `next()`: the status it set, the properties it added (`req.user`, `req.session`, ...) made
 * readable on Tern's request, and a body a Connect parser read. Returns the failure to answer
 * with instead (a parsed body over the route's limits).
 */
export function carryOver(req: TernRequest, res: TernResponse, raw: ExpressRequest, rawRes: ExpressResponse): unknown {
  if (rawRes.statusCode !== 200 && res.statusCode === 200 && rawRes.statusCode >= 200 && rawRes.statusCode <= 599) res.status(rawRes.statusCode);
  // New keys come last in Object.keys (insertion order); a request without Connect layers never pays this.
  const keys = Object.keys(raw);
  const link = raw[LINK];
  for (let i = link.keysSeen; i < keys.length; i++) exposeOnTern(req, raw, keys[i]);
  link.keysSeen = keys.length;
  return parsedBodyFailure(req, raw);
}

/** Adopts a body a Connect parser read (once); returns the failure to answer with instead (one over the route's limits). */
export function parsedBodyFailure(req: TernRequest, raw: ExpressRequest): unknown {
  if (raw.readableEnded && req.hasBody && !bodyTakenByTern(req) && raw.body !== undefined) return adoptBody(req, raw);
  return undefined;
}

/** Names Tern's request already has for its own purpose (`req.body` is the validated model). */
const KEPT_BY_TERN = new Set(['body', 'route', 'pathParams', ...REQUEST_ADDITIONS]);

/**
 * Names both sides use for the same thing: Connect's wins when Tern's has no value for this
 * request (`req.user` before authentication; `req.session` when Tern's own `session()` is not in
 * use), else Tern's stays.
 */
const SHARED_NAMES = new Set(['user', 'session']);

function ternValueOf(req: TernRequest, key: string): unknown {
  try {
    return (req as unknown as Record<string, unknown>)[key];
  } catch {
    // A getter of Tern's that refuses to answer (a feature not set up for this app) is no value.
    return undefined;
  }
}

/** Makes `raw[key]` readable (and writable) as `req[key]`; methods stay bound to Node's request, which they were written for. */
function exposeOnTern(req: TernRequest, raw: ExpressRequest, key: string): void {
  // `_parsedUrl`, `_passport`, `_body`: a package's own bookkeeping, not for handlers.
  if (KEPT_BY_TERN.has(key) || key.startsWith('_')) return;
  if (SHARED_NAMES.has(key) ? ternValueOf(req, key) !== undefined : key in req) return;
  // `user` is a plain field of Tern's request: it takes the value (turning it into an accessor
  // would cost every later read of the request its fast path).
  if (key === 'user') {
    req.user = raw.user;
    return;
  }
  const accessor = accessorOf(key);
  if (accessor !== undefined) Object.defineProperty(req, key, accessor);
}

const accessors = new Map<string, PropertyDescriptor>();
const MAX_EXPOSED_NAMES = 256;

/**
 * One accessor pair per name, shared by every request: V8 gives requests that gain the same
 * names in the same order one hidden class, where a fresh closure per request would give each
 * request a class of its own and make every property read on the request slow.
 */
function accessorOf(key: string): PropertyDescriptor | undefined {
  let descriptor = accessors.get(key);
  if (descriptor === undefined) {
    // Names made per request (an id as a key) would grow this table without end: they stay on req.raw.
    if (accessors.size >= MAX_EXPOSED_NAMES) return undefined;
    descriptor = {
      get(this: TernRequest) {
        const value = (this.raw as unknown as Record<string, unknown>)[key];
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(this.raw) : value;
      },
      set(this: TernRequest, value: unknown) {
        (this.raw as unknown as Record<string, unknown>)[key] = value;
      },
      configurable: true,
      enumerable: true,
    };
    accessors.set(key, descriptor);
  }
  return descriptor;
}

/** The body a Connect parser left in `req.body`, adopted by kind: JSON, a form, or bytes/text. */
function adoptBody(req: TernRequest, raw: ExpressRequest): unknown {
  const body = raw.body;
  const tooLarge = declaredBodyTooLarge(req);
  if (tooLarge !== undefined) return tooLarge;
  if (Buffer.isBuffer(body) || typeof body === 'string') return adoptParsedBody(req, body, 'bytes');
  let type: string | undefined;
  try {
    type = mediaTypeOf(raw);
  } catch (err) {
    return err;
  }
  return adoptParsedBody(req, body, type !== undefined && isJsonType(type) ? 'json' : 'form');
}

export function mergeVary(rawRes: ExpressResponse, response: TernResponse): TernResponse {
  const fromConnect = rawRes.getHeader('vary');
  if (response.getHeader('vary') === undefined || fromConnect === undefined) return response;
  for (const field of String(fromConnect).split(',')) if (field.trim() !== '') appendVary(response, field.trim());
  return response;
}
