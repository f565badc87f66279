/**
 * The chat page in Debian's headless Chromium: it signs in, opens a WebSocket (the browser's own)
 * to a room, and shows what it sends, and what a second client in the room sends.
 */
import type { Browser, Page } from 'playwright-core';
import type { TernApp } from '@tern/core';
import { launchBrowser } from '../../test-support/browser';
import { connect } from '../../test-support/ws-client';
import { buildApp } from './app';

describe('the chat page in Chromium', () => {
  let app: TernApp;
  let origin: string;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    app = buildApp({ secret: 'e2e-secret-that-is-long-enough-123' });
    origin = await app.listen({ port: 0 });
    browser = await launchBrowser();
    page = await browser.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('signs in, joins a room over a WebSocket and shows the room’s messages', async () => {
    await page.goto(`${origin}/`);
    await page.fill('#name', 'Grace');
    await page.fill('#room', 'browsers');
    await page.click('#join button');
    await page.waitForSelector('body[data-state="open"]');
    await page.waitForSelector(`li:has-text("in room browsers (served by process ${process.pid})")`);
    await page.waitForSelector('li:has-text("Grace joined")');

    const token = ((await app.inject({ method: 'POST', url: '/sign-in', payload: { name: 'Linus' } })).json() as { token: string }).token;
    const other = await connect(`${origin.replace(/^http/, 'ws')}/rooms/browsers?token=${token}`);
    await page.waitForSelector('li:has-text("Linus joined")');

    await page.fill('#text', 'hello from the page');
    await page.click('#say button');
    await page.waitForSelector('li:has-text("Grace: hello from the page")');
    const frames: unknown[] = [];
    while (frames.length < 3) frames.push(await other.nextJson());
    expect(frames).toContainEqual({ event: 'message', name: 'Grace', text: 'hello from the page' });

    other.ws.send(JSON.stringify({ text: 'hello from node' }));
    await page.waitForSelector('li:has-text("Linus: hello from node")');
    other.ws.close();
    expect(pageErrors).toEqual([]);
  });
});
