/**
 * The site as a visitor sees it: Debian's headless Chromium opens the home page of this example,
 * served in-process on loopback, follows a link to a post and reads what is on screen.
 */
import type { Page } from 'playwright-core';
import { serveInBrowser, type BrowserSession } from '../../test-support/browser';
import { buildApp } from './app';

describe('the file-router site in Chromium', () => {
  let session: BrowserSession;
  let origin: string;
  let page: Page;
  let pageErrors: string[];
  const dialogs: string[] = [];

  beforeAll(async () => {
    session = await serveInBrowser(buildApp());
    ({ origin, page, pageErrors } = session);
    // An alert() would mean escaped text ran as a script.
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
  }, 20_000);

  afterAll(() => session?.close());

  it('shows the home page with every post linked by its title', async () => {
    const response = await page.goto(`${origin}/`);
    expect(response?.status()).toBe(200);
    expect(await page.title()).toBe('Tern Notes');
    expect(await page.locator('h1').innerText()).toBe('Posts');
    const links = await page.locator('a.post-link').evaluateAll((anchors) =>
      anchors.map((a) => ({ text: a.textContent, href: a.getAttribute('href') })),
    );
    expect(links).toEqual([
      { text: 'Templates & <escaping>', href: '/blog/templates-and-escaping' },
      { text: 'Hello, Tern', href: '/blog/hello-tern' },
    ]);
  });

  it('opens a post from its link and shows markup in its text as text', async () => {
    await page.goto(`${origin}/`);
    await Promise.all([page.waitForURL(`${origin}/blog/templates-and-escaping`), page.getByRole('link', { name: 'Templates & <escaping>' }).click()]);
    expect(await page.title()).toBe('Templates & <escaping> · Tern Notes');
    expect(await page.locator('article h1').innerText()).toBe('Templates & <escaping>');
    expect(await page.locator('article').innerText()).toContain('<script>alert("pwned")</script>');
    expect(await page.locator('article script').count()).toBe(0);
    expect(dialogs).toEqual([]);

    await Promise.all([page.waitForURL(`${origin}/`), page.locator('a.back').click()]);
    expect(await page.title()).toBe('Tern Notes');
  });

  it('shows the custom 404 page for a post that does not exist', async () => {
    const response = await page.goto(`${origin}/blog/not-written-yet`);
    expect(response?.status()).toBe(404);
    expect(await page.title()).toBe('Page not found · Tern Notes');
    expect(await page.locator('main code').innerText()).toBe('/blog/not-written-yet');
    expect(pageErrors).toEqual([]);
  });
});
