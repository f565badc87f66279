/**
 * The example as a visitor uses it, in Debian's headless Chromium: the page follows the event
 * stream, uploads a file with fetch + FormData, downloads report.csv through its link, and calls
 * the API on a second origin with cookies; the same page served from an origin the API does not
 * allow shows the browser's refusal.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { TernApp } from '@tern/core';
import { launchBrowser } from '../../test-support/browser';
import { buildApi, buildApp, FILES } from './app';

describe('the downloads page in Chromium', () => {
  const apps: TernApp[] = [];
  let browser: Browser;
  let page: Page;
  let pageOrigin: string;
  let apiOrigin: string;
  let strangerOrigin: string;
  const pageErrors: string[] = [];

  /** Listens on a free loopback port and remembers the app to close it. */
  async function start(app: TernApp): Promise<string> {
    apps.push(app);
    return app.listen({ port: 0, host: '127.0.0.1' });
  }

  beforeAll(async () => {
    // The API needs the page's origin and the page the API's: /config.json reads apiOrigin when
    // asked, so the page apps start first and learn it through a getter.
    const pageOptions = { tickMs: 20, get apiOrigin() { return apiOrigin; } };
    pageOrigin = await start(buildApp(pageOptions));
    strangerOrigin = await start(buildApp(pageOptions));
    apiOrigin = await start(buildApi(pageOrigin));
    browser = await launchBrowser();
    page = await browser.newPage({ acceptDownloads: true });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const response = await page.goto(`${pageOrigin}/`, { timeout: 60_000 });
    if (response?.status() !== 200) throw new Error(`GET / answered ${response?.status()}`);
  });

  afterAll(async () => {
    await browser?.close();
    for (const app of apps) await app.close();
  });

  it('appends the events of the stream to the page, in order', async () => {
    await page.waitForFunction("document.querySelectorAll('#events li').length >= 3", undefined, { timeout: 60_000 });
    const items = await page.$$eval('#events li', (lis) => lis.map((li) => li.textContent));
    expect(items.slice(0, 3)).toEqual(['tick 1', 'tick 2', 'tick 3']);
  });

  it('uploads a chosen file and shows what the server received', async () => {
    await page.setInputFiles('#file', { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello from the page\n') });
    const answer = page.waitForResponse((res) => res.url() === `${pageOrigin}/uploads`, { timeout: 60_000 });
    await page.click('#upload button[type=submit]');
    expect((await answer).status()).toBe(201);
    await page.waitForFunction("document.getElementById('upload-result').textContent !== '…'", undefined, { timeout: 60_000 });
    expect(await page.textContent('#upload-result')).toBe('notes.txt, 20 bytes, text/plain');
  });

  it('downloads report.csv through its link, byte for byte', async () => {
    const download = page.waitForEvent('download', { timeout: 60_000 });
    await page.click('#report');
    const saved = await download;
    expect(saved.suggestedFilename()).toBe('report.csv');
    const path = await saved.path();
    expect(readFileSync(path).equals(readFileSync(join(FILES, 'report.csv')))).toBe(true);
  });

  it('calls the API on the second origin with cookies, allowed by its CORS headers', async () => {
    const response = page.waitForResponse((res) => res.url() === `${apiOrigin}/greeting`, { timeout: 60_000 });
    await page.click('#call-api');
    const headers = (await response).headers();
    expect(headers['access-control-allow-origin']).toBe(pageOrigin);
    expect(headers['access-control-allow-credentials']).toBe('true');
    await page.waitForFunction("document.getElementById('api-result').textContent !== '…'", undefined, { timeout: 60_000 });
    expect(await page.textContent('#api-result')).toBe('hello page-user (served by api)');
  });

  it('is refused by the browser when the page comes from another origin', async () => {
    const stranger = await browser.newPage();
    try {
      stranger.on('pageerror', (error) => pageErrors.push(error.message));
      await stranger.goto(`${strangerOrigin}/`, { timeout: 60_000 });
      const failed = stranger.waitForEvent('requestfailed', { predicate: (req) => req.url() === `${apiOrigin}/greeting`, timeout: 60_000 });
      await stranger.click('#call-api');
      // The API answered, but for the page's origin only: the browser withholds the answer.
      expect((await failed).failure()?.errorText).toBe('net::ERR_FAILED');
      const direct = await fetch(`${apiOrigin}/greeting`, { headers: { origin: strangerOrigin } });
      expect(direct.headers.get('access-control-allow-origin')).toBe(pageOrigin);
      await stranger.waitForFunction("document.getElementById('api-result').textContent !== '…'", undefined, { timeout: 60_000 });
      expect(await stranger.textContent('#api-result')).toBe('error: Failed to fetch');
    } finally {
      await stranger.close();
    }
  });

  it('ran without script errors', () => {
    expect(pageErrors).toEqual([]);
  });
});
