import { existsSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium; tools must never download their own browser here. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM_PATH);
}

/**
 * Launches headless Chromium with the flags this machine needs (no sandbox as root, no
 * background networking: the network is closed and those connections only fail) and a fresh
 * profile, removed again by `close()`.
 */
export async function launchBrowser(): Promise<Browser & { closeAll(): Promise<void> }> {
  if (!chromiumAvailable()) {
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: install Debian's 'chromium' package (.ci/run does).`);
  }
  const profile = mkdtempSync(join(tmpdir(), 'tern-chromium-'));
  const browser = await chromium.launch({
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
      `--user-data-dir=${profile}`,
    ],
  });
  return Object.assign(browser, {
    async closeAll() {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  });
}
