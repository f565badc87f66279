import { TernError } from '../errors/tern-error';
import type { TernRequest } from '../http/request';
import type { Middleware } from '../routing/types';
import { appendVary } from './vary';

/**
 * Decides an origin at request time: `true` allows the request's origin (it is echoed back), a
 * string is sent as `Access-Control-Allow-Origin` as is, `false` refuses. Only called for requests
 * that carry an `Origin` header.
 *
 * @example
 * const byTenant: CorsOriginFunction = async (origin, req) => tenants.allows(req.headers.get('x-tenant'), origin);
 */
export type CorsOriginFunction = (origin: string, req: TernRequest) => boolean | string | Promise<boolean | string>;

/**
 * Which origins may read the answers: `'*'` (anyone, the default), one exact origin, a list of
 * exact origins and patterns, a pattern, a function, `true` (echo any request's origin but `null`) or
 * `false` (the middleware does nothing).
 *
 * @example
 * const origin: CorsOrigin = ['https://app.example', /^https:\/\/[a-z0-9-]+\.preview\.example$/];
 */
export type CorsOrigin = boolean | string | RegExp | ReadonlyArray<string | RegExp> | CorsOriginFunction;

/**
 * Options of {@link cors}; the names and defaults are those of the `cors` npm package.
 *
 * @example
 * const options: CorsOptions = { origin: 'https://app.example', credentials: true, maxAge: 600 };
 */
export interface CorsOptions {
  /** Default `'*'`. */
  origin?: CorsOrigin;
  /** Sends `Access-Control-Allow-Credentials: true` (cookies, HTTP auth). Not allowed with `origin: '*'`. */
  credentials?: boolean;
  /** Preflight `Access-Control-Allow-Methods`; default `GET,HEAD,PUT,PATCH,POST,DELETE`. */
  methods?: string | readonly string[];
  /** Preflight `Access-Control-Allow-Headers`; by default the preflight's `Access-Control-Request-Headers` is echoed. */
  allowedHeaders?: string | readonly string[];
  /** `Access-Control-Expose-Headers`: response headers the browser lets scripts read. */
  exposedHeaders?: string | readonly string[];
  /** Preflight `Access-Control-Max-Age` in seconds: how long the browser may reuse a preflight. */
  maxAge?: number;
  /** Pass preflights on to the routes (with the CORS headers set) instead of answering them. */
  preflightContinue?: boolean;
  /** The status of an answered preflight; default 204. */
  optionsSuccessStatus?: number;
}

const DEFAULT_METHODS = 'GET,HEAD,PUT,PATCH,POST,DELETE';

/** How the configured `origin` turns a request's `Origin` into an allowed origin (or none). */
interface OriginPolicy {
  /** Whether the answer changes with the request's `Origin` (then caches need `Vary: Origin`). */
  readonly variesByOrigin: boolean;
  resolve(origin: string | undefined, req: TernRequest): string | null | Promise<string | null>;
}

/**
 * CORS middleware for `app.addMiddleware`: answers preflights (`OPTIONS` with
 * `Access-Control-Request-Method`) itself, even on paths without an `OPTIONS` route, and adds the
 * `Access-Control-*` headers to every other answer, error answers included (they are set before
 * the rest of the chain runs). Behaves like the `cors` npm package except where docs/cors.md says.
 *
 * @example
 * app.addMiddleware(cors({ origin: ['https://app.example.com', /\.example\.com$/], credentials: true, maxAge: 600 }));
 */
