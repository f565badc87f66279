/**
 * Live reload in Chromium: under the dev loop, every rendered page loads its script, and editing
 * a template makes the open page show the new version without touching the browser.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TernApp } from '@tern/core';
import { configureTemplates, render } from '@tern/file-router';
import { DevLoop } from '@tern/file-router/dev';
import { chromiumAvailable, serveInBrowser, type BrowserSession } from '../../../test-support/browser';
import { makeTree, removeTrees } from './support/tree';

jest.setTimeout(60_000);
afterAll(removeTrees);

const describeInBrowser = chromiumAvailable() ? describe : describe.skip;
if (!chromiumAvailable()) console.log('live-reload.e2e: skipped, Chromium is not installed (set CHROMIUM_PATH)');

describeInBrowser('live reload', () => {
  let session: BrowserSession | undefined;
  let loop: DevLoop | undefined;
  const saved = process.env.TERN_LIVE_RELOAD;
  afterEach(async () => {
    await session?.close();
    await loop?.stop();
    if (saved === undefined) delete process.env.TERN_LIVE_RELOAD;
    else process.env.TERN_LIVE_RELOAD = saved;
  });

  it('reloads an open page when its template changes', async () => {
    const root = makeTree({ 'templates/page.html': '<!doctype html><html><body><h1>Before</h1></body></html>', 'builds.txt': '0\n' });
    const write = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      loop = new DevLoop({
        compiler: { command: process.execPath, args: [join(__dirname, 'fixtures', 'dev', 'fake-compiler.js'), join(root, 'builds.txt')] },
        server: { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1 << 30)'] },
        watch: [join(root, 'templates')],
        log: () => undefined,
      });
      await loop.start();
    } finally {
      write.mockRestore();
    }
    // What the loop gives the server it runs; this site runs in the test's process instead.
    process.env.TERN_LIVE_RELOAD = loop.liveReload?.origin;
    configureTemplates({ templateDir: join(root, 'templates'), autoReload: true });
    const app = new TernApp({ logger: false });
    app.get('/', render('page.html', async () => ({})));
    session = await serveInBrowser(app);
    const { page, origin } = session;
    await page.goto(`${origin}/`);
    expect(await page.locator('h1').textContent()).toBe('Before');
    expect(await page.locator('script[src$="/tern-live-reload.js"]').count()).toBe(1);
    const live = loop.liveReload;
    const deadline = Date.now() + 10_000;
    while (live?.listeners === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    writeFileSync(join(root, 'templates', 'page.html'), '<!doctype html><html><body><h1>After</h1></body></html>');
    await page.waitForFunction("document.querySelector('h1')?.textContent === 'After'", undefined, { timeout: 10_000 });
    expect(session.pageErrors).toEqual([]);
  });
});
