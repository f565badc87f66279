import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { parseCookieHeader } from './cookie-codec';
import { responseSignal } from './abort';
import type { Readable } from 'node:stream';
import { declaredLengthExceeds, parseJson, payloadTooLarge, readBody, type BodyLimits } from './body';
import { bodyAlreadyRead, type BodyReads } from './body-access';
import { limitedBodyStream } from './body-stream';
import { parseForm, type FormFields } from './form';
import { requestError } from '../errors/request-error';
import { readFlashes, type FlashMessage } from './flash';
import { signingKey } from './signing';
import { SESSION, type Session, type SessionState } from './session';
import { TernError } from '../errors/tern-error';
import { assertJsonContentType, assertMediaType, FORM_TYPE } from './media-type';
import { readMultipart, type MultipartBody } from './multipart';
import { resolveLimits, type MultipartOptions, type ResolvedLimits } from './multipart-limits';
import { readLeadingFields, type LeadingFields } from './multipart-leading';
import { multipartParts, type MultipartPart } from './multipart-parts';
import type { MatchedRoute } from './matched-route';
import { silentLogger, type TernLogger } from '../logging/logger';
import { nodeCrypto } from './node-crypto';

/** The key of the Node response answering a request: a symbol, so it is no part of `TernRequest`'s type. */
export const RAW_RESPONSE = Symbol('rawResponse');

/** Case-insensitive read access to request headers. */
export interface RequestHeaders {
  get(name: string): string | undefined;
  has(name: string): boolean;
}

/** Read access to the query string: `get` returns the first value or the default. */
export interface QueryParams {
  get(name: string): string | undefined;
  get<D>(name: string, defaultValue: D): string | D;
  getAll(name: string): string[];
  has(name: string): boolean;
  /** Every name with its first value, for `@Query() dto` style reads. */
  toObject(): Record<string, string | string[]>;
}

/** Read access to request cookies. */
export interface RequestCookies {
  get(name: string): string | undefined;
}

/**
 * One parameter of a path that is not a literal: its type is unknown at compile time. `any`
 * because the handler states its own parameter types (`{ id }: { id: number }`), which
 * `unknown` values would reject.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a non-literal path's handler names its own parameter types
export type UntypedParam = any;

/**
 * A parsed JSON body whose shape the caller has not stated (`req.json()` without a type). `any`
 * to keep `req.json<T>()`'s default what it always was; validate with a `requestModel` instead.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the caller states the body's type (json<T>()); unvalidated JSON
export type UntypedJson = any;

/**
 * The request a handler and middleware receive. Header, query and cookie views are built on
 * first use, so a route that never reads them pays nothing for them.
 *
 * @example
 * app.get('/search', async (req) => ({ q: req.queryParams.get('q', ''), ua: req.headers.get('user-agent') }));
 */
export class TernRequest<P = Record<string, UntypedParam>> {
  /** Converted path parameters of the matched route. */
  pathParams: P;
  /** Set by authentication middleware (or `enforceSecurity`) for handlers to read. */
  user?: unknown;
  /** The validated model instance when the route declares a `requestModel` (or `@Body()` class). */
  body?: unknown;
  /** The query string as the route's `query` schema validated it (the library's output); declared, not initialised. */
  declare query?: unknown;
  /**
   * The route that matched, or undefined when none did; app middleware sees it too. When the
   * method and path name a route but a converter refused a value, it is that route (so guards
   * answer first), and the request ends in the 422.
   */
  route?: MatchedRoute;

  private stateBag?: Record<string, unknown>;
  private headersView?: RequestHeaders;
  private queryView?: QueryParams;
  private cookiesView?: RequestCookies;
  private bodyText?: Promise<string>;
  private jsonValue?: Promise<unknown>;
  private abortSignal?: AbortSignal;
  /** The Node response answering this request (set by the pipeline), for `signal`. Declared, not initialised. */
  declare [RAW_RESPONSE]?: ServerResponse;
  /** The flash cookie as read by `flashes` (the pipeline clears it once read). @internal */
  declare flashState?: { messages: FlashMessage[]; hadCookie: boolean };
  /** Set by the `session()` middleware. Declared, not initialised: requests without sessions carry nothing. @internal */
  declare [SESSION]?: SessionState;
  /** One slot for the other body readers' state, so a JSON request carries one field, not four. */
  private bodyReads?: BodyReads;
  /**
   * The request id: set by the pipeline when the app uses ids (a structured logger or
   * `requestIdHeader`), else made on first read. Declared, not initialised, like the raw response.
   * @internal
   */
  declare requestId?: string;
  /**
   * The logger `req.log` is a child of (set by the pipeline when the app has a structured logger).
   * @internal
   */
  declare logParent?: TernLogger;
  private declare childLog?: TernLogger;

