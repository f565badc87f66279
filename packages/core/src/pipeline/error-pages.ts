/**
 * HTML error pages for page requests: `new TernApp({ errorPages })` names a template per status
 * (and a `default`); a request gets one when the route that failed is a page (a `render()`
 * handler, a `formTemplate`, `produces` text/html), or no route matched, and its `Accept` prefers
 * HTML to JSON. API routes and non-browser clients keep `application/problem+json`.
 */
import { TernTypeError } from '../errors';
import { toProblem } from '../errors/problem';
import { HTTPException } from '../errors';
import type { MatchedRoute } from '../http/matched-route';
import type { TernRequest } from '../http/request';
import type { TernResponse } from '../http/response';

/**
 * Templates of the HTML error pages, by status, with `default` for every other error status. Each
 * renders with `{ status, title, detail, errors, path }` (`detail` of a 500 says only "Internal
 * Server Error" unless `debug` is on).
 *
 * @example
 * new TernApp({ errorPages: { 404: '404.html', default: 'error.html' } });
 */
export type ErrorPages = { readonly [status: number]: string; readonly default?: string };

export function checkErrorPages(pages: unknown): ErrorPages | undefined {
  if (pages === undefined) return undefined;
  if (typeof pages !== 'object' || pages === null || Array.isArray(pages)) {
    throw new TernTypeError('TERN_INVALID_ARGUMENT', "errorPages must map error statuses (or 'default') to template names.");
  }
  for (const [key, template] of Object.entries(pages)) {
    const status = Number(key);
    if (key !== 'default' && !(Number.isInteger(status) && status >= 400 && status <= 599)) {
      throw new TernTypeError('TERN_INVALID_ARGUMENT', `errorPages: '${key}' is neither an error status (400-599) nor 'default'.`);
    }
    if (typeof template !== 'string' || template === '') {
      throw new TernTypeError('TERN_INVALID_ARGUMENT', `errorPages: the template for ${key} must be a template name.`);
    }
  }
  return Object.freeze({ ...(pages as ErrorPages) });
}

/** True when the client asks for HTML at least as much as for JSON (a browser navigating does). */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept || !accept.includes('html')) return false;
  let html = 0;
  let json = 0;
  for (const part of accept.split(',').slice(0, 32)) {
    const [type, ...params] = part.trim().toLowerCase().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!(q > 0)) continue;
    if (type === 'text/html' || type === 'application/xhtml+xml') html = Math.max(html, q);
    else if (type === 'application/json' || type === 'application/problem+json') json = Math.max(json, q);
  }
  return html > 0 && html >= json;
}

/** Writes the error page for `err` when one applies; false leaves the answer to the problem writer. */
export function sendErrorPage(
  pages: ErrorPages | undefined,
  isPage: (route: MatchedRoute) => boolean,
  req: TernRequest,
  res: TernResponse,
  err: unknown,
  debug: boolean,
): boolean {
  if (pages === undefined) return false;
  const status = err instanceof HTTPException ? err.status : 500;
  const template = pages[status] ?? pages.default;
  if (template === undefined) return false;
  if (req.route !== undefined && !isPage(req.route)) return false;
  if (!prefersHtml(req.raw.headers.accept)) return false;
  const problem = toProblem(err, req.path, debug);
  const context = { status, title: problem.title, detail: problem.detail, errors: problem.errors ?? [], path: safePath(req.path) };
  res.render(template, context, status);
  if (err instanceof HTTPException && err.headers) {
    for (const [name, value] of Object.entries(err.headers)) res.setHeader(name, value);
  }
  return true;
}

function safePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
