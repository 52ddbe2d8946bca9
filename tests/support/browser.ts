/**
 * Headless Chromium for browser tests: Debian's /usr/bin/chromium (installed by .ci/run) driven by
 * playwright-core, so no browser download is needed. Each launch gets a fresh profile: playwright
 * refuses --user-data-dir in launch() and creates a temp profile per launch itself.
 */
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';

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

/**
 * Types a day (and time) into one of the app's date fields (web/src/components/date-fields.tsx:
 * MUI X pickers, a section per part) the way a person does: a click on its first section, then the
 * digits in the interface language's order (day first in pt and es, month first in en), each
 * section moving on by itself once full. `field` is the field's hidden input (input[name=...]).
 */
export async function typeDate(
  page: Page,
  field: Locator,
  at: Date,
  { language = 'pt', time = false }: { language?: 'pt' | 'en' | 'es'; time?: boolean } = {},
): Promise<void> {
  const two = (n: number) => String(n).padStart(2, '0');
  const [day, month] = [two(at.getDate()), two(at.getMonth() + 1)];
  const digits = [...(language === 'en' ? [month, day] : [day, month]), String(at.getFullYear())];
  if (time) digits.push(two(at.getHours()), two(at.getMinutes()));
  await field.locator('xpath=..').getByRole('spinbutton').first().click();
  await page.keyboard.type(digits.join(''));
}

/** Signs in through the login page as a person does, and waits for the inbox it lands on. */
export async function signInPage(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.fill('input[name=email]', email);
  await page.fill('input[name=password]', password);
  await page.click('button[type=submit]');
  await page.waitForURL('**/tickets');
}