export function cors(options: CorsOptions = {}): Middleware {
  const policy = originPolicy(options.origin ?? '*', options.credentials === true);
  if (!policy) return async (req, res, next) => next();
  const optionsSuccessStatus = options.optionsSuccessStatus ?? 204;
  if (!Number.isInteger(optionsSuccessStatus) || optionsSuccessStatus < 200 || optionsSuccessStatus > 299) {
    throw invalid(`optionsSuccessStatus must be a 2xx status, got ${String(optionsSuccessStatus)}.`);
  }
  if (options.maxAge !== undefined && !(Number.isInteger(options.maxAge) && options.maxAge >= 0)) {
    throw invalid(`maxAge must be a whole number of seconds, got ${String(options.maxAge)}.`);
  }
  const methods = headerList(options.methods) ?? DEFAULT_METHODS;
  const allowedHeaders = headerList(options.allowedHeaders);
  const exposedHeaders = headerList(options.exposedHeaders);
  const maxAge = options.maxAge === undefined ? undefined : String(options.maxAge);
  const credentials = options.credentials === true;
  const preflightContinue = options.preflightContinue === true;

  return async (req, res, next) => {
    const origin = req.headers.get('origin');
    const preflight = req.method === 'OPTIONS' && req.headers.has('access-control-request-method');
    const resolved = policy.resolve(origin, req);
    const allowOrigin = typeof resolved === 'string' || resolved === null ? resolved : await resolved;

    const headers: Array<[string, string]> = [];
    const vary: string[] = policy.variesByOrigin ? ['Origin'] : [];
    // A refused origin gets no Access-Control-* header at all: without Allow-Origin the browser
    // ignores them, and they would describe the API to anyone who asks.
    if (allowOrigin !== null) {
      headers.push(['access-control-allow-origin', allowOrigin]);
      if (credentials) headers.push(['access-control-allow-credentials', 'true']);
      if (exposedHeaders) headers.push(['access-control-expose-headers', exposedHeaders]);
      if (preflight) {
        headers.push(['access-control-allow-methods', methods]);
        if (allowedHeaders) {
          headers.push(['access-control-allow-headers', allowedHeaders]);
        } else {
          const requested = req.headers.get('access-control-request-headers');
          if (requested) headers.push(['access-control-allow-headers', requested]);
          vary.push('Access-Control-Request-Headers');
        }
        if (maxAge !== undefined) headers.push(['access-control-max-age', maxAge]);
      }
    }
    for (const [name, value] of headers) res.setHeader(name, value);
    for (const field of vary) appendVary(res, field);

    if (preflight && !preflightContinue) {
      res.body = null;
      return res.status(optionsSuccessStatus);
    }
    const response = await next();
    // A handler that replaced Vary (or answered with another response object) keeps the CORS
    // headers; one that set an Access-Control-* header itself keeps its own value.
    for (const [name, value] of headers) if (response.getHeader(name) === undefined) response.setHeader(name, value);
    for (const field of vary) appendVary(response, field);
    return response;
  };
}

/** `null` when `origin: false` turns the middleware off. */
function originPolicy(origin: CorsOrigin, credentials: boolean): OriginPolicy | null {
  if (origin === false) return null;
  if (origin === true) return { variesByOrigin: true, resolve: (requestOrigin) => (requestOrigin !== undefined && !isOpaque(requestOrigin) ? requestOrigin : null) };
  if (typeof origin === 'function') {
    return {
      variesByOrigin: true,
      resolve(requestOrigin, req) {
        if (requestOrigin === undefined) return null;
        const decided = origin(requestOrigin, req);
        return decided instanceof Promise ? decided.then((value) => fromDecision(value, requestOrigin)) : fromDecision(decided, requestOrigin);
      },
    };
  }
  const anyOrigin = origin === '*' || (Array.isArray(origin) && origin.includes('*'));
  if (anyOrigin) {
    if (credentials) {
      throw invalid(
        "credentials: true cannot be combined with origin '*': browsers refuse credentialed answers to any origin. " +
          'List the origins allowed to send credentials (or decide each with a function). ' +
          'Do not switch to origin: true: it lets every site read the answers with your users\' cookies.',
      );
    }
    return { variesByOrigin: false, resolve: () => '*' };
  }
  if (typeof origin === 'string') return { variesByOrigin: false, resolve: () => origin };
  const allowed = Array.isArray(origin) ? (origin as ReadonlyArray<string | RegExp>) : [origin as string | RegExp];
  for (const entry of allowed) {
    if (typeof entry !== 'string' && !(entry instanceof RegExp)) {
      throw invalid(`origin entries must be strings or regular expressions, got ${typeof entry}.`);
    }
  }
  return {
    variesByOrigin: true,
    resolve: (requestOrigin) => (requestOrigin !== undefined && allowed.some((entry) => matches(entry, requestOrigin)) ? requestOrigin : null),
  };
}

/**
 * `Origin: null` is sent by sandboxed iframes, `data:` and `file:` pages and some redirects: any
 * site can produce it. It is echoed only where the string `'null'` itself is listed or returned,
 * never because `true`, a pattern or a function's `true` let every origin through.
 */
function isOpaque(origin: string): boolean {
  return origin === 'null';
}

function matches(entry: string | RegExp, origin: string): boolean {
  if (typeof entry === 'string') return entry === origin;
  if (isOpaque(origin)) return false;
  // A global or sticky pattern remembers where it last matched; start every test afresh.
  entry.lastIndex = 0;
  return entry.test(origin);
}

function fromDecision(decision: boolean | string, requestOrigin: string): string | null {
  if (decision === true) return isOpaque(requestOrigin) ? null : requestOrigin;
  if (typeof decision === 'string' && decision !== '') return decision;
  return null;
}

function headerList(value: string | readonly string[] | undefined): string | undefined {
  const joined = typeof value === 'string' ? value : value?.join(',');
  return joined ? joined : undefined;
}

function invalid(message: string): TernError {
  return new TernError('TERN_INVALID_CORS_OPTIONS', `cors(): ${message}`);
}
