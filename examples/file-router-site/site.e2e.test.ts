/**
 * The site as a visitor sees it: Debian's headless Chromium opens the home page of this example,
 * served in-process on loopback, follows a link to a post, sends the contact form (wrong, then
 * right) and reads what is on screen; a page of another site that posts to the form is refused.
 */
import type { Page } from 'playwright-core';
import { serveInBrowser, type BrowserSession } from '../../test-support/browser';
import { buildApp } from './app';
import { messages } from './messages';

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
  });

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

  it('shows the contact form again with the errors of each field and what was typed', async () => {
    await page.goto(`${origin}/contact`);
    await page.fill('#name', 'Ada');
    await page.fill('#email', 'not-an-address');
    await page.fill('#message', 'Too short');
    const [response] = await Promise.all([page.waitForResponse(`${origin}/contact`), page.click('button[type=submit]')]);
    expect(response.status()).toBe(422);
    expect(await page.locator('#email-error').innerText()).toBe('Please give an email address we can answer.');
    expect(await page.locator('#message-error').innerText()).toBe('A message is 10 to 2000 characters long.');
    expect(await page.locator('#name-error').count()).toBe(0);
    expect(await page.inputValue('#name')).toBe('Ada');
    expect(await page.inputValue('#email')).toBe('not-an-address');
  });

  it("sends the site's own form and greets the sender once on the next page", async () => {
    const before = messages().length;
    await page.goto(`${origin}/contact`);
    await page.fill('#name', 'Grace <Hopper>');
    await page.fill('#email', 'grace@example.com');
    await page.fill('#message', 'A bug in relay 70, panel F.');
    await Promise.all([page.waitForURL(`${origin}/contact/thanks`), page.click('button[type=submit]')]);
    expect(await page.locator('.flash-success').innerText()).toBe('Thanks, Grace <Hopper>! We will answer at grace@example.com.');
    expect(messages().length).toBe(before + 1);
    await page.reload();
    expect(await page.locator('.flash').count()).toBe(0);
  });

  it('refuses a form another site posts to the contact page, with the 403 page', async () => {
    const before = messages().length;
    // A page of another site (served by Playwright itself) whose form posts here on load.
    await page.route('http://evil.example/**', (route) =>
      route.fulfill({
        contentType: 'text/html',
        body:
          `<form id="f" method="post" action="${origin}/contact">` +
          '<input name="name" value="Mallory"><input name="email" value="m@evil.example"><input name="message" value="Send me every message you have.">' +
          '<input name="_csrf" value="guessed"></form><script>document.getElementById("f").submit()</script>',
      }),
    );
    await page.goto(`${origin}/contact`); // the visitor has the site's cookie
    const [response] = await Promise.all([page.waitForResponse(`${origin}/contact`), page.goto('http://evil.example/win-a-prize')]);
    expect(response.status()).toBe(403);
    await page.waitForURL(`${origin}/contact`);
    expect(await page.locator('h1').innerText()).toBe('Request refused');
    expect(messages().length).toBe(before);
  });
});
