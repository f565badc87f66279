// `promises` is read on use: node:fs/promises loads with the first asset served, not with Tern.
import { promises as fsPromises } from 'node:fs';
import { join } from 'node:path';
import { nodeCrypto } from '../http/node-crypto';
import { onFirstUse } from '../http/on-first-use';
import { DOCS_CONFIG_ELEMENT_ID, docsInitDigest, DOCS_INIT_FILE, DOCS_INIT_SCRIPT } from './docs-init-script';

/**
 * Swagger UI, served by the app itself from the `swagger-ui-dist` package: no CDN, so the docs
 * page works offline and behind a strict firewall, and its version is the one in the lockfile.
 */

/** The files of swagger-ui-dist the docs pages use, with their content types. Nothing else is served. */
const ASSET_TYPES: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'oauth2-redirect.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

/** A week: the URLs carry swagger-ui-dist's version, so an upgrade changes them. */
export const ASSET_CACHE_CONTROL = 'public, max-age=604800';

export interface Asset {
  body: Buffer;
  contentType: string;
  /** A strong validator of the content, for `If-None-Match`. */
  etag: string;
}

/**
 * The directory of swagger-ui-dist. Its `absolute-path.js` is required alone: the package's
 * index also evaluates the 1.7 MB browser bundle in Node, for nothing.
 */
function swaggerUiDir(): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const getAbsoluteFSPath = require('swagger-ui-dist/absolute-path.js') as () => string;
  return getAbsoluteFSPath();
}

/** swagger-ui-dist's version, appended to asset URLs so browsers refetch after an upgrade. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const swaggerUiVersion = onFirstUse(() => String((require('swagger-ui-dist/package.json') as { version: string }).version));

/** Tern's own start-up script, served beside swagger-ui-dist's files; made on its first request. */
let initAsset: Promise<Asset> | undefined;

/** Assets read on first request, once per process (every app shares them), then kept in memory. */
const cache = new Map<string, Promise<Asset>>();

/**
 * The asset called `name`, or undefined when it is not one of the files the pages use (which
 * also answers any `..` or encoded-slash trick: only exact known names are looked up).
 */
export function swaggerUiAsset(name: string): Promise<Asset> | undefined {
  if (name === DOCS_INIT_FILE) {
    return (initAsset ??= Promise.resolve({ body: DOCS_INIT_SCRIPT, contentType: 'text/javascript; charset=utf-8', etag: `"${docsInitDigest()}"` }));
  }
  if (!Object.hasOwn(ASSET_TYPES, name)) return undefined;
  let asset = cache.get(name);
  if (!asset) {
    asset = fsPromises.readFile(join(swaggerUiDir(), name)).then((body) => ({
      body,
      contentType: ASSET_TYPES[name],
      etag: `"${nodeCrypto().createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
    }));
    // A failed read (a broken install) is retried by the next request rather than cached.
    asset.catch(() => cache.delete(name));
    cache.set(name, asset);
  }
  return asset;
}

export interface SwaggerUiPageOptions {
  /** `<title>` of the page. */
  title: string;
  /** Where the app serves its OpenAPI document. */
  openapiUrl: string;
  /** Where the assets are served, without a trailing slash (e.g. `/docs/assets`). */
  assetsUrl: string;
  /** Path of the OAuth2 redirect page; the page makes it absolute with the browser's origin. */
  oauth2RedirectPath: string;
}

/**
 * The Swagger UI page: the app's document, deep links, no validator badge (it would call
 * validator.swagger.io), no top bar (its URL box would let the page load other documents),
 * and PKCE for the authorization code flow. It has no inline script (see docs-init-script.ts):
 * the settings travel as a JSON data block, which browsers do not execute.
 */
export function swaggerUiHtml(options: SwaggerUiPageOptions): string {
  const v = encodeURIComponent(swaggerUiVersion());
  const assets = escapeHtml(options.assetsUrl);
  const config = {
    url: options.openapiUrl,
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    oauth2RedirectPath: options.oauth2RedirectPath,
  };
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)}</title>
<link rel="stylesheet" href="${assets}/swagger-ui.css?v=${v}">
<link rel="icon" type="image/png" href="${assets}/favicon-32x32.png?v=${v}" sizes="32x32">
<link rel="icon" type="image/png" href="${assets}/favicon-16x16.png?v=${v}" sizes="16x16">
</head>
<body>
<div id="swagger-ui"></div>
<script type="application/json" id="${DOCS_CONFIG_ELEMENT_ID}">${scriptJson(config)}</script>
<script src="${assets}/swagger-ui-bundle.js?v=${v}"></script>
<script src="${assets}/swagger-ui-standalone-preset.js?v=${v}"></script>
<script src="${assets}/${DOCS_INIT_FILE}?v=${docsInitDigest()}"></script>
</body>
</html>
`;
}

/** The page the OAuth2 server redirects to; swagger-ui-dist's script hands the result back to the docs page. */
export function oauth2RedirectHtml(assetsUrl: string): string {
  const v = encodeURIComponent(swaggerUiVersion());
  return `<!DOCTYPE html>
<html lang="en-US">
<head><meta charset="utf-8"><title>Swagger UI: OAuth2 Redirect</title></head>
<body>
<script src="${escapeHtml(assetsUrl)}/oauth2-redirect.js?v=${v}"></script>
</body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON that is safe inside a `<script>`: no `</script>`, `<!--`, or line separators that end it early. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
