import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium; tools must never download their own browser here. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM_PATH);
}

/**
 * Launches Debian's headless Chromium with the flags this machine needs: no sandbox (tests run
 * as root) and no background networking (the network is closed; those connections only fail).
 * Playwright gives each launch a fresh temporary profile and removes it on close; it refuses a
 * `--user-data-dir` flag here.
 */
export async function launchBrowser(): Promise<Browser> {
  if (!chromiumAvailable()) {
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: install Debian's 'chromium' package (.ci/run does).`);
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** An app listening on loopback with a browser page ready to visit it. */
export interface BrowserSession {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  browser: Browser;
  page: Page;
  /** Uncaught errors of the page's scripts, collected as they happen. */
  pageErrors: string[];
  /** Closes the browser, then the app. */
  close(): Promise<void>;
}

/**
 * Starts `app` on a free port and opens a page in Chromium, for tests of what a visitor sees.
 *
 * @example
 * const session = await serveInBrowser(buildApp());
 * await session.page.goto(`${session.origin}/docs`);
 * await session.close();
 */
export async function serveInBrowser(app: { listen(options: { port: number }): Promise<string>; close(): Promise<void> }): Promise<BrowserSession> {
  const origin = await app.listen({ port: 0 });
  let browser: Browser | undefined;
  try {
    browser = await launchBrowser();
    const page = await browser.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const opened = browser;
    return {
      origin,
      browser: opened,
      page,
      pageErrors,
      async close() {
        await opened.close();
        await app.close();
      },
    };
  } catch (err) {
    await browser?.close();
    await app.close();
    throw err;
  }
}

/**
 * Collects every Content-Security-Policy violation in the pages of `context` (popups included),
 * from both places Chromium reports one: the `securitypolicyviolation` event of the page and the
 * console message it logs. Call it before the first navigation.
 *
 * @example
 * const violations = await recordCspViolations(page.context());
 * await page.goto(`${origin}/docs`);
 * expect(violations).toEqual([]);
 */
export async function recordCspViolations(context: BrowserContext): Promise<string[]> {
  const violations: string[] = [];
  // A binding and an init script are Playwright's own channel: the page's policy does not apply to them.
  await context.exposeFunction('ternReportCspViolation', (report: string) => violations.push(report));
  await context.addInitScript({
    content: `document.addEventListener('securitypolicyviolation', function (e) {
      window.ternReportCspViolation(e.violatedDirective + ' blocked ' + e.blockedURI + ' in ' + e.documentURI);
    });`,
  });
  const listen = (page: Page): void => {
    page.on('console', (message) => {
      if (/Content.Security.Policy/i.test(message.text())) violations.push(`console ${message.type()}: ${message.text()}`);
    });
  };
  context.pages().forEach(listen);
  context.on('page', listen);
  return violations;
}
