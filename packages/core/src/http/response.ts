import type { ServerResponse } from 'node:http';
import { serialize as serializeCookie, type SerializeOptions } from 'cookie';
import { renderTemplate } from './templates';
import { TernRangeError } from '../errors';

/**
 * An empty header map that inherits nothing (so `constructor` or `__proto__` are plain header
 * names), built from a prototype-less prototype: `Object.create(null)` would do the same but
 * puts the object in V8's slow dictionary mode, which every request then pays for.
 */
const HeaderMap = function HeaderMap() {} as unknown as new () => Record<string, string | string[]>;
HeaderMap.prototype = Object.create(null);

/**
 * What `res.json()` asks for the body of a status: the route's declared response models,
 * compiled into serializers at startup (`serialization/`). The HTTP layer knows only this shape.
 *
 * @example
 * res.serializers = { forStatus: (status) => (status === 200 ? { serialize: (v) => JSON.stringify(pick(v)) } : undefined) };
 */
export interface JsonSerializers {
  /** The serializer for `statusCode`, or `undefined` when that status is sent as `JSON.stringify` writes it. */
  forStatus(statusCode: number): { serialize(value: unknown): string | undefined } | undefined;
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
   * The route's declared response models (set by Tern before the handler runs, on routes that
   * declare one and filter): `json()` sends only what the model for the status declares. Set it
   * to `undefined` in a handler or middleware to send one answer unfiltered.
   */
  serializers: JsonSerializers | undefined = undefined;
  /** The value, text and status of the last `json()` on a filtering route, so a later status change can re-serialize it. */
  jsonData: unknown = undefined;
  jsonBody: string | undefined = undefined;
  jsonStatus = 0;

  constructor(readonly raw: ServerResponse) {}

  /** Sends `data` as JSON. `res.json(null, 204)` (or 304) sends an empty body. */
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
  private serializeDeclared(data: unknown): string {
    const serializer = (this.serializers as JsonSerializers).forStatus(this.statusCode);
    const body = (serializer === undefined ? JSON.stringify(data) : serializer.serialize(data)) ?? 'null';
    this.jsonData = data;
    this.jsonBody = body;
    this.jsonStatus = this.statusCode;
    return body;
  }

  /**
   * Called by the writer: when the status changed after `json()` on a filtering route (and the
   * body was not replaced since), writes the value again with the final status's model, so
   * `res.json(user); res.status(201)` is filtered by what 201 declares.
   */
  settleJson(): void {
    const serializers = this.serializers;
    if (serializers === undefined || this.jsonBody === undefined || this.body !== this.jsonBody || this.statusCode === this.jsonStatus) return;
    if (serializers.forStatus(this.statusCode) === serializers.forStatus(this.jsonStatus)) return;
    this.body = this.serializeDeclared(this.jsonData);
  }

  /** Sends plain text. */
  text(body: string, statusCode?: number): this {
    if (statusCode !== undefined) this.status(statusCode);
    this.body = String(body);
    this.headers['content-type'] = 'text/plain; charset=utf-8';
    return this;
  }

  /** Sends HTML. */
  html(body: string, statusCode?: number): this {
    if (statusCode !== undefined) this.status(statusCode);
    this.body = String(body);
    this.headers['content-type'] = 'text/html; charset=utf-8';
    return this;
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
    return this.html(renderTemplate(template, context), statusCode);
  }

  /** Redirects to `location` (302 unless given). */
  redirect(location: string, statusCode = 302): this {
    this.status(statusCode);
    this.headers.location = location;
    this.body = null;
    return this;
  }

  /** Sets the status code; only integers from 100 to 599 are accepted. */
  status(code: number): this {
    if (!Number.isInteger(code) || code < 100 || code > 599) {
      throw new TernRangeError('TERN_INVALID_STATUS', `Invalid status code: ${code}`);
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
