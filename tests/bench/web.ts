/**
 * Web bench: what the browser loads before the first screen and the inbox are usable. Builds the web
 * app, starts the local stack, opens `/login` and then `/tickets` (signed in, a fresh tab) in headless
 * Chromium, and prints every JS and CSS file each one fetched with its gzipped size (gzip -9 of the
 * bytes served, as CloudFront would compress them), and the totals. Exits non-zero when the first
 * screen's JS passes the 300 KB goal.
 *
 *   npx tsx tests/bench/web.ts      (npm run bench:web)
 */
import { execFileSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import type { BrowserContext, Page } from 'playwright-core';
import { repoRoot } from '../../infra/local/lambda-runtime.ts';
import { startLocalStack } from '../../infra/local/stack.ts';
import { launchBrowser } from '../support/browser.ts';

const FIRST_SCREEN_JS_GOAL = 300 * 1024;
const ADMIN = { email: 'bench-web@conversa.test', password: 'Bench-Web-1' };

interface Loaded {
  url: string;
  kind: 'js' | 'css';
  gzipped: number;
}

/** Records the JS and CSS a page fetches while `act` runs and the network settles. */
async function recordLoads(page: Page, act: () => Promise<void>): Promise<Loaded[]> {
  const pending: Promise<Loaded | undefined>[] = [];
  const listener = (response: import('playwright-core').Response) => {
    const url = new URL(response.url());
    const kind = url.pathname.endsWith('.js') ? 'js' : url.pathname.endsWith('.css') ? 'css' : undefined;
    if (!kind) return;
    pending.push(
      response
        .body()
        .then((body) => ({ url: url.pathname, kind, gzipped: gzipSync(body, { level: 9 }).length }) as Loaded)
        .catch(() => undefined),
    );
  };
  page.on('response', listener);
  await act();
  await page.waitForLoadState('networkidle');
  page.off('response', listener);
  return (await Promise.all(pending)).filter((loaded): loaded is Loaded => Boolean(loaded));
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

function report(title: string, loads: Loaded[]): { js: number; css: number } {
  const js = loads.filter((l) => l.kind === 'js').reduce((sum, l) => sum + l.gzipped, 0);
  const css = loads.filter((l) => l.kind === 'css').reduce((sum, l) => sum + l.gzipped, 0);
  console.log(`\n${title}: ${loads.length} files, JS ${kb(js)} gzipped, CSS ${kb(css)} gzipped`);
  for (const load of [...loads].sort((a, b) => b.gzipped - a.gzipped)) {
    console.log(`  ${kb(load.gzipped).padStart(9)}  ${load.url}`);
  }
  return { js, css };
}

async function main(): Promise<void> {
  // Always a fresh production build: the figures are of the code as it is now.
  execFileSync('npm', ['run', 'build', '-w', 'web'], { cwd: repoRoot, stdio: 'ignore' });
  const stack = await startLocalStack({ ports: 'auto', web: true, seedAdmin: ADMIN, log: () => undefined });
  const launched = await launchBrowser();
  let context: BrowserContext | undefined;
  try {
    const webUrl = stack.webUrl as string;
    context = await launched.browser.newContext({ baseURL: webUrl, viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const login = await recordLoads(page, async () => {
      await page.goto('/login');
      await page.locator('button[type=submit]').waitFor({ state: 'visible' });
    });
    await page.fill('input[name=email]', ADMIN.email);
    await page.fill('input[name=password]', ADMIN.password);
    await page.click('button[type=submit]');
    await page.waitForURL('**/tickets');
    // The inbox as a returning user opens it: a new tab of the signed-in session, nothing cached.
    const storage = await context.storageState();
    const inboxContext = await launched.browser.newContext({
      baseURL: webUrl,
      storageState: storage,
      viewport: { width: 1440, height: 900 },
    });
    const inboxPage = await inboxContext.newPage();
    const inbox = await recordLoads(inboxPage, async () => {
      await inboxPage.goto('/tickets');
      await inboxPage.getByTestId('app-drawer').waitFor({ state: 'visible' });
    });
    await inboxContext.close();

    const first = report('First screen (/login)', login);
    report('Inbox (/tickets, signed in)', inbox);
    console.log(`\nFirst screen JS ${kb(first.js)} (goal <= ${kb(FIRST_SCREEN_JS_GOAL)})`);
    if (first.js > FIRST_SCREEN_JS_GOAL) process.exitCode = 1;
  } finally {
    await context?.close();
    await launched.close();
    await stack.stop();
  }
}

await main();
