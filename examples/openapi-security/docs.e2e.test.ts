/**
 * The docs page in a real browser: Debian's headless Chromium opens /docs of this example,
 * served on loopback, and Swagger UI must render every operation and the Authorize button
 * from the app's own assets (no request leaves the app), run "Try it out" and an OAuth2 login,
 * all under the page's Content-Security-Policy without the browser reporting one violation.
 */
import type { BrowserContext, Page, Request } from 'playwright-core';
import { recordCspViolations, serveInBrowser, type BrowserSession } from '../../test-support/browser';
import { buildApp } from './app';

// Each browser step below may wait up to 15 s (a page on a busy machine); jest's 5 s default
// would end a test while its own waits are still within their limits.

/** What Tern sends for this example: its OAuth2 token and refresh URLs are on auth.example.com. */
const EXPECTED_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "style-src-elem 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self' https://auth.example.com",
  "media-src 'self' https://auth.example.com",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

describe('the /docs page in Chromium', () => {
  let session: BrowserSession;
  let origin: string;
  let page: Page;
  let pageErrors: string[];
  let violations: string[];
  let docsHeaders: Record<string, string>;
  const foreignRequests: string[] = [];
  const failedRequests: string[] = [];

  beforeAll(async () => {
    session = await serveInBrowser(buildApp());
    ({ origin, page, pageErrors } = session);
    violations = await recordCspViolations(page.context());
    page.on('request', (request) => {
      if (!request.url().startsWith(`${origin}/`) && !request.url().startsWith('data:')) foreignRequests.push(request.url());
    });
    page.on('requestfailed', (request) => failedRequests.push(request.url()));
    const response = await page.goto(`${origin}/docs`);
    if (response?.status() !== 200) throw new Error(`GET /docs answered ${response?.status()}`);
    docsHeaders = response.headers();
    await page.waitForSelector('.opblock', { timeout: 60_000 });
  });

  afterAll(() => session?.close());

  it('got the page with its Content-Security-Policy and frame and sniffing protections', () => {
    expect(docsHeaders['content-security-policy']).toBe(EXPECTED_POLICY);
    expect(docsHeaders['x-frame-options']).toBe('DENY');
    expect(docsHeaders['x-content-type-options']).toBe('nosniff');
  });

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
        { method: 'GET', path: '/notes/stats', summary: 'Count notes per owner' },
      ]),
    );
    expect(operations).toHaveLength(8);
    expect(await page.$$('.opblock.opblock-deprecated')).toHaveLength(1);
  });

  it('opens every operation with its parameters, examples and markdown', async () => {
    const blocks = page.locator('.opblock');
    for (let i = 0; i < (await blocks.count()); i++) {
      const block = blocks.nth(i);
      if ((await block.locator('.opblock-body').count()) === 0) await block.locator('.opblock-summary-control').click();
      await block.locator('.responses-wrapper').waitFor({ timeout: 60_000 });
    }
    expect(await page.$$('.opblock .opblock-body')).toHaveLength(8);
    // Highlighted examples, and a markdown table whose aligned cells carry style attributes.
    expect(await page.$$('.opblock .responses-wrapper .highlight-code')).not.toHaveLength(0);
    expect(await page.$$eval('.opblock-description-wrapper table th', (cells) => cells.map((cell) => cell.textContent))).toEqual(['credential', 'demo value']);
  });

  it('executes a request with "Try it out" and shows the answer', async () => {
    const health = page.locator('.opblock', { has: page.locator('[data-path="/health"]') });
    await health.locator('.try-out__btn').click();
    await health.locator('.execute').click();
    const row = health.locator('.live-responses-table .response');
    await row.waitFor({ timeout: 60_000 });
    expect((await row.locator('.response-col_status').textContent())?.trim()).toBe('200');
    expect(await row.locator('.response-col_description').textContent()).toContain('"status": "ok"');
  });

  it('shows the Authorize button, which lists every security scheme', async () => {
    const authorize = await page.waitForSelector('.auth-wrapper .authorize', { timeout: 60_000 });
    await authorize.click();
    await page.waitForSelector('.auth-container', { timeout: 60_000 });
    const text = await page.textContent('.modal-ux-content');
    for (const scheme of ['bearerAuth', 'apiKeyHeader', 'apiKeyQuery', 'apiKeyCookie', 'oauth2']) expect(text).toContain(scheme);
    for (const flow of ['authorizationCode', 'clientCredentials', 'password']) expect(text).toContain(flow);
    expect(text).toContain('notes:write');
  });

  it('loaded everything from the app itself, without script errors or policy violations', () => {
    expect(foreignRequests).toEqual([]);
    expect(failedRequests).toEqual([]);
    expect(pageErrors).toEqual([]);
    expect(violations).toEqual([]);
  });

  it('enforces the policy: a script injected into the page is blocked, and reported', async () => {
    // What an XSS would do: add an inline script. (page.evaluate itself is the test's channel,
    // which the page's policy does not govern.) The page sees the violation event...
    const seen = await page.evaluate(`new Promise((resolve) => {
      document.addEventListener('securitypolicyviolation', (e) => resolve(e.violatedDirective), { once: true });
      const script = document.createElement('script');
      script.textContent = 'window.injected = true;';
      document.body.appendChild(script);
    })`);
    expect(seen).toBe('script-src-elem');
    expect(await page.evaluate('window.injected')).toBeUndefined();
    // ...and so does the recorder the other tests rely on, once its report has crossed over.
    await until(() => violations.length > 0);
    expect(violations).toEqual(expect.arrayContaining([expect.stringMatching(/^script-src-elem blocked inline/)]));
  });
});