  constructor(
    readonly raw: IncomingMessage,
    /** The request target's path, as sent (percent-encoded), without the query string. */
    readonly path: string,
    /** The query string without its leading `?`, or an empty string. */
    readonly search: string,
    private limits: RequestSettings,
  ) {
    this.pathParams = {} as P;
  }

  /** A per-request object for middleware to hand values to handlers (made on first use). */
  get state(): Record<string, unknown> {
    return (this.stateBag ??= {});
  }

  get method(): string {
    return this.raw.method as string;
  }

  /** `url.path` is the request path (percent-encoded, as sent); `url.query` the raw query string. */
  get url(): { path: string; query: string; href: string } {
    return { path: this.path, query: this.search, href: this.search ? `${this.path}?${this.search}` : this.path };
  }

  get headers(): RequestHeaders {
    if (this.headersView) return this.headersView;
    const raw = this.raw.headers;
    return (this.headersView = {
      get(name) {
        const value = ownValue(raw, name.toLowerCase());
        return Array.isArray(value) ? value.join(', ') : value;
      },
      has: (name) => ownValue(raw, name.toLowerCase()) !== undefined,
    });
  }

  get queryParams(): QueryParams {
    if (this.queryView) return this.queryView;
    const params = new URLSearchParams(this.search);
    return (this.queryView = {
      get: (name: string, defaultValue?: unknown) => params.get(name) ?? defaultValue,
      getAll: (name) => params.getAll(name),
      has: (name) => params.has(name),
      toObject() {
        const out: Record<string, string | string[]> = Object.create(null);
        for (const key of params.keys()) {
          if (key in out) continue;
          const all = params.getAll(key);
          out[key] = all.length > 1 ? all : all[0];
        }
        return out;
      },
    } as QueryParams);
  }

  get cookies(): RequestCookies {
    if (this.cookiesView) return this.cookiesView;
    const header = this.raw.headers.cookie;
    const jar = header ? parseCookieHeader(header) : {};
    return (this.cookiesView = { get: (name) => ownValue(jar, name) });
  }

  /** The body as text, read once (limit enforced); an empty string when there is none. */
  text(): Promise<string> {
    return (this.bodyText ??= this.buffer().then((buf) => buf.toString('utf8')));
  }

  /**
   * The body parsed as JSON, once. 415 for another content type, 400 for invalid JSON or
   * `__proto__` keys, 413 over the body limit.
   */
  json<T = UntypedJson>(): Promise<T> {
    if (!this.jsonValue) {
      try {
        assertJsonContentType(this.raw);
      } catch (err) {
        return Promise.reject(err);
      }
      // Straight from the bytes when nothing asked for the text: one step less per request.
      const depthLimit = this.limits.jsonDepthLimit;
      this.jsonValue =
        this.bodyText === undefined
          ? this.buffer().then((buf) => parseJson(buf.toString('utf8'), depthLimit))
          : this.bodyText.then((text) => parseJson(text, depthLimit));
    }
    return this.jsonValue as Promise<T>;
  }

  /**
   * Aborted when the client disconnects before the response is complete, or when `app.close()`
   * reaches its close timeout. Made on first read: requests that never read it pay nothing.
   *
   * @example
   * app.get('/report', async (req) => ({ rows: await db.query(sql, { signal: req.signal }) }));
   */
  get signal(): AbortSignal {
    return (this.abortSignal ??= responseSignal(this[RAW_RESPONSE]));
  }

