/**
 * The docs page in a real browser: Debian's headless Chromium opens /docs of this example,
 * served on loopback, and Swagger UI must render every operation and the Authorize button
 * from the app's own assets (no request leaves the app).
 */
import type { Page } from 'playwright-core';
import { serveInBrowser, type BrowserSession } from '../../test-support/browser';
import { buildApp } from './app';

describe('the /docs page in Chromium', () => {
  let session: BrowserSession;
  let origin: string;
  let page: Page;
  let pageErrors: string[];
  const foreignRequests: string[] = [];
  const failedRequests: string[] = [];

  beforeAll(async () => {
    session = await serveInBrowser(buildApp());
    ({ origin, page, pageErrors } = session);
    page.on('request', (request) => {
      if (!request.url().startsWith(`${origin}/`) && !request.url().startsWith('data:')) foreignRequests.push(request.url());
    });
    page.on('requestfailed', (request) => failedRequests.push(request.url()));
    const response = await page.goto(`${origin}/docs`);
    if (response?.status() !== 200) throw new Error(`GET /docs answered ${response?.status()}`);
    await page.waitForSelector('.opblock', { timeout: 15_000 });
  }, 30_000);

  afterAll(() => session?.close());

  it('renders every operation with its path and summary', async () => {
    const operations = await page.$$eval('.opblock', (blocks) =>
      blocks.map((block) => ({
        method: block.querySelector('.opblock-summary-method')?.textContent?.trim(),
        path: block.querySelector('[data-path]')?.getAttribute('data-path'),
        summary: block.querySelector('.opblock-summary-description')?.textContent?.trim(),
      })),
    );
    expect(operations).toEqual(
      expect.arrayContaining([
        { method: 'GET', path: '/health', summary: 'Health check' },
        { method: 'GET', path: '/me', summary: 'The caller' },
        { method: 'GET', path: '/notes', summary: 'List notes' },
        { method: 'POST', path: '/notes', summary: 'Create a note' },
        { method: 'GET', path: '/notes/{id}', summary: 'Get a note' },
        { method: 'DELETE', path: '/notes/{id}', summary: 'Delete a note' },
        { method: 'GET', path: '/notes/export', summary: 'Export every note as text' },
      ]),
    );
    expect(operations).toHaveLength(7);
    expect(await page.$$('.opblock.opblock-deprecated')).toHaveLength(1);
  });

  it('shows the Authorize button, which lists every security scheme', async () => {
    const authorize = await page.waitForSelector('.auth-wrapper .authorize', { timeout: 5_000 });
    await authorize.click();
    await page.waitForSelector('.auth-container', { timeout: 5_000 });
    const text = await page.textContent('.modal-ux-content');
    for (const scheme of ['bearerAuth', 'apiKeyHeader', 'apiKeyQuery', 'apiKeyCookie', 'oauth2']) expect(text).toContain(scheme);
    for (const flow of ['authorizationCode', 'clientCredentials', 'password']) expect(text).toContain(flow);
    expect(text).toContain('notes:write');
  });

  it('loaded everything from the app itself, without script errors', () => {
    expect(foreignRequests).toEqual([]);
    expect(failedRequests).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
