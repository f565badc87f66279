import type { IncomingMessage } from 'node:http';
import { parse as parseCookie } from 'cookie';
import { assertJsonContentType, parseJson, readBody, type BodyLimits } from './body';
import type { MatchedRoute } from './matched-route';

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
 * The request a handler and middleware receive. Header, query and cookie views are built on
 * first use, so a route that never reads them pays nothing for them.
 *
 * @example
 * app.get('/search', async (req) => ({ q: req.queryParams.get('q', ''), ua: req.headers.get('user-agent') }));
 */
export class TernRequest<P = Record<string, any>> {
  /** Converted path parameters of the matched route. */
  pathParams: P;
  /** Set by authentication middleware (or `enforceSecurity`) for handlers to read. */
  user?: unknown;
  /** The validated model instance when the route declares a `requestModel` (or `@Body()` class). */
  body?: unknown;
  /** The route that matched, or undefined when none did; app middleware sees it too. */
  route?: MatchedRoute;

  private stateBag?: Record<string, unknown>;
  private headersView?: RequestHeaders;
  private queryView?: QueryParams;
  private cookiesView?: RequestCookies;
  private bodyText?: Promise<string>;
  private jsonValue?: Promise<unknown>;

  constructor(
    readonly raw: IncomingMessage,
    /** The request target's path, as sent (percent-encoded), without the query string. */
    readonly path: string,
    /** The query string without its leading `?`, or an empty string. */
    readonly search: string,
    private readonly limits: BodyLimits,
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
        const value = raw[name.toLowerCase()];
        return Array.isArray(value) ? value.join(', ') : value;
      },
      has: (name) => raw[name.toLowerCase()] !== undefined,
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
    const jar = header ? parseCookie(header) : {};
    return (this.cookiesView = { get: (name) => jar[name] ?? undefined });
  }

  /** The body as text, read once (limit enforced); an empty string when there is none. */
  text(): Promise<string> {
    return (this.bodyText ??= readBody(this.raw, this.limits.bodyLimit).then((buf) => buf.toString('utf8')));
  }

  /**
   * The body parsed as JSON, once. 415 for another content type, 400 for invalid JSON or
   * `__proto__` keys, 413 over the body limit.
   */
  json<T = any>(): Promise<T> {
    if (!this.jsonValue) {
      try {
        assertJsonContentType(this.raw);
      } catch (err) {
        return Promise.reject(err);
      }
      this.jsonValue = this.text().then((text) => parseJson(text, this.limits.jsonDepthLimit));
    }
    return this.jsonValue as Promise<T>;
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
