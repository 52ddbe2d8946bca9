/**
 * The API reference on the messages-API page (issue 23 §1): the page renders the server's OpenAPI
 * document (GET /api/openapi.json) in Scalar's viewer beside its test forms. The viewer is a chunk of
 * its own: no other page loads it, nor the document. Screenshots go to tests/artifacts/.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../../infra/local/lambda-runtime.ts';
import { client, createTenant, firstPlanId, superLogin, type Tenant } from '../integration/tenants.ts';
import { type LaunchedBrowser, launchBrowser, signInPage } from '../support/browser.ts';

const artifacts = join(repoRoot, 'tests', 'artifacts');
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let tenant: Tenant;
let launched: LaunchedBrowser;
let context: BrowserContext;
let page: Page;
/** Every URL the page asked for, in order. */
const requested: string[] = [];

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  const call = client(inject('apiUrl'));
  tenant = await createTenant(call, await superLogin(call, inject('admin')), await firstPlanId(call), 'api-reference');
  launched = await launchBrowser();
  context = await launched.browser.newContext({ baseURL: inject('webUrl'), viewport: { width: 1440, height: 900 }, locale: 'en-US' });
  page = await context.newPage();
  page.on('request', (request) => requested.push(request.url()));
  await signInPage(page, tenant.admin.email, tenant.admin.password);
});

afterAll(async () => {
  await context?.close();
  await launched?.close();
});

/** Client-side navigation, as a click in the menu does. */
async function visit(path: string): Promise<void> {
  await page.evaluate((to) => {
    history.pushState({}, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await page.waitForURL(`**${path}`);
}

const viewerChunk = (url: string) => /\/assets\/api-reference-[\w-]+\.js$/.test(url);
const documentRead = (url: string) => url.endsWith('/api/openapi.json');

describe('the messages-API page', () => {
  it('renders the API reference from GET /api/openapi.json beside its test forms, loading the viewer there only', async () => {
    // Prepare: other pages first, as a user gets there
    await visit('/helps');
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(requested.filter((url) => viewerChunk(url) || documentRead(url))).toEqual([]);
    // Act
    const answered = page.waitForResponse((response) => documentRead(response.url()), { timeout: 60_000 });
    const fromHere = requested.length;
    await visit('/messages-api');
    // Assess: the document came from this stack's API, and the viewer shows its operations
    const response = await answered;
    expect(response.status()).toBe(200);
    expect(response.url()).toBe(`${inject('apiUrl').replace(/\/$/, '')}/api/openapi.json`);
    expect(requested.some(viewerChunk)).toBe(true);
    const reference = page.getByTestId('api-reference');
    // The external API's tag comes first; the viewer draws a section as it scrolls into view
    await reference.getByText('External-Api').first().scrollIntoViewIfNeeded();
    const send = reference.getByText('Send a message to a number (external API)').first();
    await send.waitFor({ timeout: 60_000 });
    await reference.getByText('Conversa API').first().waitFor();
    await send.scrollIntoViewIfNeeded();
    await page.getByTestId('messages-api-text-form').waitFor();
    expect(await page.getByTestId('openapi-document-link').getAttribute('href')).toBe(response.url());
    await page.screenshot({ path: join(artifacts, 'api-reference-1440.png'), fullPage: false });
    // The page asked nothing of a third party (fonts, telemetry, a request proxy): only the app and its API.
    // The Help page before it shows videos' thumbnails from YouTube; one still loading when the route
    // changed is asked for after `fromHere` (a full run saw it), and this page shows none.
    const helpThumbnail = (url: string) => url.startsWith('https://img.youtube.com/vi/');
    const origins = new Set(
      requested
        .slice(fromHere)
        .filter((url) => /^https?:/.test(url) && !helpThumbnail(url))
        .map((url) => new URL(url).origin),
    );
    expect([...origins].sort()).toEqual([new URL(inject('apiUrl')).origin, new URL(inject('webUrl')).origin].sort());
  });

  it('the rendered reference passes axe (serious and critical), but for its sections nesting links in their buttons', async () => {
    await page.getByTestId('api-reference').getByText('Client Libraries').first().waitFor();
    await page.addScriptTag({ content: axeSource });
    const found = await page.evaluate(async () => {
      const { axe } = window as unknown as {
        axe: {
          run: (context: Element, options: object) => Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }>;
        };
      };
      const reference = document.querySelector('[data-testid=api-reference]') as Element;
      const result = await axe.run(reference, { resultTypes: ['violations'] });
      return result.violations
        .filter((v) => (v.impact === 'serious' || v.impact === 'critical') && v.id !== 'nested-interactive')
        .map((v) => `${v.id}: ${v.nodes.length}`);
    });
    expect(found).toEqual([]);
  });

  it('keeps the page within a phone screen with the reference in it', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('api-reference').getByText('Conversa API').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
    await page.screenshot({ path: join(artifacts, 'api-reference-390.png') });
  });
});
