/**
 * The Express additions to Node's response that Connect middleware calls, from one shared table
 * (see express-request.ts for where they are defined). Methods that send
 * (`json`, `send`, `sendStatus`, `redirect`) end the response on the socket: the middleware
 * answered, and Tern adds nothing after it. docs/express-middleware.md lists them.
 */
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { SerializeOptions } from 'cookie';
import type EncodeUrl from 'encodeurl';
import { serializeCookie } from '../../http/cookie-codec';
import { TernServerResponse } from '../../http/node-messages';
import { onFirstUse } from '../../http/on-first-use';
import type { TernResponse } from '../../http/response';

/** Where a decorated Node response keeps the Tern response it belongs to. */
export const OWNER_RESPONSE = Symbol('ternResponse');

/** A Node response with the Express additions. */
export interface ExpressResponse extends ServerResponse {
  [OWNER_RESPONSE]: TernResponse;
  locals: Record<string, unknown>;
  status(code: number): this;
  set(field: string | Record<string, unknown>, value?: unknown): this;
  header(field: string | Record<string, unknown>, value?: unknown): this;
  get(field: string): string | number | string[] | undefined;
  append(field: string, value: string | string[]): this;
  type(type: string): this;
  vary(field: string): this;
  json(body: unknown): this;
  send(body?: unknown): this;
  sendStatus(code: number): this;
  redirect(statusOrUrl: number | string, url?: string): void;
  cookie(name: string, value: unknown, options?: ExpressCookieOptions): this;
  clearCookie(name: string, options?: ExpressCookieOptions): this;
}

/** `res.cookie` options as Express takes them: `maxAge` in milliseconds. */
type ExpressCookieOptions = Omit<SerializeOptions, 'maxAge'> & { maxAge?: number; signed?: boolean };

// eslint-disable-next-line @typescript-eslint/no-require-imports
const encodeUrl = onFirstUse(() => require('encodeurl') as typeof EncodeUrl);

const SHORT_TYPES: Record<string, string> = {
  json: 'application/json; charset=utf-8',
  html: 'text/html; charset=utf-8',
  text: 'text/plain; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  bin: 'application/octet-stream',
};

