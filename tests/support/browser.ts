/**
 * Headless Chromium for browser tests: Debian's /usr/bin/chromium (installed by .ci/run) driven by
 * playwright-core, so no browser download is needed. Each launch gets a fresh profile: playwright
 * refuses --user-data-dir in launch() and creates a temp profile per launch itself.
 */
import { type Browser, type BrowserContext, chromium } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface LaunchedBrowser {
  browser: Browser;
  /** A context with the given base URL (relative page.goto works). */
  newContext(baseURL?: string): Promise<BrowserContext>;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<LaunchedBrowser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    browser,
    newContext: (baseURL) => browser.newContext(baseURL ? { baseURL } : {}),
    async close() {
      await browser.close().catch(() => undefined);
    },
  };
}
