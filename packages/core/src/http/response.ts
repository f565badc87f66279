import type { ServerResponse } from 'node:http';
import type { SerializeOptions } from 'cookie';
import { serializeCookie } from './cookie-codec';
import type EncodeUrl from 'encodeurl';
import { renderTemplate } from './templates';
import { addPageHeaders, type HeaderSet } from './page-headers';
import { PendingFlashes } from './flash';
import type { TernRequest } from './request';
import { TernRangeError, TernTypeError } from '../errors';
import { prepareFile, type FileOptions } from './file';
import { sseBody, type ServerSentEvent, type SseOptions } from './sse';
import { streamBodyOf, type StreamBody, type StreamSource } from './stream-body';
import { onFirstUse } from './on-first-use';

/** encodeurl, loaded for the first redirect. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const encodeUrlModule = onFirstUse(() => require('encodeurl') as typeof EncodeUrl);
const encodeUrl = (url: string): string => encodeUrlModule()(url);

/**
 * An empty header map that inherits nothing (so `constructor` or `__proto__` are plain header
 * names), built from a prototype-less prototype: `Object.create(null)` would do the same but
 * puts the object in V8's slow dictionary mode, which every request then pays for.
 */
const HeaderMap = function HeaderMap() {} as unknown as new () => Record<string, string | string[]>;
HeaderMap.prototype = Object.create(null);

/**
 * What Tern keeps on a response for itself, keyed by symbols so that it is no part of the public
 * type: the value, text and status of the last `json()` on a filtering route (so a later status
 * change can re-serialize it), and the writer's step that does it.
 */
export const JSON_DATA = Symbol('jsonData');
export const JSON_BODY = Symbol('jsonBody');
export const JSON_STATUS = Symbol('jsonStatus');
export const SETTLE_JSON = Symbol('settleJson');

/** What `json()` holds for a body no declaration may filter, until the final status is known. */
const REFUSED = '\u0000refused';
/** The answer instead of a body no declaration filtered: it names the status to declare. */
const refusedProblem = (status: number) =>
  JSON.stringify({
    type: 'about:blank',
    title: 'Internal Server Error',
    status: 500,
    detail: `The route sent JSON with status ${status}, which it declares no response for: declare ${status} in its responses.`,
    code: 'TERN_UNDECLARED_RESPONSE_STATUS',
  });

/**
 * What `res.json()` asks for the body of a status: the route's declared response models,
 * compiled into serializers at startup (`serialization/`). The HTTP layer knows only this shape.
 *
 * @example
 * res.serializers = { forStatus: (status) => (status === 200 ? { serialize: (v) => JSON.stringify(pick(v)) } : undefined) };
 */
export interface JsonSerializers {
  /**
   * The serializer for `statusCode`; `undefined` when that status is sent as `JSON.stringify`
   * writes it; `null` when no JSON may be sent with it (filtering fails closed: if the status is
   * still that one when the response is written, the answer is a 500).
   */
  forStatus(statusCode: number): { serialize(value: unknown): string | undefined; bytes?(value: unknown): Buffer | undefined } | undefined | null;
}

/**
 * The response a handler returns. Methods only record status, headers and body; the framework
 * writes them to the socket once the middleware chain has finished, so middleware can still change
 * headers after `await next()`.
 *
 * @example
 * app.post('/users', async (req, res) => res.setHeader('Location', '/users/1').json({ id: 1 }, 201));
 */
export class TernResponse {
  statusCode = 200;
  /** Header names lower-cased; a list is sent as repeated headers (e.g. Set-Cookie). */
  readonly headers: Record<string, string | string[]> = new HeaderMap();
  body: string | Buffer | null = null;
  /**
   * A body sent as a stream (`stream`, `sse`, `file`); used when `body` is null. Setting another
   * body afterwards (an error answer, `json()`) wins, and the stream is discarded unread.
   */
  streamBody?: StreamBody;
  /**
   * The route's declared response models (set by Tern before the handler runs, on routes that
   * declare one and filter): `json()` sends only what the model for the status declares. Set it
   * to `undefined` in a handler or middleware to send one answer unfiltered.
   */
  serializers: JsonSerializers | undefined = undefined;
  [JSON_DATA]: unknown = undefined;
  [JSON_BODY]: string | Buffer | undefined = undefined;
  [JSON_STATUS] = 0;

  /** Messages `flash()` queued for the next page (the pipeline writes their cookie). @internal */
  declare flashOut?: Array<{ type: string; message: string }>;
  /** `new TernApp({ pageHeaders })`, set by the pipeline: what `html()` adds to a page. @internal */
  declare pageHeaders?: HeaderSet;
  /** The request this response answers, set by the pipeline: templates' `flashes` come from it. @internal */
  declare flashSource?: Pick<TernRequest, 'flashes' | 'peekFlashes'>;
  /** Made on first use of `locals`; declared so a response that never uses it carries no field. */
  private declare localValues?: Record<string, unknown>;

