import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HTTPException, MakeConfig, setTemplateRenderer, TernApp, type InjectResponse } from '@tern/core';
import { configureTemplates, FileRouter, render } from '@tern/file-router';
import { makeTree, removeTrees } from './support/tree';

const TEMPLATES = join(__dirname, 'fixtures', 'templates');

afterAll(removeTrees);
beforeEach(() => configureTemplates({ templateDir: TEMPLATES }));

function makeApp(debug = false): TernApp {
  return new TernApp({ logger: false, config: new MakeConfig({ debug }) });
}

function expectHtml(response: InjectResponse, status = 200): void {
  expect(response.statusCode).toBe(status);
  expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
}

describe('render()', () => {
  it('renders the returned object as the template context, layout and includes included', async () => {
    const app = makeApp();
    app.get('/page', render('page.html', async () => ({ title: 'Hello', trusted: '<em>ok</em>', footer: 'bye' })));
    const response = await app.inject('/page');
    expectHtml(response);
    expect(response.body).toContain('<title>Hello</title>');
    expect(response.body).toContain('<h1>Hello</h1>');
    expect(response.body).toContain('<p class="trusted"><em>ok</em></p>');
    expect(response.body).toContain('<p class="undefined">[]</p>');
    expect(response.body).toContain('<footer>bye</footer>');
  });

  it('escapes HTML in every value it interpolates', async () => {
    const app = makeApp();
    const attack = `<script>alert("x")</script>&'`;
    app.get('/page', render('page.html', async () => ({ title: attack, footer: attack })));
    const { body } = await app.inject('/page');
    expect(body).not.toContain('<script>');
    expect(body).toContain('<h1>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;</h1>');
    expect(body).toContain('<footer>&lt;script&gt;');
  });

  it('passes the handler params through and answers HEAD without a body', async () => {
    const app = makeApp();
    app.get('/hello/{name}', render('page.html', async (req, res, { name }) => ({ title: `Hi ${name}` })));
    expect((await app.inject('/hello/ann')).body).toContain('<h1>Hi ann</h1>');
    const head = await app.inject({ method: 'HEAD', url: '/hello/ann' });
    expect([head.statusCode, head.body, head.headers['content-type']]).toEqual([200, '', 'text/html; charset=utf-8']);
  });

  it('sends a response returned instead of a context as it is', async () => {
    const app = makeApp();
    app.get('/old', render('page.html', async (req, res) => res.redirect('/new', 301)));
    const response = await app.inject('/old');
    expect([response.statusCode, response.headers.location]).toEqual([301, '/new']);
  });

  it.each([
    ['a string', async () => 'text'],
    ['an array', async () => [1, 2]],
    ['null', async () => null],
    ['nothing', async () => undefined],
  ])('makes returning %s a clear 500', async (what, handler) => {
    const quiet = makeApp();
    quiet.get('/page', render('page.html', handler as any));
    const hidden = await quiet.inject('/page');
    expect(hidden.statusCode).toBe(500);
    expect(hidden.json().detail).toBe('Internal Server Error');

    const loud = makeApp(true);
    loud.get('/page', render('page.html', handler as any));
    expect((await loud.inject('/page')).json().detail).toBe(
      `render('page.html'): the handler returned ${what}; return an object to use as the template context, or a response.`,
    );
  });

  it('uses the route statusCode, and keeps markAsRoute options in either order', async () => {
    const root = makeTree({
      'a/route.ts': `import { markAsRoute, render } from '@tern/file-router';
export const post = markAsRoute({ statusCode: 201, summary: 'outer' }, render('page.html', async () => ({ title: 'created' })));
`,
      'b/route.ts': `import { markAsRoute, render } from '@tern/file-router';
export const post = render('page.html', markAsRoute({ statusCode: 202, summary: 'inner', name: 'b' }, async () => ({ title: 'accepted' })));
`,
    });
    const app = makeApp();
    new FileRouter(app, { root });
    const a = await app.inject({ method: 'POST', url: '/a' });
    expectHtml(a, 201);
    expect(a.body).toContain('<h1>created</h1>');
    expectHtml(await app.inject({ method: 'POST', url: '/b' }), 202);
    expect(app.getAllRoutes().map((r) => r.options.summary)).toEqual(['outer', 'inner']);
    expect(app.urlFor('b')).toBe('/b');
  });

  it('refuses an unsafe template name when the handler is declared', () => {
    expect(() => render('../secret.html', async () => ({}))).toThrow(expect.objectContaining({ code: 'TERN_TEMPLATE_NAME_INVALID' }));
    expect(() => render('page.html', 'nope' as any)).toThrow(/handler must be a function/);
  });
});