  /**
   * The request's id: a generated UUID, or the sane value of the header the app named in
   * `requestIdHeader` (never a client's choice otherwise). With a logger (or `requestIdHeader`
   * set) it is echoed on the response, carried by problem+json answers and by every log line of
   * the request.
   *
   * @example
   * app.get('/jobs', async (req) => ({ queued: await queue.add({ requestId: req.id }) }));
   */
  get id(): string {
    return (this.requestId ??= nodeCrypto().randomUUID());
  }

  /**
   * A child of the app's logger whose lines carry `reqId`; made on first read. Without a
   * structured logger it drops every line, so handler code can always log.
   *
   * @example
   * app.get('/orders/{id:int}', async (req, res, { id }) => {
   *   req.log.info({ orderId: id }, 'loading order');
   *   return orders.get(id);
   * });
   */
  get log(): TernLogger {
    if (this.childLog !== undefined) return this.childLog;
    return (this.childLog = this.logParent === undefined ? silentLogger : this.logParent.child({ reqId: this.id }));
  }

  /**
   * The client's address: the socket's peer, or with the app's `trustProxy` on, the address the
   * trusted proxies forwarded (`X-Forwarded-For`, or `Forwarded` with `proxyHeaders: 'forwarded'`).
   * Undefined when the socket is already gone, or when the trusted proxies do not name an address.
   */
  get ip(): string | undefined {
    return this.raw.socket?.remoteAddress;
  }

  /**
   * `'https'` when the connection is TLS, else `'http'`; with `trustProxy`, what the trusted
   * proxies say the client used (`X-Forwarded-Proto`).
   */
  get protocol(): string {
    return (this.raw.socket as TLSSocket | undefined)?.encrypted ? 'https' : 'http';
  }

  /**
   * The `Host` header (`example.com:8080`); with `trustProxy`, the host the trusted proxies
   * received (`X-Forwarded-Host`). Undefined when the request has none.
   */
  get host(): string | undefined {
    return this.raw.headers.host;
  }

  /**
   * The raw body bytes, read once (`text()`, `json()` and `form()` share this read); 413 over
   * `bodyLimit`. Rejects with a `TernTypeError` after `stream()`, `parts()` or `multipart()`.
   *
   * @example
   * app.post('/webhook', async (req) => ({ valid: verifySignature(await req.buffer(), req.headers.get('x-signature')) }));
   */
  buffer(): Promise<Buffer> {
    const reads = (this.bodyReads ??= {});
    if (reads.access !== undefined && reads.access !== 'whole') return Promise.reject(bodyAlreadyRead('buffer()', reads.access));
    reads.access = 'whole';
    return (reads.buffer ??= readBody(this.raw, this.limits.bodyLimit));
  }

  /**
   * The body as a Readable, for bodies you pass on rather than hold. Throws the 413 problem at
   * once when the declared Content-Length is over `bodyLimit`; a chunked body that passes it
   * makes the stream error with the same problem, a client that goes away with
   * `TERN_CLIENT_ABORTED`. The body can be taken this way once, and not after it was read whole
   * (a `TernTypeError` says so).
   *
   * @example
   * app.put('/blobs/{key}', async (req) => { await pipeline(req.stream(), createWriteStream(tmpPath)); return { ok: true }; });
   */
  stream(): Readable {
    const reads = (this.bodyReads ??= {});
    if (reads.access) throw bodyAlreadyRead('stream()', reads.access);
    const stream = limitedBodyStream(this.raw, this.limits.bodyLimit);
    reads.access = 'stream';
    return stream;
  }

  /**
   * An `application/x-www-form-urlencoded` body as a null-prototype object (a repeated name gives
   * a list of its values), read once. 415 for another content type, 413 over `formFieldLimit`
   * fields or `bodyLimit` bytes.
   *
   * @example
   * app.post('/login', async (req) => { const { user, password } = await req.form(); ... });
   */
  form(): Promise<FormFields> {
    const reads = (this.bodyReads ??= {});
    if (!reads.form) {
      try {
        assertMediaType(this.raw, FORM_TYPE, 'a form body');
      } catch (err) {
        return Promise.reject(err);
      }
      reads.form = this.text().then((text) => parseForm(text, this.limits.formFieldLimit ?? 1000));
    }
    return reads.form;
  }