const methods: ThisType<ExpressResponse> & Omit<ExpressResponse, keyof ServerResponse | typeof OWNER_RESPONSE | 'locals'> = {
  status(code) {
    if (!Number.isInteger(code) || code < 100 || code > 999) throw new RangeError(`res.status(${String(code)}): a status is an integer from 100 to 999`);
    this.statusCode = code;
    return this;
  },
  set(field, value) {
    if (typeof field === 'object') {
      for (const [name, each] of Object.entries(field)) this.set(name, each);
      return this;
    }
    this.setHeader(field, Array.isArray(value) ? value.map(String) : String(value));
    return this;
  },
  header(field, value) {
    return this.set(field, value);
  },
  get(field) {
    return this.getHeader(field);
  },
  append(field, value) {
    const current = this.getHeader(field);
    const added = ([] as string[]).concat(value);
    this.setHeader(field, current === undefined ? added : ([] as string[]).concat(current as string | string[], added));
    return this;
  },
  type(type) {
    this.setHeader('content-type', type.includes('/') ? type : (SHORT_TYPES[type] ?? 'application/octet-stream'));
    return this;
  },
  vary(field) {
    const current = this.getHeader('vary');
    const listed = current === undefined ? [] : String(current).split(',').map((name) => name.trim());
    if (!listed.some((name) => name === '*' || name.toLowerCase() === field.toLowerCase())) this.setHeader('vary', [...listed, field].filter(Boolean).join(', '));
    return this;
  },
  json(body) {
    if (!this.hasHeader('content-type')) this.setHeader('content-type', SHORT_TYPES.json);
    return this.send(JSON.stringify(body) ?? '');
  },
  send(body) {
    if (body !== null && typeof body === 'object' && !Buffer.isBuffer(body)) return this.json(body);
    if (typeof body === 'number' || typeof body === 'boolean') return this.json(body);
    const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body === null || body === undefined ? '' : String(body));
    if (!this.hasHeader('content-type') && body !== null && body !== undefined) {
      this.setHeader('content-type', Buffer.isBuffer(body) ? SHORT_TYPES.bin : SHORT_TYPES.html);
    }
    if (this.statusCode === 204 || this.statusCode === 304) {
      this.removeHeader('content-type');
      this.removeHeader('content-length');
      this.end();
      return this;
    }
    this.setHeader('content-length', bytes.length);
    this.end(this.req?.method === 'HEAD' ? undefined : bytes);
    return this;
  },
  sendStatus(code) {
    this.status(code);
    this.setHeader('content-type', SHORT_TYPES.text);
    return this.send(STATUS_CODES[code] ?? String(code));
  },
  redirect(statusOrUrl, url) {
    const status = typeof statusOrUrl === 'number' ? statusOrUrl : 302;
    const location = encodeUrl()(String(typeof statusOrUrl === 'number' ? url : statusOrUrl));
    this.status(status);
    this.setHeader('location', location);
    // The bodies Express 5 negotiates (its res.format: text, html, else none), byte for byte.
    const kind = redirectBodyKind(String(this.req?.headers.accept ?? ''));
    const reason = STATUS_CODES[status] ?? String(status);
    this.vary('Accept');
    if (kind !== 'none') this.setHeader('content-type', kind === 'html' ? SHORT_TYPES.html : SHORT_TYPES.text);
    this.send(
      kind === 'html'
        ? `<!DOCTYPE html><head><title>${reason}</title></head><body><p>${reason}. Redirecting to ${escapeHtml(location)}</p></body>`
        : kind === 'text'
          ? `${reason}. Redirecting to ${location}`
          : '',
    );
  },
  cookie(name, value, options = {}) {
    if (options.signed) throw new TypeError('res.cookie: signed cookies are not supported through fromConnect; use res.setCookie on a signed route or cookie-signature yourself');
    const text = typeof value === 'object' && value !== null ? `j:${JSON.stringify(value)}` : String(value);
    const { maxAge, signed: _signed, ...rest } = options;
    const settings: SerializeOptions = { path: '/', ...rest };
    if (maxAge !== undefined && Number.isFinite(maxAge)) {
      settings.expires = new Date(Date.now() + maxAge);
      settings.maxAge = Math.floor(maxAge / 1000);
    }
    return this.append('set-cookie', serializeCookie(name, text, settings));
  },
  clearCookie(name, options = {}) {
    const { maxAge: _maxAge, ...rest } = options;
    return this.cookie(name, '', { ...rest, expires: new Date(1) });
  },
};

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/**
 * Which redirect body an Accept header gets, as Express's `res.format({ text, html, default })`
 * picks: no Accept (or one taking anything) gets text, the better-ranked of text/plain and
 * text/html otherwise, and an Accept naming neither gets no body.
 */
function redirectBodyKind(accept: string): 'text' | 'html' | 'none' {
  if (accept.trim() === '') return 'text';
  let best: { kind: 'text' | 'html'; q: number } | undefined;
  for (const range of accept.split(',')) {
    const [type, ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    const qParam = params.find((param) => param.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!(q > 0)) continue;
    const kind = type === 'text/html' ? 'html' : type === 'text/plain' || type === 'text/*' || type === '*/*' ? 'text' : undefined;
    if (kind !== undefined && (best === undefined || q > best.q)) best = { kind, q };
  }
  return best?.kind ?? 'none';
}

/** The additions as defined properties: the methods, and `res.locals` read from Tern's response. */
const additions: PropertyDescriptorMap = {
  ...Object.fromEntries(Object.entries(methods).map(([name, method]) => [name, { value: method, writable: true, configurable: true }])),
  locals: {
    get(this: ExpressResponse) {
      return this[OWNER_RESPONSE]?.locals;
    },
    set(this: ExpressResponse, value: unknown) {
      Object.defineProperty(this, 'locals', { value, writable: true, enumerable: true, configurable: true });
    },
    configurable: true,
  },
};

/** Puts the additions on the prototype of the responses Tern's own server creates: once, the first time `fromConnect` is called. */
export const installExpressResponseAdditions = onFirstUse(() => Object.defineProperties(TernServerResponse.prototype, additions));

/**
 * Links Tern's Node response (once per request) to the Tern response; one from elsewhere
 * (`inject()`, a server of the user's) gets the additions defined on itself.
 */
export function expressResponse(res: TernResponse): ExpressResponse {
  const raw = res.raw as ExpressResponse;
  if (raw[OWNER_RESPONSE] === res) return raw;
  raw[OWNER_RESPONSE] = res;
  if (!(raw instanceof TernServerResponse)) Object.defineProperties(raw, additions);
  return raw;
}