describe('res.render()', () => {
  it('renders in any handler with a context and a status', async () => {
    const app = makeApp();
    app.post('/made', async (req, res) => res.render('page.html', { title: 'Made' }, 201));
    const response = await app.inject({ method: 'POST', url: '/made' });
    expectHtml(response, 201);
    expect(response.body).toContain('<h1>Made</h1>');
  });

  it('renders custom 404 and 500 pages from exception handlers', async () => {
    const app = makeApp();
    app.get('/boom', async () => {
      throw new Error('database password is hunter2');
    });
    app.get('/missing-thing', async () => {
      throw new HTTPException(404, 'No such thing');
    });
    app.addExceptionHandler(404, async (req, res) => res.render('not-found.html', { path: decodeURIComponent(req.url.path) }, 404));
    app.addExceptionHandler(500, async (req, res) => res.render('error.html', {}, 500));

    const notFound = await app.inject('/no/such/<page>');
    expectHtml(notFound, 404);
    expect(notFound.body).toContain('<title>Not found</title>');
    expect(notFound.body).toContain('<h1>Nothing at /no/such/&lt;page&gt;</h1>');
    expectHtml(await app.inject('/missing-thing'), 404);

    const broken = await app.inject('/boom');
    expectHtml(broken, 500);
    expect(broken.body).toContain('Sorry, something broke');
    expect(broken.body).not.toContain('hunter2');
  });

  it('falls back to the plain 500 problem when the error page itself fails', async () => {
    const app = makeApp();
    app.get('/boom', async () => {
      throw new Error('first failure');
    });
    app.addExceptionHandler(500, async (req, res) => res.render('no-such-error-page.html', {}, 500));
    const response = await app.inject('/boom');
    expect(response.statusCode).toBe(500);
    expect(response.headers['content-type']).toBe('application/problem+json; charset=utf-8');
  });

  it('says templates are not configured when they are not', async () => {
    setTemplateRenderer(undefined);
    const app = makeApp(true);
    app.get('/page', async (req, res) => res.render('page.html'));
    const response = await app.inject('/page');
    expect([response.statusCode, response.json().detail]).toEqual([500, expect.stringContaining('call configureTemplates() first')]);
  });
});

describe('template failures are 500s that keep their details out of production bodies', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['a missing template', 'nope.html', /^Template 'nope\.html' does not exist in the template directory\.$/],
    ['a syntax error', 'broken.html', /^Template 'broken\.html' failed to render: .*broken\.html.*Line 1/s],
    ['an error while rendering', 'throws.html', /^Template 'throws\.html' failed to render: .*Unable to call `explode`/s],
    ['an include that climbs out of templateDir', 'partials/escape.html', /^Template 'partials\/escape\.html' failed to render: .*refused/s],
  ];

  it.each(cases)('%s', async (_what, template, debugDetail) => {
    const quiet = makeApp();
    quiet.get('/page', async (req, res) => res.render(template, { user: { name: 'x' } }));
    const hidden = await quiet.inject('/page');
    expect(hidden.statusCode).toBe(500);
    expect(hidden.json().detail).toBe('Internal Server Error');
    expect(hidden.body).not.toMatch(/TEMPLATE-SOURCE-MARKER|TOP SECRET|\.html/);

    const loud = makeApp(true);
    loud.get('/page', async (req, res) => res.render(template, { user: { name: 'x' } }));
    const shown = (await loud.inject('/page')).json();
    expect(shown.detail).toMatch(debugDetail);
    expect(shown.detail).not.toMatch(/TEMPLATE-SOURCE-MARKER|TOP SECRET/);
  });
});