  constructor(readonly raw: ServerResponse) {}

  /**
   * Values every `render()` of this response sees besides its own context (the context wins on a
   * clash). Middleware puts request-wide values here: `csrf()` puts the form token.
   *
   * @example
   * app.addMiddleware(async (req, res, next) => { res.locals.user = req.user; return next(); });
   */
  get locals(): Record<string, unknown> {
    return (this.localValues ??= {});
  }

  /**
   * Queues a message for the next page the browser shows (after a redirect): it travels in a
   * signed cookie and is read there, once, as `req.flashes`.
   *
   * @example
   * res.flash('success', `Thanks, ${form.name}!`);
   * return res.redirect('/contact/thanks', 303);
   */
  flash(type: string, message: string): this {
    if (typeof type !== 'string' || typeof message !== 'string') throw new TernTypeError('TERN_INVALID_ARGUMENT', 'res.flash(type, message) takes two strings.');
    (this.flashOut ??= []).push({ type, message });
    return this;
  }

  /**
   * Sends `data` as JSON. `res.json(null, 204)` (or 304) sends an empty body. On a route whose
   * declared response model filters the status, `res.body` is then the filtered JSON as UTF-8
   * bytes (a `Buffer`), else a string.
   */
  json(data: unknown, statusCode?: number): this {
    if (statusCode !== undefined) this.status(statusCode);
    if ((data === null || data === undefined) && (this.statusCode === 204 || this.statusCode === 304)) {
      this.body = null;
      return this;
    }
    this.body = this.serializers === undefined ? (JSON.stringify(data) ?? 'null') : this.serializeDeclared(data);
    this.headers['content-type'] = 'application/json; charset=utf-8';
    return this;
  }

  /** `json()` on a filtering route: the status's declared model decides what is written. */
  private serializeDeclared(data: unknown): string | Buffer {
    const serializer = (this.serializers as JsonSerializers).forStatus(this.statusCode);
    // A compiled serializer's bytes go to the socket as they are (no decode and re-encode).
    const body =
      serializer === null ? REFUSED : ((serializer === undefined ? JSON.stringify(data) : serializer.bytes !== undefined ? serializer.bytes(data) : serializer.serialize(data)) ?? 'null');
    this[JSON_DATA] = data;
    this[JSON_BODY] = body;
    this[JSON_STATUS] = this.statusCode;
    return body;
  }

  /**
   * Called by the writer: when the status changed after `json()` on a filtering route (and the
   * body was not replaced since), writes the value again with the final status's model, so
   * `res.json(user); res.status(201)` is filtered by what 201 declares.
   */
  [SETTLE_JSON](): void {
    const serializers = this.serializers;
    if (serializers === undefined || this[JSON_BODY] === undefined || this.body !== this[JSON_BODY]) return;
    const final = serializers.forStatus(this.statusCode);
    // A final status that declares nothing keeps a body its first status's model filtered.
    if (this.statusCode !== this[JSON_STATUS] && final !== serializers.forStatus(this[JSON_STATUS]) && final !== null) this.body = this.serializeDeclared(this[JSON_DATA]);
    if (this.body === REFUSED) {
      // No declaration filtered this body: none of it is sent.
      this.body = refusedProblem(this.statusCode);
      this.statusCode = 500;
      this.headers['content-type'] = 'application/problem+json; charset=utf-8';
    }
  }

  /** Sends plain text. */
  text(body: string, statusCode?: number): this {
    return this.send(String(body), 'text/plain; charset=utf-8', statusCode);
  }

  /** Sends HTML, with the app's page headers (`nosniff`, anti-framing) unless already set. */
  html(body: string, statusCode?: number): this {
    if (this.pageHeaders !== undefined) addPageHeaders(this.headers, this.pageHeaders);
    return this.send(String(body), 'text/html; charset=utf-8', statusCode);
  }

  /** Sends raw bytes or text with the given content type. */
  send(body: string | Buffer, contentType = 'application/octet-stream', statusCode?: number): this {
    if (statusCode !== undefined) this.status(statusCode);
    this.body = body;
    this.headers['content-type'] = contentType;
    return this;
  }

  /**
   * Renders a template configured with `configureTemplates` (from `@tern/file-router`) and sends
   * it as HTML.
   */
  render(template: string, context: Record<string, unknown> = {}, statusCode?: number): this {
    const merged = this.localValues === undefined && this.flashSource === undefined ? context : { ...this.localValues, ...context };
    // Every template can show the flash messages; only showing them uses them up.
    if (this.flashSource !== undefined && merged.flashes === undefined) merged.flashes = new PendingFlashes(this.flashSource);
    return this.html(renderTemplate(template, merged), statusCode);
  }

