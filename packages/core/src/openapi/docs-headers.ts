import type { OpenAPIConfig } from './config';
import { frameOptions, type HeaderSet } from '../http/page-headers';

/**
 * The security headers of Tern's docs responses, made once in `app.ready()`. Browsers render
 * `/docs` with the app's origin, so a script injected into it (through a description in the
 * document, a compromised asset, or a page framing it) would act as the app: the policy keeps
 * the page to the app's own files and the APIs the document describes.
 */

/** What each kind of docs response carries. */
export interface DocsHeaders {
  /** The Swagger UI page. */
  page: HeaderSet;
  /** The OAuth2 redirect page. */
  redirectPage: HeaderSet;
  /** Assets and the document: they are never rendered as pages, so only `nosniff` matters. */
  file: HeaderSet;
}

/** Every docs response: a browser must not guess a script or a page out of a mislabelled body. */
const NOSNIFF: HeaderSet = { 'x-content-type-options': 'nosniff' };

export function docsHeaders(config: OpenAPIConfig): DocsHeaders {
  const frame = frameOptions(config.docsFrameAncestors);
  const replaced = config.docsContentSecurityPolicy;
  const policy = (built: string): HeaderSet =>
    replaced === false ? {} : { 'content-security-policy': replaced ?? built };
  return {
    page: { ...NOSNIFF, ...frame, ...policy(swaggerUiPolicy(config)) },
    redirectPage: { ...NOSNIFF, ...frame, ...policy(redirectPagePolicy(config.docsFrameAncestors)) },
    file: NOSNIFF,
  };
}

/**
 * The Swagger UI page's policy.
 *
 * - `script-src 'self'`: the bundle, the preset and Tern's start-up script are files of the app;
 *   no inline script and no `'unsafe-eval'` (Swagger UI 5 runs without it; Chromium reports no
 *   violation, see examples/openapi-security/docs.e2e.test.ts).
 * - Styles: the stylesheet is a file, and `<style>`/`<link>` elements are held to it
 *   (`style-src-elem 'self'`). Swagger UI's own components need nothing more (they set styles
 *   through the DOM, which CSP does not govern), but the markdown of descriptions does: an
 *   aligned table column renders as `<td style="text-align:…">`, and HTML in a description may
 *   carry `style` attributes; Chromium blocks and reports each under `style-src 'self'`. So
 *   `style-src` has `'unsafe-inline'`, which CSP 3 browsers read only for attributes (an
 *   attribute styles its own element: it cannot select other elements to leak their content, and
 *   never runs code) and older browsers for everything, so the page still renders in them.
 * - `img-src 'self' data: blob:`: the stylesheet's icons are `data:` URLs, and "Try it out"
 *   shows an image response through a `blob:` URL.
 * - `connect-src` / `media-src`: the app itself (the document, and "Try it out" against a
 *   same-origin server), the origins of absolute `servers` URLs, the OAuth2 token and refresh
 *   URLs (Swagger UI fetches tokens from the page), and `docsConnectSrc`.
 * - `form-action 'self'`: Swagger UI's forms (Authorize) are handled by its script; none posts
 *   elsewhere. `base-uri 'none'`: the page needs no `<base>`.
 */
function swaggerUiPolicy(config: OpenAPIConfig): string {
  const apis = ["'self'", ...documentOrigins(config), ...config.docsConnectSrc];
  const unique = [...new Set(apis)].join(' ');
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "style-src-elem 'self'",
    "img-src 'self' data: blob:",
    `connect-src ${unique}`,
    `media-src ${unique}`,
    "form-action 'self'",
    "base-uri 'none'",
    `frame-ancestors ${config.docsFrameAncestors.join(' ')}`,
  ].join('; ');
}

/** The redirect page only runs swagger-ui-dist's `oauth2-redirect.js`, a file of the app. */
function redirectPagePolicy(frameAncestors: readonly string[]): string {
  return ["default-src 'none'", "script-src 'self'", "form-action 'none'", "base-uri 'none'", `frame-ancestors ${frameAncestors.join(' ')}`].join('; ');
}

/**
 * Origins the docs page talks to because the document names them: absolute `servers` URLs and
 * OAuth2 token and refresh URLs. Relative URLs are the app's own origin (`'self'`); URLs with
 * `{variables}` in their origin cannot be named and are left to `docsConnectSrc`.
 */
function documentOrigins(config: OpenAPIConfig): string[] {
  const urls = (config.servers ?? []).map((server) => server.url);
  for (const scheme of config.securitySchemes.values()) {
    const flows = (scheme.toOpenAPI() as { flows?: Record<string, { tokenUrl?: unknown; refreshUrl?: unknown }> }).flows ?? {};
    for (const flow of Object.values(flows)) urls.push(...[flow.tokenUrl, flow.refreshUrl].filter((url): url is string => typeof url === 'string'));
  }
  return urls.flatMap((url) => {
    const origin = httpOrigin(url);
    return origin ? [origin] : [];
  });
}

function httpOrigin(url: string): string | undefined {
  if (!/^https?:\/\//i.test(url)) return undefined;
  try {
    const parsed = new URL(url);
    // A `{variable}` in the host is percent-encoded by URL; such an origin is not the real one.
    return /[{}%]/.test(parsed.host) ? undefined : parsed.origin;
  } catch {
    return undefined;
  }
}
