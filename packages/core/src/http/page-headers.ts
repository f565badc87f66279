/**
 * The security headers of the HTML Tern writes (`res.render()`, `res.html()`: pages, error pages,
 * re-rendered forms): `X-Content-Type-Options: nosniff`, so a browser never guesses a script or
 * a page out of a mislabelled body, and anti-framing (CSP `frame-ancestors`, with
 * `X-Frame-Options` for browsers that predate it), so a site's pages cannot be framed and
 * clicked through by another site (clickjacking gets past CSRF tokens: the click is the user's).
 */
import { TernTypeError } from '../errors';

/** Header name (lower case) → value. */
export type HeaderSet = Readonly<Record<string, string>>;

/**
 * `new TernApp({ pageHeaders })`: what every HTML response carries, or `false` for nothing.
 *
 * @example
 * new TernApp({ pageHeaders: { frameAncestors: ["'self'"] } });          // framed by its own pages only
 * new TernApp({ pageHeaders: { frameAncestors: ["'self'", 'https://portal.example'] } });
 */
export interface PageHeadersOptions {
  /** `X-Content-Type-Options: nosniff` (default true). */
  nosniff?: boolean;
  /**
   * Who may show the pages in a frame: the sources of CSP's `frame-ancestors` (default
   * `["'none'"]`, which also sends `X-Frame-Options: DENY`; `["'self'"]` sends `SAMEORIGIN`); `false`
   * sends neither header.
   */
  frameAncestors?: readonly string[] | false;
}

const SOURCE = /^(?:'none'|'self'|\*|[a-z][a-z0-9+.-]*:|(?:[a-z][a-z0-9+.-]*:\/\/)?(?:\*\.)?[a-z0-9.-]+(?::(?:\d+|\*))?)$/i;

/** Checks the option once, at `new TernApp()`; undefined means no header at all. */
export function pageHeaders(options: PageHeadersOptions | false | undefined): HeaderSet | undefined {
  if (options === false) return undefined;
  if (options !== undefined && (typeof options !== 'object' || options === null || Array.isArray(options))) {
    throw new TernTypeError('TERN_INVALID_ARGUMENT', 'pageHeaders must be false or { nosniff?, frameAncestors? }.');
  }
  const nosniff = options?.nosniff ?? true;
  const ancestors = options?.frameAncestors ?? ["'none'"];
  if (typeof nosniff !== 'boolean') throw new TernTypeError('TERN_INVALID_ARGUMENT', 'pageHeaders.nosniff must be a boolean.');
  if (ancestors !== false && (!Array.isArray(ancestors) || ancestors.length === 0 || !ancestors.every((s) => typeof s === 'string' && SOURCE.test(s)))) {
    throw new TernTypeError(
      'TERN_INVALID_ARGUMENT',
      `pageHeaders.frameAncestors must be false or a non-empty list of CSP sources ("'none'", "'self'", 'https://portal.example'), got ${JSON.stringify(ancestors)}.`,
    );
  }
  const headers: Record<string, string> = {};
  if (nosniff) headers['x-content-type-options'] = 'nosniff';
  if (ancestors !== false) Object.assign(headers, { 'content-security-policy': `frame-ancestors ${ancestors.join(' ')}` }, frameOptions(ancestors));
  return Object.keys(headers).length === 0 ? undefined : Object.freeze(headers);
}

/**
 * `X-Frame-Options` for browsers that predate CSP `frame-ancestors` (current ones ignore it when
 * the policy has `frame-ancestors`). It can only say DENY or SAMEORIGIN: a list naming other
 * origins gets none, since DENY would contradict it in the browsers that read it.
 */
export function frameOptions(frameAncestors: readonly string[]): HeaderSet {
  if (frameAncestors.length === 1 && frameAncestors[0] === "'none'") return { 'x-frame-options': 'DENY' };
  if (frameAncestors.length === 1 && frameAncestors[0] === "'self'") return { 'x-frame-options': 'SAMEORIGIN' };
  return {};
}

/** Adds the headers an HTML response lacks: one the app set itself (its own CSP) is kept as it is. */
export function addPageHeaders(headers: Record<string, string | string[]>, set: HeaderSet): void {
  for (const name in set) if (headers[name] === undefined) headers[name] = set[name];
}
