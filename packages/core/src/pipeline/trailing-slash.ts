/**
 * `new TernApp({ trailingSlash })`: what a path that misses only by its trailing slash gets.
 * `'strict'` (default): a 404, as any other path. `'ignore'`: the route is served at both.
 * `'redirect'`: a 308 to the route's own form, query string kept.
 */
import { TernTypeError } from '../errors';

/**
 * How every route treats a trailing slash; see `TernAppOptions.trailingSlash`.
 *
 * @example
 * const setting: TrailingSlash = 'redirect'; // GET /about/?x=1 → 308 /about?x=1
 */
export type TrailingSlash = 'strict' | 'redirect' | 'ignore';

export function checkTrailingSlash(value: unknown): TrailingSlash {
  if (value === undefined) return 'strict';
  if (value === 'strict' || value === 'redirect' || value === 'ignore') return value;
  throw new TernTypeError('TERN_INVALID_ARGUMENT', `trailingSlash must be 'strict', 'redirect' or 'ignore', got ${JSON.stringify(value)}.`);
}

/**
 * The same path with its trailing slash toggled (`/about/` ↔ `/about`), or undefined when there
 * is no other form, or it could be read as another host: a path starting `//` or holding a
 * backslash (`//evil.example/`, `/\\evil.example/`) is a network-path reference to browsers, so it
 * is never a redirect target.
 */
export function otherSlashForm(path: string): string | undefined {
  if (path === '/' || path.startsWith('//') || path.includes('\\') || /%5c/i.test(path)) return undefined;
  const other = path.endsWith('/') ? path.slice(0, -1) : `${path}/`;
  return other === '' || other.endsWith('//') ? undefined : other;
}

/** The redirect target: the other form with the query string kept; always a path on this host. */
export function slashRedirectLocation(otherPath: string, search: string): string {
  return search ? `${otherPath}?${search}` : otherPath;
}