  /**
   * Streams `source` (a Node Readable, a web ReadableStream or an async iterable of strings or
   * bytes) as the body, chunked, with the headers middleware set. A slow client slows the source
   * down; a client that goes away destroys it; a source that fails half-way cuts the connection
   * (the client never sees a truncated body that looks complete). See docs/streaming.md.
   *
   * @example
   * app.get('/export.csv', async (req, res) => res.stream(rowsAsCsv(db), 'text/csv; charset=utf-8'));
   */
  stream(source: StreamSource, contentType = 'application/octet-stream', statusCode?: number): this {
    if (statusCode !== undefined) this.status(statusCode);
    this.streamBody = streamBodyOf(source);
    this.body = null;
    this.headers['content-type'] = contentType;
    return this;
  }

  /**
   * Sends server-sent events (`text/event-stream`) from an async iterable of strings or
   * `{ data, event?, id?, retry? }` (objects as JSON). Ends when the iterable does, when the
   * client disconnects (the iterator's `return()` runs, so a generator's `finally` cleans up),
   * when `options.signal` aborts, or when `app.close()` starts. The client's `Last-Event-ID` is
   * `req.lastEventId`. See docs/streaming.md.
   *
   * @example
   * app.get('/ticks', { sse: true }, async (req, res) =>
   *   res.sse((async function* () { for (let i = 0; ; i++) { yield { id: String(i), data: { i } }; await sleep(1000); } })(), { heartbeat: 15_000 }));
   */
  sse(events: AsyncIterable<ServerSentEvent | string>, options?: SseOptions): this {
    this.streamBody = sseBody(events, options);
    this.body = null;
    this.headers['content-type'] = 'text/event-stream';
    this.headers['cache-control'] = 'no-cache';
    this.headers['x-accel-buffering'] = 'no';
    return this;
  }

  /**
   * Sends a file with send's handling of Range (206/416), ETag/Last-Modified (304), content type
   * and HEAD. `path` is relative to `options.root` (or absolute without it); `..`, dotfiles (by
   * default) and symlinks leading out of the root are refused with 403, a missing file is a 404
   * problem. Resolves once the file was checked: `return res.file(...)` or `await` it. See
   * docs/static-files.md.
   *
   * @example
   * app.get('/invoices/{id:int}', async (req, res, { id }) => res.file(`${id}.pdf`, { root: INVOICES, download: `invoice-${id}.pdf` }));
   */
  async file(path: string, options: FileOptions = {}): Promise<this> {
    const prepared = await prepareFile(this.raw.req, path, options, this);
    for (const name of Object.keys(this.headers)) if (!Object.hasOwn(prepared.headers, name)) delete this.headers[name];
    Object.assign(this.headers, prepared.headers);
    this.statusCode = prepared.statusCode;
    this.body = null;
    if (prepared.body) this.streamBody = prepared.body;
    else this.streamBody = undefined;
    return this;
  }

  /** Redirects to `location` (302 unless given). */
  redirect(location: string, statusCode = 302): this {
    this.status(statusCode);
    // Header values are Latin-1 on the wire: `/users/José` would go out as a raw 0xE9 byte and
    // `/tags/日本` would make Node throw. Percent-encode what a URL may not hold, as Express does,
    // leaving existing `%XX` escapes alone.
    this.headers.location = encodeUrl(location);
    this.body = null;
    return this;
  }

  /** Sets the status code; only integers from 200 to 599 are accepted (1xx are not final answers). */
  status(code: number): this {
    // A 1xx is informational: written as the final answer, the client would wait forever for one.
    if (!Number.isInteger(code) || code < 200 || code > 599) {
      throw new TernRangeError('TERN_INVALID_STATUS', `Invalid status code: ${code} (a response's status is 200-599).`);
    }
    this.statusCode = code;
    return this;
  }

  /** Sets a header (replacing it). Values are checked when written; CRLF in one gives a 500. */
  setHeader(name: string, value: string | number | string[]): this {
    this.headers[name.toLowerCase()] = Array.isArray(value) ? value.map(String) : String(value);
    return this;
  }

  getHeader(name: string): string | string[] | undefined {
    return this.headers[name.toLowerCase()];
  }

  removeHeader(name: string): this {
    delete this.headers[name.toLowerCase()];
    return this;
  }

  /** Appends a Set-Cookie header. */
  setCookie(name: string, value: string, options?: SerializeOptions): this {
    const cookie = serializeCookie(name, value, options);
    const existing = this.headers['set-cookie'];
    this.headers['set-cookie'] = existing === undefined ? [cookie] : [...([] as string[]).concat(existing), cookie];
    return this;
  }
}
