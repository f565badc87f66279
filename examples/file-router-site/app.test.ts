import type { TernApp } from '@tern/core';
import { buildApp } from './app';

describe('file-router site', () => {
  let app: TernApp;
  beforeAll(() => {
    app = buildApp();
  });

  it('declares its routes from the routes folder', () => {
    expect(app.getAllRoutes().map((r) => `${r.methods.join(',')} ${r.rawPath} ${r.name}`)).toEqual([
      'GET / home',
      'GET /api api.index',
      'GET /api/posts api.posts.list',
      'POST /api/posts api.posts.create',
      'GET /api/posts/{slug:slug} api.posts.get',
      'GET /blog/{slug:slug} blog.post',
    ]);
    expect(app.urlFor('blog.post', { slug: 'hello-tern' })).toBe('/blog/hello-tern');
  });

  it('renders the home page with links to every post, titles escaped', async () => {
    const response = await app.inject('/');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toContain('<title>Tern Notes</title>');
    expect(response.body).toContain('<a class="post-link" href="/blog/hello-tern">Hello, Tern</a>');
    expect(response.body).toContain('<a class="post-link" href="/blog/templates-and-escaping">Templates &amp; &lt;escaping&gt;</a>');
  });

  it('renders a post page from its slug, never letting its text become markup', async () => {
    const response = await app.inject('/blog/templates-and-escaping');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<title>Templates &amp; &lt;escaping&gt; · Tern Notes</title>');
    expect(response.body).toContain('&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;');
    expect(response.body).not.toContain('<script>');
  });

  it('shows the custom 404 page for unknown pages and posts', async () => {
    for (const url of ['/no/such/page', '/blog/no-such-post']) {
      const response = await app.inject(url);
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.body).toContain('<h1>Page not found</h1>');
    }
    expect((await app.inject('/<b>x</b>')).body).toContain('<code>/&lt;b&gt;x&lt;/b&gt;</code>');
  });

  it('answers 422 for a slug the converter rejects', async () => {
    expect((await app.inject('/blog/Not_A_Slug')).statusCode).toBe(422);
  });

  it('serves the JSON API under /api, with JSON problems for its errors', async () => {
    expect((await app.inject('/api')).json().links.posts).toBe('/api/posts');
    const list = (await app.inject('/api/posts')).json();
    expect(list.map((p: { slug: string }) => p.slug)).toEqual(['templates-and-escaping', 'hello-tern']);
    expect(list[0].body).toBeUndefined();
    expect((await app.inject('/api/posts/hello-tern')).json()).toMatchObject({ title: 'Hello, Tern', body: expect.any(Array) });

    const missing = await app.inject('/api/posts/nope');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(missing.json()).toMatchObject({ status: 404, detail: "No post is called 'nope'." });
    expect((await app.inject('/api/nothing-here')).headers['content-type']).toBe('application/problem+json; charset=utf-8');
  });

  it('adds a post through the API and serves its page', async () => {
    const payload = { slug: 'third-post', title: 'Third', summary: 'More', body: ['Text'] };
    const created = await app.inject({ method: 'POST', url: '/api/posts', payload });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject(payload);
    expect((await app.inject({ method: 'POST', url: '/api/posts', payload })).statusCode).toBe(409);
    expect((await app.inject('/blog/third-post')).body).toContain('<h1>Third</h1>');

    const invalid = await app.inject({ method: 'POST', url: '/api/posts', payload: { slug: 'Bad Slug', title: '' } });
    expect(invalid.statusCode).toBe(422);
    expect(new Set(invalid.json().errors.map((e: { path: string }) => e.path))).toEqual(new Set(['body', 'slug', 'summary', 'title']));
  });

  it('answers 405 with Allow for a method a route file does not export', async () => {
    const response = await app.inject({ method: 'DELETE', url: '/api/posts' });
    expect([response.statusCode, response.headers.allow]).toEqual([405, 'GET, HEAD, POST']);
  });

  it('documents the API routes but not the pages', async () => {
    const document = (await app.inject('/openapi.json')).json();
    expect(Object.keys(document.paths).sort()).toEqual(['/api', '/api/posts', '/api/posts/{slug}']);
  });

  it('shows the custom 500 page without the error message', async () => {
    const broken = buildApp();
    broken.get('/explode', async () => {
      throw new Error('the database password is hunter2');
    });
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const response = await broken.inject('/explode');
    errors.mockRestore();
    expect(response.statusCode).toBe(500);
    expect(response.body).toContain('<h1>Something went wrong</h1>');
    expect(response.body).not.toContain('hunter2');
  });
});