describe('template names stay inside templateDir', () => {
  const attempts = [
    '../templates-private/secret.html',
    'partials/../../templates-private/secret.html',
    '/etc/passwd',
    join(TEMPLATES, 'page.html'),
    '..\\templates-private\\secret.html',
    'partials\\footer.html',
    'C:/Windows/win.ini',
    'page.html\0.txt',
    '',
  ];

  it.each(attempts)('refuses %j with a 500 (a coded message in debug)', async (name) => {
    const quiet = makeApp();
    quiet.get('/page', async (req, res) => res.render(name, {}));
    const hidden = await quiet.inject('/page');
    expect(hidden.statusCode).toBe(500);
    expect(hidden.body).not.toContain('TOP SECRET');

    const loud = makeApp(true);
    loud.get('/page', async (req, res) => res.render(name, {}));
    const shown = await loud.inject('/page');
    expect(shown.statusCode).toBe(500);
    expect(shown.json().detail).toMatch(/^Template name .* is refused: /);
    expect(shown.body).not.toContain('TOP SECRET');
  });

  it('refuses a name taken from the URL that tries to climb out', async () => {
    const app = makeApp(true);
    app.get('/pages/{name:path}', async (req, res, { name }) => res.render(name as string, {}));
    expect((await app.inject('/pages/page.html')).statusCode).toBe(200);
    for (const url of ['/pages/..%2Ftemplates-private%2Fsecret.html', '/pages/partials%2F..%2F..%2Ftemplates-private%2Fsecret.html']) {
      const response = await app.inject(url);
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expect(response.body).not.toContain('TOP SECRET');
    }
  });

  it('refuses a symlink inside templateDir that leads outside it', async () => {
    const dir = makeTree({ 'ok.html': 'ok' });
    symlinkSync(join(__dirname, 'fixtures', 'templates-private', 'secret.html'), join(dir, 'linked.html'));
    configureTemplates({ templateDir: dir });
    const app = makeApp(true);
    app.get('/{name}', async (req, res, { name }) => res.render(name as string));
    expect((await app.inject('/ok.html')).body).toBe('ok');
    const linked = await app.inject('/linked.html');
    expect([linked.statusCode, linked.json().detail]).toEqual([500, expect.stringContaining('leads outside the template directory')]);
  });
});

describe('configureTemplates', () => {
  it('re-reads changed templates only with autoReload', async () => {
    const dir = makeTree({ 'live.html': 'v1 {{ n }}' });
    const app = makeApp();
    app.get('/', async (req, res) => res.render('live.html', { n: 1 }));

    configureTemplates({ templateDir: dir });
    expect((await app.inject('/')).body).toBe('v1 1');
    writeFileSync(join(dir, 'live.html'), 'v2 {{ n }}');
    expect((await app.inject('/')).body).toBe('v1 1');

    configureTemplates({ templateDir: dir, autoReload: true });
    expect((await app.inject('/')).body).toBe('v2 1');
    writeFileSync(join(dir, 'live.html'), 'v3 {{ n }}');
    expect((await app.inject('/')).body).toBe('v3 1');
  });

  it('returns the nunjucks environment for filters and globals', async () => {
    const dir = makeTree({ 'shout.html': '{{ word | shout }} {{ site }}' });
    const env = configureTemplates({ templateDir: dir });
    env.addFilter('shout', (s: string) => s.toUpperCase());
    env.addGlobal('site', 'Tern');
    const app = makeApp();
    app.get('/', async (req, res) => res.render('shout.html', { word: 'hey' }));
    expect((await app.inject('/')).body).toBe('HEY Tern');
  });

  it('refuses a templateDir that is not a directory', () => {
    expect(() => configureTemplates({ templateDir: join(TEMPLATES, 'nope') })).toThrow(
      expect.objectContaining({ code: 'TERN_TEMPLATE_DIR_NOT_FOUND' }),
    );
    expect(() => configureTemplates({ templateDir: join(TEMPLATES, 'page.html') })).toThrow(/is not a directory/);
    expect(() => configureTemplates({} as any)).toThrow(TypeError);
  });

  it('keeps markAsRoute usable on rendered exports in route files', async () => {
    const root = makeTree({
      'route.ts': `import { markAsRoute, render } from '@tern/file-router';
export const get = markAsRoute({ summary: 'Home' }, render('page.html', async () => ({ title: 'Home' })));
`,
    });
    const app = makeApp();
    new FileRouter(app, { root });
    expect((await app.inject('/')).body).toContain('<h1>Home</h1>');
    expect(app.getAllRoutes()[0].options.summary).toBe('Home');
  });
});
