import { TernApp, type TrailingSlash } from '@tern/core';

function app(trailingSlash?: TrailingSlash): TernApp {
  const app = new TernApp({ trailingSlash });
  app.get('/about', async () => 'about');
  app.get('/guide/', async () => 'guide');
  app.post('/contact', async () => 'sent');
  app.get('/files/{rest:path}', async (req) => ({ rest: req.pathParams.rest }));
  app.get('/', async () => 'home');
  return app;
}

describe('trailingSlash: one setting for every route', () => {
  it("'strict' (the default) answers 404 for the other form", async () => {
    const strict = app();
    expect((await strict.inject('/about/')).statusCode).toBe(404);
    expect((await strict.inject('/guide')).statusCode).toBe(404);
    expect((await strict.inject('/about')).body).toBe('about');
  });

  it("'ignore' serves the route at both forms", async () => {
    const loose = app('ignore');
    expect((await loose.inject('/about/')).body).toBe('about');
    expect((await loose.inject('/guide')).body).toBe('guide');
    expect((await loose.inject({ method: 'POST', url: '/contact/' })).body).toBe('sent');
    const wrongMethod = await loose.inject({ method: 'PUT', url: '/contact/' });
    expect([wrongMethod.statusCode, wrongMethod.headers.allow]).toEqual([405, 'POST']);
    expect((await loose.inject('/nothing/')).statusCode).toBe(404);
  });

  it("'redirect' answers 308 to the route's own form, keeping the query string", async () => {
    const redirecting = app('redirect');
    const about = await redirecting.inject('/about/?ref=home&x=%20y');
    expect([about.statusCode, about.headers.location]).toEqual([308, '/about?ref=home&x=%20y']);
    const docs = await redirecting.inject('/guide');
    expect([docs.statusCode, docs.headers.location]).toEqual([308, '/guide/']);
    const post = await redirecting.inject({ method: 'POST', url: '/contact/' });
    expect([post.statusCode, post.headers.location]).toEqual([308, '/contact']);
    expect((await redirecting.inject('/about')).statusCode).toBe(200);
    expect((await redirecting.inject('/files/a/b/')).json()).toEqual({ rest: 'a/b/' });
    expect((await redirecting.inject('/nothing/')).statusCode).toBe(404);
  });

  it('never redirects to another host', async () => {
    const redirecting = new TernApp({ trailingSlash: 'redirect' });
    redirecting.get('/{site}', async (req) => ({ site: req.pathParams.site }));
    redirecting.get('/{a}/{b}', async (req) => req.pathParams);
    for (const url of ['//evil.example/', '//evil.example', '/\\evil.example/', '/%5Cevil.example/', '///evil.example/']) {
      const response = await redirecting.inject(url);
      expect([url, response.headers.location]).toEqual([url, undefined]);
    }
    // A same-host path is still redirected, and stays a path.
    const own = await redirecting.inject('/news/?page=2');
    expect([own.statusCode, own.headers.location]).toEqual([308, '/news?page=2']);
  });

  it('refuses an unknown setting', () => {
    expect(() => new TernApp({ trailingSlash: 'loose' as TrailingSlash })).toThrow(/trailingSlash/);
  });
});
