/**
 * What a visitor's browser does with a site's pages (Debian's headless Chromium): another site
 * cannot frame them, and a form refused by `csrf()` comes back as the site's own 403 page, whose
 * layout prints the CSRF field, so the visitor can send it again.
 */
import { csrf, HTTPException, MakeConfig, serveStatic, TernApp, type TernAppOptions } from '@tern/core';
import { configureTemplates, FormError, render } from '@tern/file-router';
import { CommentForm } from './support/comment';
import { chromiumAvailable, serveInBrowser, type BrowserSession } from '../../../test-support/browser';
import { makeTree, removeTrees } from './support/tree';

const LAYOUT = '<!doctype html><html><head><title>{% block title %}Site{% endblock %}</title></head><body><nav><form method="post" action="/logout">{{ csrfField() }}<button>Log out</button></form></nav>{% block main %}{% endblock %}</body></html>';

const TEMPLATES = {
  'base.html': LAYOUT,
  'home.html': '{% extends "base.html" %}{% block main %}<h1>Home</h1>{% endblock %}',
  'note.html': '{% extends "base.html" %}{% block main %}<h1>Note</h1><form id="note" method="post">{{ csrfField() }}<input name="text" value="hi"><button>Save</button></form>{% endblock %}',
  '403.html': '{% extends "base.html" %}{% block title %}Refused{% endblock %}{% block main %}<h1>{{ status }} {{ title }}</h1><p id="detail">{{ detail }}</p><form id="again" method="post" action="/note">{{ csrfField() }}<input name="text" value="again"><button>Try again</button></form>{% endblock %}',
  'error.html': '{% extends "base.html" %}{% block main %}<h1>{{ status }}</h1>{% endblock %}',
  '404.html': '{% extends "base.html" %}{% block title %}Not found{% endblock %}{% block main %}<h1>Nothing at {{ path }}</h1>{% endblock %}',
  'public/site.css': 'body { color: navy; }',
  'assets/css/site.css': 'h1 { color: rgb(0, 128, 0); }',
  'styled.html': '<!doctype html><html><head><title>Styled</title><link rel="stylesheet" href="{{ asset(\'css/site.css\') }}"></head><body><h1>Green</h1></body></html>',
  'post.html':
    '{% extends "base.html" %}{% block title %}{{ post.title }}{% endblock %}{% block main %}<h1>{{ post.title }}</h1>' +
    '<ul id="comments">{% for c in post.comments %}<li>{{ c.name }}: {{ c.text }}</li>{% endfor %}</ul>' +
    '<form id="comment" method="post">{{ csrfField() }}<input name="name" value="{{ values.name }}">{% for m in errors.name %}<p class="error">{{ m }}</p>{% endfor %}' +
    '<textarea name="text">{{ values.text }}</textarea>{% for m in errors.text %}<p class="error">{{ m }}</p>{% endfor %}<button>Comment</button></form>{% endblock %}',
};

jest.setTimeout(60_000);
afterAll(removeTrees);

function site(options: TernAppOptions = {}): TernApp {
  const root = makeTree(Object.fromEntries(Object.entries(TEMPLATES).map(([name, src]) => [name, src])));
  configureTemplates({ templateDir: root });
  const app = new TernApp({ logger: false, config: new MakeConfig({ secret: 'a-secret-for-these-pages' }), errorPages: { 403: '403.html', 404: '404.html', default: 'error.html' }, ...options });
  app.addMiddleware(csrf());
  app.mountRouter(serveStatic(`${root}/public`, { prefix: '/static' }));
  app.mountRouter(serveStatic(`${root}/assets`, { prefix: '/assets', fingerprint: true }));
  app.get('/styled', render('styled.html', async () => ({})));
  app.get('/', render('home.html', async () => ({})));
  app.get('/note', render('note.html', async () => ({})));
  app.post('/note', { produces: { 200: 'text/html' } }, async (req, res) => res.html(`<h1 id="saved">Saved: ${(await req.form()).text}</h1>`));
  // A post with a comment form under it: a rejected comment shows the post again, with the errors.
  const posts: Record<string, { title: string; comments: Array<{ name: string; text: string }> }> = { hello: { title: 'Hello, Tern', comments: [] } };
  const loadPost = async (req: { pathParams: { slug?: unknown } }) => {
    const post = posts[String(req.pathParams.slug)];
    if (!post) throw new HTTPException(404);
    return { post, values: {}, errors: {} };
  };
  app.get('/posts/{slug}', render('post.html', loadPost));
  app.post(
    '/posts/{slug}',
    { requestModel: CommentForm, consumes: ['application/x-www-form-urlencoded'], formTemplate: 'post.html', formContext: loadPost },
    async (req, res) => {
      const { name, text } = req.body as CommentForm;
      if (name === 'admin') throw new FormError({ name: ['That name is taken.'] });
      (await loadPost(req)).post.comments.push({ name, text });
      return res.redirect(req.path, 303);
    },
  );
  // A page of another origin (the same server reached as localhost) that frames the site's home page.
  app.get('/framer', async (req, res) => res.html(`<iframe id="victim" src="${String(req.queryParams.get('src'))}"></iframe>`));
  return app;
}

const describeInBrowser = chromiumAvailable() ? describe : describe.skip;
if (!chromiumAvailable()) console.log('site-pages.e2e: skipped, Chromium is not installed (set CHROMIUM_PATH)');