  /**
   * A `multipart/form-data` body read into memory within `limits` (without options: the route's
   * `multipart` option, else the defaults): text fields and files with their bytes. Read once; later calls return the same result (their options are not used).
   * 415 for another content type, 413 naming the limit passed, 400 for a malformed body.
   *
   * @example
   * const { fields, files } = await req.multipart({ limits: { fileSize: 2 * 1024 * 1024, files: 1 } });
   */
  multipart(options?: MultipartOptions): Promise<MultipartBody> {
    const reads = (this.bodyReads ??= {});
    if (reads.multipart) return reads.multipart;
    if (reads.access && reads.access !== 'leading') return Promise.reject(bodyAlreadyRead('multipart()', reads.access));
    reads.access = 'stream';
    try {
      return (reads.multipart = readMultipart(this.raw, multipartLimits(options, this.limits), this.limits.multipartLimit));
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /**
   * The parts of a `multipart/form-data` body as they arrive, file contents streamed; the limits
   * and answers of `multipart()` apply and are thrown from the loop. Once per request.
   *
   * @example
   * for await (const part of req.parts({ limits: { fileSize: 50 * 1024 * 1024 } })) {
   *   if (part.type === 'file') await pipeline(part.stream, storage.writer(randomUUID()));
   * }
   */
  parts(options?: MultipartOptions): AsyncIterableIterator<MultipartPart> {
    const reads = (this.bodyReads ??= {});
    if (reads.access && reads.access !== 'leading') throw bodyAlreadyRead('parts()', reads.access);
    reads.access = 'stream';
    return multipartParts(this.raw, multipartLimits(options, this.limits), this.limits.multipartLimit);
  }

  /**
   * The text fields of a multipart body before its first file part, read without reading any
   * file; `multipart()` or `parts()` later continue the same parse (with the route's limits).
   * For `csrf()`, which must check a form's token before the handler runs. @internal
   */
  leadingMultipartFields(): Promise<LeadingFields> {
    const reads = (this.bodyReads ??= {});
    if (reads.access) return Promise.reject(bodyAlreadyRead('multipart()', reads.access));
    reads.access = 'leading';
    return readLeadingFields(this.raw, multipartLimits(undefined, this.limits), this.limits.multipartLimit);
  }

  /**
   * The messages the previous answer queued with `res.flash()` (a signed cookie; a forged or
   * altered one reads as none). Reading them uses them up: the cookie is cleared with this answer.
   *
   * @example
   * export const get = render('thanks.html', async (req) => ({ flashes: req.flashes }));
   */
  get flashes(): readonly FlashMessage[] {
    // With a session, flashes live in it: nothing in a cookie to replay.
    return (this.flashState ??= this[SESSION]?.takeFlashes() ?? readFlashes(this.raw.headers.cookie, flashKey(this.limits))).messages;
  }

  /**
   * The visitor's server-side session, kept in the app's store (see docs/sessions.md). Needs the
   * `session()` middleware in front of the route; without it, reading this throws `TERN_NO_SESSION`.
   *
   * @example
   * app.addMiddleware(session({ secret: process.env.SESSION_SECRET }));
   * app.get('/cart', async (req) => ({ items: req.session.get<string[]>('cart') ?? [] }));
   */
  get session(): Session {
    const session = this[SESSION];
    if (session === undefined) {
      throw new TernError('TERN_NO_SESSION', 'req.session needs the session() middleware: app.addMiddleware(session({ secret })) before the routes that use it.');
    }
    return session;
  }

  /**
   * The messages `req.flashes` would give, without using them up (for a template asking whether
   * there are any). @internal
   */
  peekFlashes(): readonly FlashMessage[] {
    return (this.flashState ?? readFlashes(this.raw.headers.cookie, flashKey(this.limits))).messages;
  }

  /** The app's `MakeConfig.secret`, for middleware that signs cookies (`csrf()`). @internal */
  get signingSecret(): string | undefined {
    return this.limits.secret;
  }

  /** The `Last-Event-ID` header an EventSource sends when it reconnects (see `res.sse`). */
  get lastEventId(): string | undefined {
    const value = this.raw.headers['last-event-id'];
    return Array.isArray(value) ? value[0] : value;
  }

  /** True when the request carries a body (a length above zero, or chunked). */
  get hasBody(): boolean {
    const length = this.raw.headers['content-length'];
    return (length !== undefined && length !== '0') || this.raw.headers['transfer-encoding'] !== undefined;
  }
}

/** What a request reads from the app's settings: body limits and the secret signed cookies use. */
type RequestSettings = BodyLimits & { readonly secret?: string };

const flashKeys = new WeakMap<RequestSettings, Buffer>();

/** The flash signing key of an app's settings, derived once. */
export function flashKey(settings: RequestSettings): Buffer {
  let key = flashKeys.get(settings);
  if (!key) flashKeys.set(settings, (key = signingKey(settings.secret, 'flash')));
  return key;
}

/** The limits of a multipart read: the call's own options, else the route's (resolved in `ready()`), else the defaults. */
function multipartLimits(options: MultipartOptions | undefined, limits: BodyLimits): ResolvedLimits {
  return options === undefined && limits.multipart !== undefined ? limits.multipart : resolveLimits(options, limits.multipartLimit);
}

/**
 * Own properties only: `headers.get('constructor')` or a cookie named `toString` must not find
 * what `Object.prototype` holds (an API-key-in-cookie scheme would hand its verifier a function).
 */
function ownValue<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

/**
 * Gives a routed request its route's body limits (a route or controller `bodyLimit` or
 * `multipartLimit`), before any middleware can read the body. Not a method: the limits are the
 * framework's business, not something handlers change.
 */
export function useRouteLimits(req: TernRequest, limits: BodyLimits): void {
  req['limits'] = limits;
}

/**
 * A body a Connect parser (`express.json()`, `express.urlencoded()`, `express.raw()`,
 * `express.text()`) already read from the stream, handed to Tern's readers so they answer with it
 * instead of waiting on a stream that has ended. The same limits hold as for a body Tern reads:
 * JSON goes back through `parseJson` (depth, `__proto__` keys) and every kind is measured against
 * `bodyLimit`. Returns the 413 or 400 to answer, or undefined. Not a method: it is the Connect
 * bridge's business (middleware/connect/), not a handler's.
 */
export function adoptParsedBody(req: TernRequest, parsed: unknown, kind: 'json' | 'form' | 'bytes'): unknown {
  const limits = req['limits'];
  const reads = (req['bodyReads'] ??= {});
  reads.access = 'whole';
  try {
    if (kind === 'bytes') {
      const bytes = Buffer.isBuffer(parsed) ? parsed : Buffer.from(String(parsed));
      if (bytes.length > limits.bodyLimit) return payloadTooLarge(limits.bodyLimit);
      reads.buffer = Promise.resolve(bytes);
      return undefined;
    }
    const text = JSON.stringify(parsed) ?? 'null';
    if (Buffer.byteLength(text) > limits.bodyLimit) return payloadTooLarge(limits.bodyLimit);
    // Parsed again from its JSON form: the depth limit and the `__proto__` check hold for it too.
    const value = parseJson(text, limits.jsonDepthLimit);
    if (kind === 'json') {
      req['bodyText'] = Promise.resolve(text);
      reads.buffer = Promise.resolve(Buffer.from(text));
      req['jsonValue'] = Promise.resolve(value);
      return undefined;
    }
    const fields = Object.assign(Object.create(null), value) as FormFields;
    const fieldLimit = limits.formFieldLimit ?? 1000;
    if (Object.keys(fields).length > fieldLimit) return requestError('TERN_FORM_TOO_MANY_FIELDS', `The form has more than ${fieldLimit} fields (formFieldLimit).`);
    reads.form = Promise.resolve(fields);
    return undefined;
  } catch (err) {
    return err;
  }
}

/** The 413 for a request whose declared length is over its route's `bodyLimit` (checked before a Connect parser reads it). */
export function declaredBodyTooLarge(req: TernRequest): unknown {
  const limit = req['limits'].bodyLimit;
  return declaredLengthExceeds(req.raw, limit) ? payloadTooLarge(limit) : undefined;
}

/** Whether a Tern reader already took the body (then a Connect parser finds the stream ended and parses nothing). */
export function bodyTakenByTern(req: TernRequest): boolean {
  return req['bodyReads'] !== undefined || req['jsonValue'] !== undefined;
}
