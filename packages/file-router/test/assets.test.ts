/**
 * Fingerprinted static files: `serveStatic(root, { fingerprint: true })` serves each file at
 * `<prefix>/<hash>/<path>` for a year, immutable; `{{ asset(path) }}` prints that URL; an old hash
 * is sent to the current one; a changed file gets a new hash; a name no folder holds fails loudly.
 */
import { createHash } from 'node:crypto';
import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assetUrl, serveStatic, TernApp } from '@tern/core';
import { configureTemplates, render } from '@tern/file-router';
import { makeTree, removeTrees } from './support/tree';

afterAll(removeTrees);

const CSS = 'body { color: navy; }';
const hashOf = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12);

function site(): { app: TernApp; root: string } {
  const root = makeTree({
    'templates/page.html': '<link rel="stylesheet" href="{{ asset(\'css/site.css\') }}"><img src="{{ asset(\'/img/logo.svg\') }}">',
    'templates/typo.html': '<link rel="stylesheet" href="{{ asset(\'css/sit.css\') }}">',
    'assets/css/site.css': CSS,
    'assets/img/logo.svg': '<svg/>',
    'assets/.secret': 'no',
  });
  configureTemplates({ templateDir: join(root, 'templates') });
  const app = new TernApp({ logger: false });
  app.mountRouter(serveStatic(join(root, 'assets'), { prefix: '/assets', fingerprint: true }));
  app.get('/', render('page.html', async () => ({})));
  app.get('/typo', render('typo.html', async () => ({})));
  return { app, root };
}

describe('fingerprinted static files', () => {
  it('prints hashed URLs with asset() and serves them for a year, immutable', async () => {
    const { app } = site();
    const css = `/assets/${hashOf(CSS)}/css/site.css`;
    expect((await app.inject('/')).body).toBe(`<link rel="stylesheet" href="${css}"><img src="/assets/${hashOf('<svg/>')}/img/logo.svg">`);
    const served = await app.inject(css);
    expect([served.statusCode, served.body, served.headers['cache-control']]).toEqual([200, CSS, 'public, max-age=31536000, immutable']);
    // The plain path still works, without the long cache.
    const plain = await app.inject('/assets/css/site.css');
    expect([plain.statusCode, plain.headers['cache-control']]).toEqual([200, 'public, max-age=0']);
    expect(assetUrl('css/site.css')).toBe(css);
  });

  it('sends an old hash to the current URL, and gives a changed file a new hash', async () => {
    const { app, root } = site();
    const old = `/assets/${hashOf(CSS)}/css/site.css`;
    const changed = 'body { color: teal; }';
    writeFileSync(join(root, 'assets/css/site.css'), changed);
    utimesSync(join(root, 'assets/css/site.css'), new Date(), new Date(Date.now() + 5000));
    const current = `/assets/${hashOf(changed)}/css/site.css`;
    expect((await app.inject('/')).body).toContain(`href="${current}"`);
    const redirected = await app.inject(old);
    expect([redirected.statusCode, redirected.headers.location]).toEqual([307, current]);
    expect((await app.inject(current)).body).toBe(changed);
  });

  it('refuses a name no fingerprinted folder holds (a typo fails its page), and never fingerprints dotfiles', async () => {
    const { app } = site();
    const typo = await app.inject('/typo');
    expect(typo.statusCode).toBe(500);
    expect(() => assetUrl('css/sit.css')).toThrow(expect.objectContaining({ code: 'TERN_ASSET_NOT_FOUND' }));
    expect(() => assetUrl('.secret')).toThrow(expect.objectContaining({ code: 'TERN_ASSET_NOT_FOUND' }));
  });
});
