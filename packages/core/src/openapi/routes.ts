import { requestError } from '../errors/request-error';
import type { TernResponse } from '../http/response';
import type { Declaration } from '../routing/router';
import { joinPaths } from '../routing/path';
import { Routes } from '../routing/routes';
import type { Handler } from '../routing/types';
import type { RouteInfo } from '../routing/route-info';
import type { OpenAPIConfig } from './config';
import { docsHeaders, type DocsHeaders } from './docs-headers';
import type { HeaderSet } from '../http/page-headers';
import { ASSET_CACHE_CONTROL, oauth2RedirectHtml, swaggerUiAsset, swaggerUiHtml } from './docs-pages';
import { buildOpenAPIDocument, checkOpenAPIDocument, type DocumentOptions } from './document';
import { validateSecurityRequirements } from './security';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Tern's own routes: the OpenAPI document at `openapiPath` and Swagger UI at `docsPath` (with
 * its assets under `${docsPath}/assets/` and the OAuth2 redirect page). Every check of the
 * document runs here, in `app.ready()` (a mistake fails startup); the document is built and
 * serialized once, on its first request, then sent as the same bytes, and the docs page is made
 * on its first request too (it cannot fail).
 *
 * Both sit under the app's global `prefix`, as every route does.
 *
 * With `openapiPath: false` there is no document, so no docs page either; the routes' security
 * requirements are still checked (building the document checks them otherwise): a typo fails
 * startup whether or not a document is served.
 */
export function openapiDeclarations(routes: readonly RouteInfo[], config: OpenAPIConfig, options: DocumentOptions = {}, prefix = ''): Declaration[] {
  if (config.openapiPath === false) {
    validateSecurityRequirements(routes, config);
    return [];
  }
  // Under the app's global prefix, like every other route (the page links to these paths).
  const openapiPath = joinPaths([prefix], config.openapiPath);
  // Every error building the document can raise is raised here, in ready(); the document itself
  // is built on its first request (~20% of a 1,000-route ready() otherwise).
  checkOpenAPIDocument(routes, config, options);
  let document: Buffer | undefined;
  const headers = docsHeaders(config);
  const out: Declaration[] = [
    ownRoute(openapiPath, async (req, res) => {
      document ??= Buffer.from(JSON.stringify(buildOpenAPIDocument(routes, config, options)));
      return withHeaders(res, headers.file).send(document, JSON_TYPE);
    }),
  ];
  if (config.docsPath !== false) out.push(...swaggerUiRoutes(joinPaths([prefix], config.docsPath), openapiPath, config.title, headers));
  return out;
}

function swaggerUiRoutes(docsPath: string, openapiPath: string, title: string, headers: DocsHeaders): Declaration[] {
  const base = docsPath.replace(/\/+$/, '');
  const assetsUrl = `${base}/assets`;
  const oauth2RedirectPath = `${base}/oauth2-redirect.html`;
  // The redirect page is made here (it reads swagger-ui-dist's version: a missing package fails
  // ready()); the docs page on its first request, as it names the init script by its digest,
  // which would load node:crypto in every start (see docs-init-script.ts).
  const redirectPage = oauth2RedirectHtml(assetsUrl);
  let page: string | undefined;
  return [
    ownRoute(docsPath, async (req, res) => {
      page ??= swaggerUiHtml({ title: `${title} - Swagger UI`, openapiUrl: openapiPath, assetsUrl, oauth2RedirectPath });
      return withHeaders(res, headers.page).html(page);
    }),
    ownRoute(oauth2RedirectPath, async (req, res) => withHeaders(res, headers.redirectPage).html(redirectPage)),
    ownRoute(`${assetsUrl}/{file:path}`, async (req, res, { file }) => {
      const pending = swaggerUiAsset(file);
      if (!pending) throw requestError('TERN_NOT_FOUND', `No docs asset at ${req.path}.`, { headers: { ...headers.file } });
      const asset = await pending;
      withHeaders(res, headers.file).setHeader('Cache-Control', ASSET_CACHE_CONTROL).setHeader('ETag', asset.etag);
      if (matchesEtag(req.headers.get('if-none-match'), asset.etag)) return res.status(304);
      return res.send(asset.body, asset.contentType);
    }),
  ];
}

/** A GET route of Tern's own, left out of the document it serves. */
function ownRoute(path: string, handler: Handler): Routes {
  return new Routes({ path, methods: ['GET'], excludeFromSchema: true, handler });
}

function withHeaders(res: TernResponse, headers: HeaderSet): TernResponse {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  // The docs pages' set is complete as configured (`docsFrameAncestors`, `docsContentSecurityPolicy`): the app's `pageHeaders` do not add to it.
  res.pageHeaders = undefined;
  return res;
}

/** `If-None-Match` may list several tags, weak ones included (`W/"…"`), or be `*`. */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}
