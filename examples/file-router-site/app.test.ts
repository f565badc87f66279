import type { InjectResponse, TernApp } from '@tern/core';
import { render } from '@tern/file-router';
import { buildApp } from './app';
import { messages } from './messages';

/** What a browser sends when it navigates to a page. */
const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const FORM = 'application/x-www-form-urlencoded';

function cookiesOf(...responses: InjectResponse[]): string {
  return responses.flatMap((r) => r.cookies.map((c) => `${c.name}=${c.value}`)).join('; ');
}

describe('file-router site', () => {
  let app: TernApp;
  beforeAll(() => {
    app = buildApp();
  });

  it('declares its routes from the routes folder', () => {
    expect(app.getAllRoutes().map((r) => `${r.methods.join(',')} ${r.rawPath} ${r.name}`)).toEqual([
      'GET /static undefined',
      'GET /static/{path:path} undefined',
      'GET / home',
      'GET /about about',
      'GET /admin admin',
      'GET /api api.index',
      'GET /api/posts api.posts.list',
      'POST /api/posts api.posts.create',
      'GET /api/posts/{slug:slug} api.posts.get',
      'GET /blog/{slug:slug} blog.post',
      'GET /contact contact',
      'POST /contact contact.send',
      'GET /contact/thanks contact.thanks',
      'GET /login login',
      'POST /login login.check',
      'POST /logout logout',
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
    expect(response.body).toContain('<footer>Served by');
  });

  it('renders a post page from its slug, never letting its text become markup', async () => {
    const response = await app.inject('/blog/templates-and-escaping');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<title>Templates &amp; &lt;escaping&gt; · Tern Notes</title>');
    expect(response.body).toContain('&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;');
    expect(response.body).not.toContain('<script>');
  });

  it('serves its stylesheet from /static', async () => {
    const css = await app.inject('/static/site.css');
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.body).toContain('.field-error');
    // Pages link it by its fingerprinted URL, which browsers keep for a year.
    const href = /<link rel="stylesheet" href="([^"]+)">/.exec((await app.inject('/')).body)?.[1] as string;
    expect(href).toMatch(/^\/static\/[0-9a-f]{12}\/site\.css$/);
    const hashed = await app.inject(href);
    expect([hashed.statusCode, hashed.headers['cache-control'], hashed.body]).toEqual([200, 'public, max-age=31536000, immutable', css.body]);
  });

  it('shows the 404 page to browsers for unknown pages, posts and slugs that cannot be one', async () => {
    for (const url of ['/no/such/page', '/blog/no-such-post', '/blog/Hello_World']) {
      const response = await app.inject({ url, headers: BROWSER });
      expect([url, response.statusCode, response.headers['content-type']]).toEqual([url, 404, 'text/html; charset=utf-8']);
      expect(response.body).toContain('<h1>Page not found</h1>');
    }
    expect((await app.inject({ url: '/<b>x</b>', headers: BROWSER })).body).toContain('<code>/&lt;b&gt;x&lt;/b&gt;</code>');
  });

  it('shows error pages for 405 and 500, without the error message', async () => {
    const notAllowed = await app.inject({ method: 'DELETE', url: '/about', headers: BROWSER });
    expect([notAllowed.statusCode, notAllowed.headers.allow]).toEqual([405, 'GET, HEAD']);
    expect(notAllowed.body).toContain('<h1>Method Not Allowed</h1>');

    const broken = buildApp();
    broken.get(
      '/explode',
      render('about.html', async () => {
        throw new Error('the database password is hunter2');
      }),
    );
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const response = await broken.inject({ url: '/explode', headers: BROWSER });
    errors.mockRestore();
    expect(response.statusCode).toBe(500);
    expect(response.body).toContain('<h1>Internal Server Error</h1>');
    expect(response.body).not.toContain('hunter2');
  });

  it('redirects /about/ to /about, keeping the query, and never to another host', async () => {
    const response = await app.inject('/about/?from=nav');
    expect([response.statusCode, response.headers.location]).toEqual([308, '/about?from=nav']);
    expect((await app.inject('//evil.example/')).headers.location).toBeUndefined();
  });

  it('serves the JSON API under /api, with JSON problems for its errors', async () => {
    expect((await app.inject('/api')).json().links.posts).toBe('/api/posts');
    const list = (await app.inject('/api/posts')).json();
    expect(list.map((p: { slug: string }) => p.slug)).toEqual(['templates-and-escaping', 'hello-tern']);
    expect(list[0].body).toBeUndefined();
    expect((await app.inject('/api/posts/hello-tern')).json()).toMatchObject({ title: 'Hello, Tern', body: expect.any(Array) });

    const missing = await app.inject({ url: '/api/posts/nope', headers: BROWSER });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(missing.json()).toMatchObject({ status: 404, detail: "No post is called 'nope'." });
    expect((await app.inject('/api/posts/Not_A_Slug')).statusCode).toBe(422);
    expect((await app.inject('/api/nothing-here')).headers['content-type']).toBe('application/problem+json; charset=utf-8');
  });

  it('adds a post through the API (no CSRF token: the API takes no cookies) and serves its page', async () => {
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

  describe('the contact form', () => {
    async function openForm(): Promise<{ page: InjectResponse; token: string }> {
      const page = await app.inject({ url: '/contact', headers: BROWSER });
      expect(page.statusCode).toBe(200);
      const token = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1];
      expect(token).toBeDefined();
      return { page, token: token as string };
    }

    it('shows the form again with the errors per field and what was typed, status 422', async () => {
      const { page, token } = await openForm();
      const response = await app.inject({
        method: 'POST',
        url: '/contact',
        headers: { ...BROWSER, cookie: cookiesOf(page), 'content-type': FORM },
        payload: new URLSearchParams({ _csrf: token, name: '"><script>alert(1)</script>', email: 'ada@example', message: 'hi' }).toString(),
      });
      expect(response.statusCode).toBe(422);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.body).not.toContain('id="name-error"');
      expect(response.body).toContain('<p class="field-error" id="email-error">Please give an email address we can answer.</p>');
      expect(response.body).toContain('<p class="field-error" id="message-error">A message is 10 to 2000 characters long.</p>');
      expect(response.body).toContain('<input id="email" name="email" type="email" value="ada@example">');
      expect(response.body).toContain('<input id="name" name="name" value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">');
      expect(response.body).toContain('>hi</textarea>');
      expect(response.body).toContain(`name="_csrf" value="${token}"`);
    });

    it('accepts a valid form, redirects, and greets the sender once with a flash message', async () => {
      const { page, token } = await openForm();
      const before = messages().length;
      const sent = await app.inject({
        method: 'POST',
        url: '/contact',
        headers: { ...BROWSER, cookie: cookiesOf(page), 'content-type': FORM },
        payload: new URLSearchParams({ _csrf: token, name: 'Ada <Lovelace>', email: 'ada@example.com', message: 'Hello from the engine room.' }).toString(),
      });
      expect([sent.statusCode, sent.headers.location]).toEqual([303, '/contact/thanks']);
      expect(messages().length).toBe(before + 1);

      const thanks = await app.inject({ url: '/contact/thanks', headers: { ...BROWSER, cookie: cookiesOf(page, sent) } });
      expect(thanks.body).toContain('<p class="flash flash-success">Thanks, Ada &lt;Lovelace&gt;! We will answer at ada@example.com.</p>');
      // The message waited in the session: no flash cookie to replay.
      expect([...sent.cookies, ...thanks.cookies].map((c) => c.name)).not.toContain('tern_flash');
      const again = await app.inject({ url: '/contact/thanks', headers: { ...BROWSER, cookie: cookiesOf(page, sent) } });
      expect(again.body).toContain('<p>Your message was sent.</p>');
    });

    it('refuses a form without this site\'s token with the 403 page', async () => {
      const { page } = await openForm();
      const forged = await app.inject({
        method: 'POST',
        url: '/contact',
        headers: { ...BROWSER, cookie: cookiesOf(page), 'content-type': FORM },
        payload: 'name=Mallory&email=m%40evil.example&message=Send%20me%20everything',
      });
      expect(forged.statusCode).toBe(403);
      expect(forged.body).toContain('<h1>Request refused</h1>');
      const fromScript = await app.inject({ method: 'POST', url: '/contact', headers: { 'content-type': FORM }, payload: 'name=x' });
      expect(fromScript.json()).toMatchObject({ status: 403, code: 'TERN_CSRF_INVALID' });
    });
  });

  describe('signing in', () => {
    async function signIn(password: string, cookie?: string, login = 'ada') {
      const form = await app.inject({ url: '/login', headers: { ...BROWSER, ...(cookie ? { cookie } : {}) } });
      const token = /name="_csrf" value="([^"]+)"/.exec(form.body)?.[1] as string;
      const jar = cookie ?? cookiesOf(form);
      const answer = await app.inject({
        method: 'POST',
        url: '/login',
        headers: { ...BROWSER, cookie: jar, 'content-type': FORM },
        payload: new URLSearchParams({ _csrf: token, login, password }).toString(),
      });
      return { form, answer, jar };
    }

    it('keeps the author in a server-side session: a new session id on sign-in, gone on sign-out', async () => {
      const { form, answer } = await signIn('correct horse battery staple');
      expect([answer.statusCode, answer.headers.location]).toEqual([303, '/']);
      const before = form.cookies.find((c) => c.name === 'tern_session')?.value;
      const after = answer.cookies.find((c) => c.name === 'tern_session');
      expect(after).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
      // regenerate(): the id from before sign-in does not carry the author.
      expect(after?.value.split('.')[0]).not.toBe(before?.split('.')[0]);
      // The cookie is an id and its signature: nothing an author could edit to become another.
      expect(after?.value).toMatch(/^[\w-]+\.[\w-]+$/);
      const cookie = `tern_session=${after?.value}`;
      const home = await app.inject({ url: '/', headers: { ...BROWSER, cookie } });
      expect(home.body).toContain('<span>Ada</span> <button type="submit">Sign out</button>');
      expect((await app.inject({ url: '/', headers: { ...BROWSER, cookie: `tern_session=${before}` } })).body).toContain('>Sign in</a>');

      const token = /name="_csrf" value="([^"]+)"/.exec(home.body)?.[1] as string;
      const out = await app.inject({ method: 'POST', url: '/logout', headers: { ...BROWSER, cookie, 'content-type': FORM }, payload: `_csrf=${encodeURIComponent(token)}` });
      expect(out.statusCode).toBe(303);
      expect(out.cookies.find((c) => c.name === 'tern_session')).toMatchObject({ value: '', maxAge: 0 });
      expect((await app.inject({ url: '/', headers: { ...BROWSER, cookie } })).body).toContain('>Sign in</a>');
    });

    it('shows the form again for a wrong password, and answers 429 after five tries a minute', async () => {
      const site = buildApp();
      const original = app;
      app = site;
      try {
        const first = await signIn('wrong');
        expect(first.answer.statusCode).toBe(401);
        expect(first.answer.body).toContain('That name and password do not match.');
        for (let i = 0; i < 4; i++) await signIn('wrong', first.jar);
        const limited = await signIn('correct horse battery staple', first.jar);
        expect(limited.answer.statusCode).toBe(429);
        expect(limited.answer.headers['retry-after']).toMatch(/^\d+$/);
      } finally {
        app = original;
      }
    });

    describe('the admin folder (routes/admin/_middleware.ts)', () => {
      async function sessionOf(login: string, password: string): Promise<string> {
        const { answer } = await signIn(password, undefined, login);
        expect(answer.statusCode).toBe(303);
        return `tern_session=${answer.cookies.find((c) => c.name === 'tern_session')?.value}`;
      }

      it('answers a visitor who is not signed in with 401: the sign-in link for browsers, problem+json for scripts', async () => {
        const page = await app.inject({ url: '/admin', headers: BROWSER });
        expect([page.statusCode, page.headers['content-type']]).toEqual([401, 'text/html; charset=utf-8']);
        expect(page.body).toContain('<h1>Sign in first</h1>');
        expect(page.body).toContain('<a class="back" href="/login">Sign in</a>');
        expect(page.body).not.toContain('posts by');
        const script = await app.inject('/admin');
        expect(script.json()).toMatchObject({ status: 401, detail: 'Sign in to see this page.' });
        // A forged session cookie is no sign-in.
        expect((await app.inject({ url: '/admin', headers: { ...BROWSER, cookie: 'tern_session=forged.value' } })).statusCode).toBe(401);
      });

      it('refuses a signed-in author without the admin role with the 403 page', async () => {
        const cookie = await sessionOf('grace', 'analytical engine notes');
        const page = await app.inject({ url: '/admin', headers: { ...BROWSER, cookie } });
        expect(page.statusCode).toBe(403);
        expect(page.body).toContain('<span>Grace</span>');
        expect(page.body).toContain('This page is for admins only. Ask an admin if you need it.');
        expect(page.body).not.toContain('posts by');
        expect((await app.inject({ url: '/admin', headers: { cookie } })).json()).toMatchObject({ status: 403, detail: 'This page is for admins only.' });
      });

      it('shows the page to an admin, and not after she signs out', async () => {
        const cookie = await sessionOf('ada', 'correct horse battery staple');
        const page = await app.inject({ url: '/admin', headers: { ...BROWSER, cookie } });
        expect(page.statusCode).toBe(200);
        expect(page.body).toMatch(/<p>\d+ posts by 2 authors\.<\/p>/);

        const token = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1] as string;
        await app.inject({ method: 'POST', url: '/logout', headers: { ...BROWSER, cookie, 'content-type': FORM }, payload: `_csrf=${encodeURIComponent(token)}` });
        expect((await app.inject({ url: '/admin', headers: { ...BROWSER, cookie } })).statusCode).toBe(401);
      });
    });
  });
});
