/**
 * "Try it out" in /docs under a global prefix: Swagger UI, in Debian's headless Chromium, loads the
 * document from /api/openapi.json and sends the request to the path the app serves.
 */
import type { Page } from 'playwright-core';
import { TernApp } from '@tern/core';
import { serveInBrowser, type BrowserSession } from '../../../test-support/browser';

describe('/api/docs "Try it out" with new TernApp({ prefix: "/api" })', () => {
  let session: BrowserSession;
  let page: Page;

  beforeAll(async () => {
    const app = new TernApp({ prefix: '/api', openapi: { title: 'Conduit' } });
    app.get('/tags', { summary: 'List tags' }, async () => ({ tags: ['dragons', 'training'] }));
    session = await serveInBrowser(app);
    page = session.page;
    const response = await page.goto(`${session.origin}/api/docs`);
    if (response?.status() !== 200) throw new Error(`GET /api/docs answered ${response?.status()}`);
    await page.waitForSelector('.opblock-get', { timeout: 60_000 });
  });

  afterAll(() => session?.close());

  it('shows the prefixed path and gets the answer the app serves there', async () => {
    expect(await page.textContent('.opblock-get .opblock-summary-path')).toBe('/api/tags');
    await page.click('.opblock-get .opblock-summary');
    await page.click('.opblock-get .try-out__btn');
    const answered = page.waitForResponse((response) => response.url() === `${session.origin}/api/tags`);
    await page.click('.opblock-get .execute');
    expect((await answered).status()).toBe(200);
    const status = '.opblock-get .live-responses-table tbody .response-col_status';
    await page.waitForSelector(status, { timeout: 60_000 });
    expect((await page.textContent(status))?.trim()).toBe('200');
    expect(await page.textContent('.opblock-get .request-url')).toContain(`${session.origin}/api/tags`);
    expect(session.pageErrors).toEqual([]);
  });
});
