/**
 * What a site gets from core: form re-render on 422 (`formTemplate`), HTML error pages for page
 * requests (`errorPages`), a converter miss on a page being a 404, and exception handlers that
 * hand an error back to the default answer. Templates come from a tiny renderer plugged in with
 * `setTemplateRenderer` (the file router's nunjucks setup is tested in its own package).
 */
import { IsEmail, IsString, Length } from 'class-validator';
import { HTTPException, PAGE_HANDLER, setTemplateRenderer, TernApp, type Handler } from '@tern/core';

class ContactForm {
  @IsString() @Length(2, 50) name: string;
  @IsEmail() email: string;
  @IsString() @Length(10, 1000) message: string;
}

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** A page handler, as `render()` from @tern/file-router makes one. */
function page(handler: Handler): Handler {
  return Object.assign(handler, { [PAGE_HANDLER]: true });
}

beforeAll(() => {
  setTemplateRenderer((name, context) => `<template ${name}>${JSON.stringify(context)}`);
});
afterAll(() => setTemplateRenderer(undefined));

function contextOf(body: string): Record<string, unknown> {
  return JSON.parse(body.slice(body.indexOf('>') + 1));
}

describe('formTemplate: a form that fails validation is shown again', () => {
  function contactApp(): TernApp {
    const app = new TernApp({ logger: false });
    app.post(
      '/contact',
      { requestModel: ContactForm, consumes: ['application/x-www-form-urlencoded'], formTemplate: 'contact.html' },
      async (req, res) => res.redirect('/thanks', 303),
    );
    return app;
  }

  it('renders the template with the errors per field and the values sent, status 422', async () => {
    const response = await contactApp().inject({ method: 'POST', url: '/contact', headers: FORM, payload: 'name=A&email=nope&message=hi&message=again' });
    expect(response.statusCode).toBe(422);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body.startsWith('<template contact.html>')).toBe(true);
    const context = contextOf(response.body) as { errors: Record<string, string[]>; values: Record<string, unknown> };
    expect(Object.keys(context.errors).sort()).toEqual(['email', 'message', 'name']);
    expect(context.errors.email).toEqual([expect.stringContaining('email')]);
    expect(context.values).toEqual({ name: 'A', email: 'nope', message: ['hi', 'again'] });
  });

  it('runs the handler when the form is valid, and keeps JSON problems for other failures', async () => {
    const app = contactApp();
    const ok = await app.inject({ method: 'POST', url: '/contact', headers: FORM, payload: 'name=Ada&email=ada%40example.com&message=Hello%20there%2C%20Tern' });
    expect([ok.statusCode, ok.headers.location]).toEqual([303, '/thanks']);
    const wrongType = await app.inject({ method: 'POST', url: '/contact', headers: { 'content-type': 'text/plain' }, payload: 'x' });
    expect(wrongType.statusCode).toBe(415);
    expect(wrongType.headers['content-type']).toBe('application/problem+json; charset=utf-8');
  });

  it('refuses a formTemplate on a route without a requestModel at startup: nothing would ever show it', async () => {
    const app = new TernApp({ logger: false });
    app.post('/contact', { consumes: ['application/x-www-form-urlencoded'], formTemplate: 'contact.html' }, async () => 'sent');
    await expect(app.ready()).rejects.toMatchObject({
      code: 'TERN_INVALID_ROUTE_OPTION',
      message: expect.stringContaining('The formTemplate of POST /contact: formTemplate shows the form again when its requestModel rejects it, and this route has no requestModel'),
    });
  });

  it('refuses a formTemplate that is not a template name at startup', async () => {
    const app = new TernApp();
    app.post('/x', { requestModel: ContactForm, formTemplate: 42 as unknown as string }, async () => ({}));
    await expect(app.ready()).rejects.toMatchObject({ code: 'TERN_INVALID_ROUTE_OPTION', message: expect.stringContaining('formTemplate') });
  });
});

