import type { IncomingMessage, ServerResponse } from 'node:http';
import type { inject as LightInject, InjectOptions as LightInjectOptions } from 'light-my-request';
import type { UntypedJson } from '../http/request';
import { onFirstUse } from '../http/on-first-use';

/** light-my-request is only needed by tests: servers in production never pay to load it. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const loadInject = onFirstUse(() => (require('light-my-request') as { inject: typeof LightInject }).inject);

/** A request made by `app.inject()`. */
export interface InjectOptions {
  method?: string;
  url: string;
  headers?: Record<string, string | string[]>;
  /** A string or Buffer is sent as is; an object is sent as JSON with `content-type: application/json`. */
  payload?: string | Buffer | object;
  query?: Record<string, string | string[]>;
  cookies?: Record<string, string>;
  /** The peer address the app sees (`req.ip` without `trustProxy`); default `127.0.0.1`. */
  remoteAddress?: string;
}

/** What `app.inject()` resolves to: what a client would have received. */
export interface InjectResponse {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
  rawPayload: Buffer;
  json<T = UntypedJson>(): T;
  cookies: Array<{ name: string; value: string; [attribute: string]: unknown }>;
}

/**
 * Runs one request through a Node listener in memory (light-my-request), without a socket. The
 * listener sees the request target exactly as written, as a socket would deliver it:
 * light-my-request parses it with the WHATWG URL parser, which would resolve `/public/../admin`
 * to `/admin` and hide from tests what the router refuses over a real connection.
 */
export async function injectRequest(
  listener: (req: IncomingMessage, res: ServerResponse) => void,
  options: InjectOptions | string,
): Promise<InjectResponse> {
  const opts = typeof options === 'string' ? { url: options } : options;
  const target = exactTarget(opts);
  const exact = target === undefined ? listener : (req: IncomingMessage, res: ServerResponse) => {
    req.url = target;
    listener(req, res);
  };
  const response = await loadInject()(exact, {
    method: (opts.method ?? 'GET') as LightInjectOptions['method'],
    url: opts.url,
    headers: opts.headers,
    payload: opts.payload as LightInjectOptions['payload'],
    query: opts.query,
    cookies: opts.cookies,
    remoteAddress: opts.remoteAddress,
  });
  return {
    statusCode: response.statusCode,
    headers: response.headers,
    body: response.body,
    rawPayload: response.rawPayload,
    json: () => response.json(),
    cookies: response.cookies as InjectResponse['cookies'],
  };
}

/** The origin-form target a client would send for these options; undefined for absolute URLs. */
function exactTarget(opts: InjectOptions): string | undefined {
  if (!opts.url.startsWith('/')) return undefined;
  if (!opts.query) return opts.url;
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(opts.query)) {
    for (const item of Array.isArray(value) ? value : [value]) query.append(name, item);
  }
  const text = query.toString();
  if (!text) return opts.url;
  return `${opts.url}${opts.url.includes('?') ? '&' : '?'}${text}`;
}
