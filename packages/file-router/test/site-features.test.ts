/**
 * The file router's part of a site: template names known at startup are checked then, forms
 * re-render through `markAsRoute({ formTemplate })`, `{{ csrfField() }}` prints the token of
 * `csrf()`, and the nunjucks types come with the package.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { csrf, TernApp } from '@tern/core';
import { configureTemplates, FileRouter, FormError, render } from '@tern/file-router';
import { Signup } from './support/signup';
import { makeTree, removeTrees } from './support/tree';

afterAll(removeTrees);

const TEMPLATES = {
  'form.html':
    '<form method="post">{{ csrfField() }}<input name="email" value="{{ values.email }}">' +
    '{% for message in errors.email %}<p class="error">{{ message }}</p>{% endfor %}</form>',
  'plain.html': '<p>{{ text }}</p>',
  'with-flashes.html': '{% if flashes.length %}<ul>{% for flash in flashes %}<li class="{{ flash.type }}">{{ flash.message }}</li>{% endfor %}</ul>{% endif %}<p>{{ text }}</p>',
};

const MODEL = `export { Signup } from ${JSON.stringify(join(__dirname, 'support', 'signup'))};\n`;

function site(routes: Record<string, string>): { app: TernApp; root: string } {
  const root = makeTree({ ...Object.fromEntries(Object.entries(TEMPLATES).map(([name, src]) => [`templates/${name}`, src])), 'model.ts': MODEL, ...routes });
  configureTemplates({ templateDir: join(root, 'templates') });
  const app = new TernApp({ logger: false });
  new FileRouter(app, { root: join(root, 'routes') });
  return { app, root };
}

describe('template names known at startup', () => {
  it('render() with a name that is not a template fails when it is called', () => {
    site({ 'routes/route.ts': `export async function get() { return 'x'; }` });
    expect(() => render('abuot.html', async () => ({}))).toThrow(expect.objectContaining({ code: 'TERN_TEMPLATE_NOT_FOUND', message: expect.stringContaining("'abuot.html'") }));
    expect(() => render('plain.html', async () => ({}))).not.toThrow();
  });

  it('a route file rendering or re-rendering an unknown template fails ready(), naming the file', async () => {
    const rendering = site({
      'routes/about/route.ts': `import { render } from '@tern/file-router';\nexport const get = render('abuot.html', async () => ({}));\n`,
    });
    // The name is checked when the route file loads: render() ran before configureTemplates here too.
    await expect(rendering.app.ready()).rejects.toMatchObject({ code: expect.stringMatching(/TERN_TEMPLATE_NOT_FOUND|TERN_IMPORT_FAILED/), message: expect.stringContaining('abuot.html') });

    const formTemplate = site({
      'routes/signup/route.ts': `import { markAsRoute } from '@tern/file-router';\nimport { Signup } from '../../model';\nexport const post = markAsRoute({ requestModel: Signup, formTemplate: 'from.html' }, async () => ({}));\n`,
    });
    await expect(formTemplate.app.ready()).rejects.toMatchObject({ code: 'TERN_TEMPLATE_NOT_FOUND', message: expect.stringContaining('signup') });
  });

  it('an error page or an app route\'s formTemplate that is not a template fails ready(), naming it', async () => {
    site({ 'routes/route.ts': `export async function get() { return 'x'; }` });
    const pages = new TernApp({ logger: false, errorPages: { 404: 'plain.html', default: 'eror.html' } });
    pages.get('/', async () => 'home');
    await expect(pages.ready()).rejects.toMatchObject({ code: 'TERN_TEMPLATE_NOT_FOUND', message: "errorPages[default]: there is no template 'eror.html'." });

    const form = new TernApp({ logger: false });
    form.post('/signup', { requestModel: Signup, formTemplate: 'from.html' }, async () => 'ok');
    await expect(form.ready()).rejects.toMatchObject({ code: 'TERN_TEMPLATE_NOT_FOUND', message: "The formTemplate of POST /signup: there is no template 'from.html'." });

    // The names that exist start, and serve the page.
    const good = new TernApp({ logger: false, errorPages: { 404: 'plain.html' } });
    good.post('/signup', { requestModel: Signup, formTemplate: 'form.html' }, async () => 'ok');
    await expect(good.ready()).resolves.toBeUndefined();
    const missing = await good.inject({ url: '/nowhere', headers: { accept: 'text/html' } });
    expect([missing.statusCode, missing.body]).toEqual([404, '<p></p>']);
  });
});

describe('forms in route files', () => {
  const SIGNUP = `
import { markAsRoute, render } from '@tern/file-router';
import { Signup } from '../../model';
export const get = render('form.html', async () => ({ values: {}, errors: {} }));
export const post = markAsRoute(
  { requestModel: Signup, consumes: ['application/x-www-form-urlencoded'], formTemplate: 'form.html' },
  async (req, res) => res.redirect('/signup/done', 303),
);
`;

  it('re-renders the form with its errors and escaped values, and prints the CSRF field', async () => {
    const { app } = site({ 'routes/signup/route.ts': SIGNUP });
    app.addMiddleware(csrf());
    const page = await app.inject('/signup');
    const token = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1] as string;
    expect(token).toBe(page.cookies.find((c) => c.name === 'tern_csrf')?.value);
    const cookie = `tern_csrf=${token}`;

    const rejected = await app.inject({
      method: 'POST',
      url: '/signup',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `_csrf=${encodeURIComponent(token)}&email=${encodeURIComponent('"><script>x</script>')}`,
    });
    expect(rejected.statusCode).toBe(422);
    expect(rejected.body).toContain('value="&quot;&gt;&lt;script&gt;x&lt;/script&gt;"');
    expect(rejected.body).toMatch(/<p class="error">email must be an email<\/p>/);
    expect(rejected.body).toContain(`name="_csrf" value="${token}"`);

    const accepted = await app.inject({
      method: 'POST',
      url: '/signup',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `_csrf=${encodeURIComponent(token)}&email=ada%40example.com`,
    });
    expect([accepted.statusCode, accepted.headers.location]).toEqual([303, '/signup/done']);
  });

  it('csrfField() without csrf() is a template error, not a form without protection', async () => {
    const { app } = site({ 'routes/signup/route.ts': SIGNUP });
    const response = await app.inject('/signup');
    expect(response.statusCode).toBe(500);
  });
});

describe('flashes in every template', () => {
  it('are shown by any template that shows them, and used up only then: not by redirects, files or pages that do not', async () => {
    const { app } = site({
      'routes/send/route.ts': `export async function post(req: unknown, res: import('@tern/core').TernResponse) { return res.flash('success', 'Saved <b>!</b>').redirect('/next', 303); }\n`,
      'routes/next/route.ts': `import { render } from '@tern/file-router';\nexport const get = render('plain.html', async () => ({ text: 'no flashes here' }));\n`,
      'routes/hop/route.ts': `export async function get(req: unknown, res: import('@tern/core').TernResponse) { return res.redirect('/shown', 302); }\n`,
      'routes/asset/route.ts': `export async function get(req: unknown, res: import('@tern/core').TernResponse) { return res.send('body{}', 'text/css'); }\n`,
      'routes/shown/route.ts': `import { render } from '@tern/file-router';\nexport const get = render('with-flashes.html', async () => ({ text: 'page' }));\n`,
    });
    const sent = await app.inject({ method: 'POST', url: '/send' });
    const cookie = sent.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    // A page whose template does not show them, a redirect and a file leave the cookie alone.
    for (const url of ['/next', '/hop', '/asset']) {
      const response = await app.inject({ url, headers: { cookie } });
      expect([url, response.headers['set-cookie']]).toEqual([url, undefined]);
    }
    const shown = await app.inject({ url: '/shown', headers: { cookie } });
    expect(shown.body).toBe('<ul><li class="success">Saved &lt;b&gt;!&lt;/b&gt;</li></ul><p>page</p>');
    expect(shown.cookies.find((c) => c.name === 'tern_flash')).toMatchObject({ value: '', maxAge: 0 });
    // Nothing waits any more: the list is empty.
    expect((await app.inject('/shown')).body).toBe('<p>page</p>');
  });
});

describe('FormError and formContext', () => {
  it('FormError is a 422 problem naming its fields on a route without formTemplate; formContext needs formTemplate', async () => {
    site({ 'routes/route.ts': `export async function get() { return 'x'; }` });
    const app = new TernApp({ logger: false });
    app.post('/slugs', async () => {
      throw new FormError({ slug: 'That slug is taken.', '': ['Check the form.'] });
    });
    const response = await app.inject({ method: 'POST', url: '/slugs' });
    expect([response.statusCode, response.json().code, response.json().errors]).toEqual([
      422,
      'TERN_VALIDATION_FAILED',
      [
        { path: 'slug', message: 'That slug is taken.' },
        { path: '', message: 'Check the form.' },
      ],
    ]);
    const loose = new TernApp({ logger: false });
    loose.post('/x', { requestModel: Signup, formContext: async () => ({}) }, async () => 'ok');
    await expect(loose.ready()).rejects.toMatchObject({ code: 'TERN_INVALID_ROUTE_OPTION', message: expect.stringContaining('no formTemplate') });
  });
});

describe('types', () => {
  it('@tern/file-router brings the nunjucks types its configureTemplates() returns', () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8'));
    expect(manifest.dependencies['@types/nunjucks']).toMatch(/^\^3\./);
  });
});