/** Waits for a report to arrive from the browser (a test timeout ends a wait that never ends). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('an OAuth2 login from /docs under the policy', () => {
  let session: BrowserSession;
  let context: BrowserContext;
  let violations: string[];
  const tokenRequests: Request[] = [];
  const redirectPageHeaders: Array<Record<string, string>> = [];

  beforeAll(async () => {
    session = await serveInBrowser(buildApp());
    context = await session.browser.newContext();
    violations = await recordCspViolations(context);
    // The example's authorization server, played by the test: it approves at once and issues a token.
    await context.route('https://auth.example.com/**', async (route) => {
      const url = new URL(route.request().url());
      if (url.pathname === '/authorize') {
        const back = `${url.searchParams.get('redirect_uri')}?code=the-code&state=${encodeURIComponent(url.searchParams.get('state') ?? '')}`;
        return route.fulfill({ status: 302, headers: { location: back } });
      }
      tokenRequests.push(route.request());
      const cors = { 'access-control-allow-origin': session.origin, 'access-control-allow-headers': 'content-type, x-requested-with' };
      if (route.request().method() === 'OPTIONS') return route.fulfill({ status: 204, headers: cors });
      return route.fulfill({ status: 200, contentType: 'application/json', headers: cors, body: JSON.stringify({ access_token: 'alice-token', token_type: 'bearer' }) });
    });
    context.on('response', (response) => {
      if (new URL(response.url()).pathname === '/docs/oauth2-redirect.html') redirectPageHeaders.push(response.headers());
    });
  });

  afterAll(() => session?.close());

  it('comes back through the redirect page and gets a token with PKCE, without a violation', async () => {
    const page = await context.newPage();
    await page.goto(`${session.origin}/docs`);
    await page.click('.auth-wrapper .authorize', { timeout: 60_000 });
    const flow = page.locator('.auth-container', { hasText: 'authorizationCode' });
    await flow.locator('#client_id_authorizationCode').fill('docs-client');
    await flow.locator('label[for="notes:read-authorizationCode-checkbox-oauth2"]').click();
    const popup = page.waitForEvent('popup');
    await flow.getByRole('button', { name: 'Apply given OAuth2 credentials' }).click();
    // The redirect page hands the code to the docs page and closes itself.
    await (await popup).waitForEvent('close', { timeout: 60_000 });
    await flow.locator('button', { hasText: 'Logout' }).waitFor({ timeout: 60_000 });
    expect(await flow.textContent()).toContain('Authorized');

    expect(redirectPageHeaders).toHaveLength(1);
    expect(redirectPageHeaders[0]['content-security-policy']).toBe("default-src 'none'; script-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'");
    const token = tokenRequests.find((request) => request.method() === 'POST');
    const form = new URLSearchParams(token?.postData() ?? '');
    expect(form.get('code')).toBe('the-code');
    expect(form.get('code_verifier')).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    expect(violations).toEqual([]);
  });
});
