/**
 * A small team blog served from a folder of route files (one `route.ts` per URL path): pages are
 * nunjucks templates, the JSON API lives under /api, static files under /static.
 *
 *   routes/route.ts                       GET /                     home page
 *   routes/about/route.ts                 GET /about                about page
 *   routes/contact/route.ts               GET, POST /contact        contact form (re-rendered on 422, CSRF-protected)
 *   routes/contact/thanks/route.ts        GET /contact/thanks       greets the sender (flash message)
 *   routes/login/route.ts                 GET, POST /login          sign-in form (a session, rate-limited)
 *   routes/logout/route.ts                POST /logout              ends the session
 *   routes/admin/_middleware.ts                                     admins only under /admin: 401 signed out, 403 without the role
 *   routes/admin/route.ts                 GET /admin                the admins' overview
 *   routes/blog/{slug:slug}/route.ts      GET /blog/{slug:slug}     one post
 *   routes/api/route.ts                   GET /api                  API index
 *   routes/api/posts/route.ts             GET, POST /api/posts
 *   routes/api/posts/{slug:slug}/route.ts GET /api/posts/{slug:slug}
 *
 * Browsers get HTML error pages (templates/401.html, 403.html, 404.html, error.html); the API and other
 * clients get problem+json. `/about/` redirects to `/about`.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { csrf, MakeConfig, serveStatic, session, TernApp, type TernStore } from '@tern/core';
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
  /** Signs the CSRF and flash cookies; set it (from the environment) when several processes serve the site. */
  secret?: string;
  /** Signs the session cookie (32 characters or more); default one drawn per process. */
  sessionSecret?: string;
  /** Where sessions and the sign-in rate limit live (default memory; `redisStore()` for several processes). */
  store?: TernStore;
}

export function buildApp(options: SiteOptions = {}): TernApp {
  const app = new TernApp({
    config: new MakeConfig({ debug: options.debug ?? false, secret: options.secret }),
    // Pages (render() routes, formTemplate routes) and unmatched paths answer browsers with these.
    errorPages: { 401: '401.html', 403: '403.html', 404: '404.html', default: 'error.html' },
    trailingSlash: 'redirect',
    store: options.store,
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

  // Signed-in authors are remembered in a server-side session (the cookie holds only its id);
  // every page's template sees `author`. Before csrf(), which then ties its tokens to the session.
  app.addMiddleware(session({ secret: options.sessionSecret ?? randomBytes(32).toString('base64url') }));
  app.addMiddleware(async (req, res, next) => {
    res.locals.author = req.session.get<string>('author');
    return next();
  });
  // Forms need a token from this site's own pages. The JSON API takes no cookies (a real one
  // would use bearer tokens), so a forged cross-site request could not act as anybody there.
  app.addMiddleware(csrf({ ignore: (req) => req.path === '/api' || req.path.startsWith('/api/') }));
  // Pages link the stylesheet by its fingerprinted URL ({{ asset('site.css') }}), cached for a year.
  app.mountRouter(serveStatic(join(SOURCE_DIR, 'public'), { prefix: '/static', maxAge: '1h', fingerprint: true }));
  // Route files are compiled next to this file (routes/**/route.js in examples/dist).
  new FileRouter(app, { root: join(__dirname, 'routes') });
  return app;
}
