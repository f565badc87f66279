/**
 * A small site served from a folder of route files (one `route.ts` per URL path): pages are
 * nunjucks templates, the JSON API lives under /api, and unknown pages get a custom 404 page.
 *
 *   routes/route.ts                      GET /                    home page
 *   routes/blog/{slug:slug}/route.ts     GET /blog/{slug:slug}    one post
 *   routes/api/route.ts                  GET /api                 API index
 *   routes/api/posts/route.ts            GET, POST /api/posts
 *   routes/api/posts/{slug:slug}/route.ts GET /api/posts/{slug:slug}
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { HTTPException, MakeConfig, TernApp, type TernRequest, type TernResponse } from '@tern/core';
import { configureTemplates, FileRouter } from '@tern/file-router';
import { exampleOpenAPI } from '../shared/openapi';

/**
 * The example's source folder. Run from sources (jest, ts-node) that is this file's folder;
 * compiled code runs from examples/dist/file-router-site, and tsc copies no templates, so it
 * looks beside the sources.
 */
const SOURCE_DIR = [__dirname, join(__dirname, '..', '..', 'file-router-site')].find((dir) => existsSync(join(dir, 'templates'))) as string;

export interface SiteOptions {
  /** Show error messages in 500 bodies and explain routing misses. Never in production. */
  debug?: boolean;
  /** Re-read templates on every render (for editing them with the server running). */
  autoReload?: boolean;
}

export function buildApp(options: SiteOptions = {}): TernApp {
  const app = new TernApp({
    config: new MakeConfig({ debug: options.debug ?? false }),
    openapi: exampleOpenAPI({
      title: 'Tern Notes API',
      description: 'The JSON API beside the notes site (its HTML pages are not part of the document).',
      tags: [
        { name: 'api', description: 'Where the resources are.' },
        { name: 'posts', description: 'Blog posts.' },
      ],
    }),
  });

  const templates = configureTemplates({ templateDir: join(SOURCE_DIR, 'templates'), autoReload: options.autoReload ?? false });
  // Templates link by route name: {{ urlFor('blog.post', { slug: post.slug }) }}.
  templates.addGlobal('urlFor', (name: string, params?: Record<string, unknown>) => app.urlFor(name, params));
  templates.addGlobal('siteName', 'Tern Notes');

  // Route files are compiled next to this file (routes/**/route.js in examples/dist).
  new FileRouter(app, { root: join(__dirname, 'routes') });

  app.addExceptionHandler(404, async (req, res, exc: HTTPException) =>
    isApi(req) ? problem(req, res, 404, exc.detail) : res.render('404.html', { path: decodeURIComponent(req.url.path) }, 404),
  );
  app.addExceptionHandler(500, async (req, res) => (isApi(req) ? problem(req, res, 500) : res.render('500.html', {}, 500)));
  return app;
}

/** The API keeps answering JSON problems; only pages get HTML error pages. */
function isApi(req: TernRequest): boolean {
  return req.url.path === '/api' || req.url.path.startsWith('/api/');
}

function problem(req: TernRequest, res: TernResponse, status: 404 | 500, detail?: string): TernResponse {
  const title = status === 404 ? 'Not Found' : 'Internal Server Error';
  const body = { type: 'about:blank', title, status, detail: status === 404 ? detail : title, instance: req.url.path };
  return res.send(JSON.stringify(body), 'application/problem+json; charset=utf-8', status);
}
