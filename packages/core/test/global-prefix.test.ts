/**
 * `new TernApp({ prefix: '/api' })`: one setting puts every route under the prefix (plain routes,
 * routers, controllers, mounted apps, static files, Tern's own document and docs page), and the
 * document's paths, `urlFor` and `getAllRoutes()` agree with what is served.
 */
import 'reflect-metadata';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Controller, Get, Group, Param, Router, serveStatic, TernApp } from '@tern/core';

@Controller('/articles', { tags: ['articles'] })
class ArticlesController {
  @Get('/{slug:slug}', { name: 'article' })
  async get(@Param('slug') slug: string) {
    return { slug };
  }
}

function apiApp(prefix: string = '/api'): TernApp {
  const app = new TernApp({ prefix });
  app.get('/tags', { name: 'tags' }, async () => ({ tags: ['tern'] }));
  const profiles = new Router({ prefix: '/profiles', name: 'profiles' });
  profiles.get('/{username}', { name: 'get' }, async (req, res, { username }) => ({ username }));
  app.mountRouter(profiles);
  app.registerControllers([ArticlesController]);
  app.addRoute(new Group({ path: '/legacy', app: (req: IncomingMessage, res: ServerResponse) => res.end(`legacy saw ${req.url}`) }));
  const folder = mkdtempSync(join(tmpdir(), 'tern-prefix-'));
  writeFileSync(join(folder, 'robots.txt'), 'User-agent: *');
  app.mountRouter(serveStatic(folder, { prefix: '/static' }));
  return app;
}

describe('new TernApp({ prefix })', () => {
  it('serves every kind of route under the prefix, and nothing outside it', async () => {
    const app = apiApp();
    expect((await app.inject('/api/tags')).json()).toEqual({ tags: ['tern'] });
    expect((await app.inject('/api/profiles/ada')).json()).toEqual({ username: 'ada' });
    expect((await app.inject('/api/articles/how-to-train')).json()).toEqual({ slug: 'how-to-train' });
    expect((await app.inject('/api/legacy/x?y=1')).body).toBe('legacy saw /x?y=1');
    expect((await app.inject('/api/static/robots.txt')).body).toBe('User-agent: *');
    for (const url of ['/tags', '/profiles/ada', '/articles/how-to-train', '/legacy/x', '/static/robots.txt', '/openapi.json', '/docs']) {
      expect([url, (await app.inject(url)).statusCode]).toEqual([url, 404]);
    }
  });

  it('lists the prefixed paths in getAllRoutes() and builds them with urlFor', async () => {
    const app = apiApp();
    const paths = app.getAllRoutes().map((route) => route.rawPath);
    expect(paths).toEqual(expect.arrayContaining(['/api/tags', '/api/profiles/{username}', '/api/articles/{slug:slug}', '/api/legacy/{path:path}']));
    expect(paths.every((path) => path.startsWith('/api/'))).toBe(true);
    expect(app.urlFor('tags')).toBe('/api/tags');
    expect(app.urlFor('profiles.get', { username: 'ada' })).toBe('/api/profiles/ada');
    expect(app.urlFor('article', { slug: 'hello' })).toBe('/api/articles/hello');
    await app.ready();
    expect(app.urlFor('article', { slug: 'hello' })).toBe('/api/articles/hello');
    expect((await app.inject(app.urlFor('article', { slug: 'hello' }))).json()).toEqual({ slug: 'hello' });
  });

  it('serves the document and the docs page under the prefix, with the paths it serves', async () => {
    const app = apiApp();
    const document = (await app.inject('/api/openapi.json')).json();
    expect(Object.keys(document.paths).sort()).toEqual(['/api/articles/{slug}', '/api/profiles/{username}', '/api/tags']);
    // The server is the page's own origin: "Try it out" sends each documented path to it as it is.
    expect(document.servers).toEqual([{ url: '/' }]);
    const page = await app.inject('/api/docs');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('"url":"/api/openapi.json"');
    expect(page.body).toContain('src="/api/docs/assets/swagger-ui-bundle.js?v=');
    expect((await app.inject('/api/docs/assets/swagger-ui.css')).statusCode).toBe(200);
    expect((await app.inject('/api/docs/oauth2-redirect.html')).statusCode).toBe(200);
  });

  it('composes with custom openapiPath and docsPath, and with a trailing slash', async () => {
    const app = new TernApp({ prefix: '/api/v1/', openapi: { openapiPath: '/schema.json', docsPath: '/reference' } });
    app.get('/', { name: 'root' }, async () => ({ root: true }));
    expect((await app.inject('/api/v1')).json()).toEqual({ root: true });
    expect(app.urlFor('root')).toBe('/api/v1');
    expect((await app.inject('/api/v1/schema.json')).json().paths).toHaveProperty(['/api/v1']);
    expect((await app.inject('/api/v1/reference')).body).toContain('"url":"/api/v1/schema.json"');
  });

  it.each([['/'], ['']])('%j is the same as no prefix', async (prefix) => {
    const app = new TernApp({ prefix });
    app.get('/tags', async () => ['tern']);
    expect((await app.inject('/tags')).json()).toEqual(['tern']);
    expect((await app.inject('/openapi.json')).statusCode).toBe(200);
  });

  it.each([['api'], ['/api/{tenant}'], ['/a b'], ['/api?x'], [42]])('refuses %j when the app is built', (prefix) => {
    expect(() => new TernApp({ prefix: prefix as string })).toThrow(expect.objectContaining({ code: 'TERN_INVALID_ARGUMENT', message: expect.stringContaining('prefix') }));
  });
});