describe('errorPages: errors are pages for pages, problems for APIs', () => {
  function site(): TernApp {
    const app = new TernApp({ logger: false, errorPages: { 404: '404.html', default: 'error.html' } });
    app.get('/posts/{slug:slug}', page(async (req, res) => res.html('post')));
    app.post('/posts/{slug:slug}/comments', { requestModel: ContactForm, formTemplate: 'post.html' }, async () => ({}));
    app.get('/broken', page(async () => { throw new Error('database password is hunter2'); }));
    app.get('/big', page(async () => { throw new HTTPException(413, 'Too big'); }));
    app.get('/api/posts/{slug:slug}', async (req) => ({ slug: req.pathParams.slug }));
    app.get('/api/broken', async () => { throw new Error('boom'); });
    return app;
  }

  it('answers a browser with the status template, or the default one', async () => {
    const app = site();
    const cases: Array<[string, string, number, string]> = [
      ['GET', '/nowhere', 404, '404.html'],
      ['DELETE', '/posts/hello', 405, 'error.html'],
      ['GET', '/big', 413, 'error.html'],
      ['GET', '/broken', 500, 'error.html'],
    ];
    for (const [method, url, status, template] of cases) {
      const response = await app.inject({ method, url, headers: { accept: BROWSER } });
      expect([url, response.statusCode, response.headers['content-type']]).toEqual([url, status, 'text/html; charset=utf-8']);
      expect(response.body.startsWith(`<template ${template}>`)).toBe(true);
      expect(contextOf(response.body)).toMatchObject({ status, path: url });
    }
    const broken = await app.inject({ url: '/broken', headers: { accept: BROWSER } });
    expect(contextOf(broken.body)).toMatchObject({ title: 'Internal Server Error', detail: 'Internal Server Error' });
    expect(broken.body).not.toContain('hunter2');
    expect((await app.inject({ method: 'DELETE', url: '/posts/hello', headers: { accept: BROWSER } })).headers.allow).toBe('GET, HEAD');
  });

  it('gives 415 and 422 pages on page routes', async () => {
    const app2 = new TernApp({ logger: false, errorPages: { default: 'error.html' } });
    app2.post('/c', { requestModel: ContactForm, consumes: ['application/x-www-form-urlencoded'], produces: { 200: 'text/html' } }, async () => 'ok');
    const wrong = await app2.inject({ method: 'POST', url: '/c', headers: { accept: BROWSER, 'content-type': 'text/plain' }, payload: 'x' });
    expect([wrong.statusCode, wrong.body.startsWith('<template error.html>')]).toEqual([415, true]);
    const invalid = await app2.inject({ method: 'POST', url: '/c', headers: { accept: BROWSER, ...FORM }, payload: 'name=A' });
    expect([invalid.statusCode, invalid.body.startsWith('<template error.html>')]).toEqual([422, true]);
    expect((contextOf(invalid.body).errors as unknown[]).length).toBeGreaterThan(0);
  });

  it('keeps problem+json for API routes and for clients that do not ask for HTML', async () => {
    const app = site();
    for (const [url, accept] of [['/api/broken', BROWSER], ['/nowhere', 'application/json'], ['/nowhere', '*/*'], ['/broken', 'application/json, text/html;q=0.5']]) {
      const response = await app.inject({ url, headers: { accept } });
      expect([url, accept, response.headers['content-type']]).toEqual([url, accept, 'application/problem+json; charset=utf-8']);
    }
    const noAccept = await app.inject('/nowhere');
    expect(noAccept.headers['content-type']).toBe('application/problem+json; charset=utf-8');
  });

  it('makes a path value a page route cannot convert its 404, while API routes keep the 422', async () => {
    const app = site();
    const pageMiss = await app.inject({ url: '/posts/Hello_World', headers: { accept: BROWSER } });
    expect([pageMiss.statusCode, pageMiss.body.startsWith('<template 404.html>')]).toEqual([404, true]);
    expect((await app.inject('/posts/Hello_World')).json()).toMatchObject({ status: 404, code: 'TERN_NOT_FOUND' });
    expect((await app.inject('/api/posts/Hello_World')).json()).toMatchObject({ status: 422, code: 'TERN_INVALID_PATH_PARAM' });
  });

  it('falls back to the problem (and reports) when the error page fails to render', async () => {
    const errors: unknown[] = [];
    const app = new TernApp({ logger: { error: (...args: unknown[]) => errors.push(args) }, errorPages: { default: 'missing.html' } });
    setTemplateRenderer(() => {
      throw new Error('no such template');
    });
    try {
      const response = await app.inject({ url: '/nowhere', headers: { accept: BROWSER } });
      expect([response.statusCode, response.headers['content-type']]).toEqual([404, 'application/problem+json; charset=utf-8']);
      expect(errors).toHaveLength(1);
    } finally {
      setTemplateRenderer((name, context) => `<template ${name}>${JSON.stringify(context)}`);
    }
  });

  it('refuses errorPages keys that are not error statuses', () => {
    expect(() => new TernApp({ errorPages: { 200: 'ok.html' } })).toThrow(/200/);
    expect(() => new TernApp({ errorPages: { default: '' } })).toThrow(TypeError);
  });
});