describeInBrowser('site pages in Chromium', () => {
  let session: BrowserSession | undefined;
  afterEach(async () => {
    await session?.close();
    session = undefined;
  });

  async function framedHome(options: TernAppOptions): Promise<string | null> {
    session = await serveInBrowser(site(options));
    const { page, origin } = session;
    const port = new URL(origin).port;
    await page.goto(`http://localhost:${port}/framer?src=${encodeURIComponent(`${origin}/`)}`);
    const frame = page.frame({ url: `${origin}/` });
    if (!frame) return null;
    return frame.locator('h1').textContent({ timeout: 2000 }).catch(() => null);
  }

  it('another site cannot show the pages in a frame (frame-ancestors and X-Frame-Options by default)', async () => {
    // Without the headers the frame shows the page: the check below can see a difference.
    expect(await framedHome({ pageHeaders: false })).toBe('Home');
    await session?.close();
    session = undefined;
    expect(await framedHome({})).toBeNull();
  });

  it('a refused form comes back as the 403 page with a working form, its layout printing the CSRF field', async () => {
    session = await serveInBrowser(site());
    const { page, origin } = session;
    await page.goto(`${origin}/note`);
    // The visitor's cookie is lost (expired, cleared): the form's token no longer matches one.
    await page.context().clearCookies();
    const [refused] = await Promise.all([page.waitForNavigation(), page.locator('#note button').click()]);
    expect(refused?.status()).toBe(403);
    expect(await page.title()).toBe('Refused');
    expect(await page.locator('h1').textContent()).toBe('403 Forbidden');
    expect(await page.locator('nav input[name="_csrf"]').count()).toBe(1);
    // The 403 page set a fresh cookie that matches its own forms: sending again works.
    const [again] = await Promise.all([page.waitForNavigation(), page.locator('#again button').click()]);
    expect(again?.status()).toBe(200);
    expect(await page.locator('#saved').textContent()).toBe('Saved: again');
  });

  it("a missing static file a visitor navigates to is the site's 404 page; a stylesheet request keeps the problem", async () => {
    const app = site();
    session = await serveInBrowser(app);
    const { page, origin } = session;
    expect((await page.goto(`${origin}/static/site.css`))?.status()).toBe(200);
    const missing = await page.goto(`${origin}/static/nope.css`);
    expect(missing?.status()).toBe(404);
    expect(await page.title()).toBe('Not found');
    expect(await page.locator('h1').textContent()).toBe('Nothing at /static/nope.css');
    // What a <link rel="stylesheet"> asks for does not prefer HTML.
    const asStylesheet = await app.inject({ url: '/static/nope.css', headers: { accept: 'text/css,*/*;q=0.1' } });
    expect([asStylesheet.statusCode, asStylesheet.headers['content-type']]).toEqual([404, 'application/problem+json; charset=utf-8']);
  });

  it('a comment form under a post comes back with the post, the errors and what was typed; FormError the same way', async () => {
    session = await serveInBrowser(site());
    const { page, origin } = session;
    await page.goto(`${origin}/posts/hello`);
    await page.fill('#comment input[name="name"]', 'A');
    await page.fill('#comment textarea', 'Nice post');
    const [rejected] = await Promise.all([page.waitForNavigation(), page.locator('#comment button').click()]);
    expect(rejected?.status()).toBe(422);
    // The page's own data is there (formContext), with the error and the values sent.
    expect(await page.title()).toBe('Hello, Tern');
    expect(await page.locator('h1').textContent()).toBe('Hello, Tern');
    expect(await page.locator('.error').allTextContents()).toEqual(['name must be longer than or equal to 2 characters']);
    expect(await page.locator('#comment textarea').inputValue()).toBe('Nice post');
    // An error only the handler can find re-renders the same way.
    await page.fill('#comment input[name="name"]', 'admin');
    const [taken] = await Promise.all([page.waitForNavigation(), page.locator('#comment button').click()]);
    expect(taken?.status()).toBe(422);
    expect(await page.locator('h1').textContent()).toBe('Hello, Tern');
    expect(await page.locator('.error').allTextContents()).toEqual(['That name is taken.']);
    expect(await page.locator('#comment input[name="name"]').inputValue()).toBe('admin');
    // A good comment is posted, and the post shows it.
    await page.fill('#comment input[name="name"]', 'Ada');
    const [done] = await Promise.all([page.waitForNavigation(), page.locator('#comment button').click()]);
    expect(done?.status()).toBe(200);
    expect(await page.locator('#comments li').allTextContents()).toEqual(['Ada: Nice post']);
  });

  it('a page links its stylesheet by its fingerprinted URL, which the browser loads and may keep for a year', async () => {
    session = await serveInBrowser(site());
    const { page, origin } = session;
    const stylesheet = page.waitForResponse((response) => response.url().includes('/css/site.css'));
    await page.goto(`${origin}/styled`);
    const response = await stylesheet;
    expect(new URL(response.url()).pathname).toMatch(/^\/assets\/[0-9a-f]{12}\/css\/site\.css$/);
    expect(response.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(await page.evaluate("getComputedStyle(document.querySelector('h1')).color")).toBe('rgb(0, 128, 0)');
  });
});