describe('exception handlers can hand an error back to the default answer', () => {
  class NotInDb extends Error {}

  it('sends the default answer, unlogged, when a handler returns undefined', async () => {
    const logged: unknown[] = [];
    const app = new TernApp({ logger: { error: (...args: unknown[]) => logged.push(args) }, errorPages: { 404: '404.html' } });
    app.get('/api/items/{id:int}', async () => {
      throw new HTTPException(404, 'No such item');
    });
    app.get('/items/{id:int}', page(async () => { throw new NotInDb('gone'); }));
    // JSON for the API, Tern's default (its error page) elsewhere.
    app.addExceptionHandler(404, async (req, res, exc: HTTPException) => (req.path.startsWith('/api/') ? res.json({ error: exc.detail }, 404) : undefined));
    app.addExceptionHandler(NotInDb, async () => undefined);

    expect((await app.inject('/api/items/1')).json()).toEqual({ error: 'No such item' });
    const pageMiss = await app.inject({ url: '/nope', headers: { accept: BROWSER } });
    expect([pageMiss.statusCode, pageMiss.body.startsWith('<template 404.html>')]).toEqual([404, true]);
    const apiMiss = await app.inject('/nope');
    expect(apiMiss.json()).toMatchObject({ status: 404, code: 'TERN_NOT_FOUND' });
    const expected = await app.inject('/items/1');
    expect(expected.statusCode).toBe(500);
    expect(logged).toEqual([]);
  });
});

describe('template names the app declares, checked by ready()', () => {
  const KNOWN = new Set(['contact.html', 'error.html']);
  afterEach(() => setTemplateRenderer((name, context) => `<template ${name}>${JSON.stringify(context)}`));

  function app(errorPages: Record<string, string>, formTemplate: string): TernApp {
    const created = new TernApp({ logger: false, errorPages });
    created.post('/contact', { requestModel: ContactForm, consumes: ['application/x-www-form-urlencoded'], formTemplate }, async () => 'sent');
    return created;
  }

  it('refuses a name the renderer says it does not have, error pages first', async () => {
    setTemplateRenderer((name) => `<${name}>`, { has: (name) => KNOWN.has(name) });
    await expect(app({ 404: '404.html', default: 'error.html' }, 'contact.html').ready()).rejects.toMatchObject({
      code: 'TERN_TEMPLATE_NOT_FOUND',
      message: "errorPages[404]: there is no template '404.html'.",
    });
    await expect(app({ default: 'error.html' }, 'contakt.html').ready()).rejects.toMatchObject({
      code: 'TERN_TEMPLATE_NOT_FOUND',
      message: "The formTemplate of POST /contact: there is no template 'contakt.html'.",
    });
    await expect(app({ default: 'error.html' }, 'contact.html').ready()).resolves.toBeUndefined();
  });

  it('asks nothing of a renderer that cannot tell, and a request then gets what it renders', async () => {
    setTemplateRenderer((name) => `<${name}>`);
    const unchecked = app({ 404: '404.html' }, 'contakt.html');
    await expect(unchecked.ready()).resolves.toBeUndefined();
    const missing = await unchecked.inject({ url: '/nowhere', headers: { accept: BROWSER } });
    expect([missing.statusCode, missing.body]).toEqual([404, '<404.html>']);
  });
});

