/**
 * The Connections page's status column in headless Chromium (issue 25, "the connection status column
 * says its status in words"): beside the icon, a connected phone's row reads Conectado / Connected /
 * Conectado in pt, en and es, without hovering for a tooltip. Screenshots go to
 * tests/artifacts/connection-status-*.png.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../../infra/local/lambda-runtime.ts';
import { client, createTenant, firstPlanId, superLogin, type Tenant } from '../integration/tenants.ts';
import { connectedConnection, simulator } from '../integration/whatsapp-kit.ts';
import { type LaunchedBrowser, launchBrowser, signInPage } from '../support/browser.ts';

const artifacts = join(repoRoot, 'tests', 'artifacts');

let tenant: Tenant;
let connectionId: number;
let launched: LaunchedBrowser;

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  const call = client(inject('apiUrl'));
  const superToken = await superLogin(call, inject('admin'));
  tenant = await createTenant(call, superToken, await firstPlanId(call), 'connection-status');
  const sim = simulator(inject('simulatorUrl'));
  ({ connectionId } = await connectedConnection(call, sim, { token: tenant.admin.token, companyId: tenant.companyId, queues: ['Vendas'] }));
  launched = await launchBrowser();
});

afterAll(async () => {
  await launched?.close();
});

const languages = [
  { locale: 'pt-BR', header: 'Status', word: 'Conectado' },
  { locale: 'en-US', header: 'Status', word: 'Connected' },
  { locale: 'es-ES', header: 'Estado', word: 'Conectado' },
];

describe("the Connections page's status column", { timeout: 180_000 }, () => {
  for (const { locale, header, word } of languages) {
    it(`names the status in words beside its icon (${locale})`, async () => {
      const context = await launched.browser.newContext({ baseURL: inject('webUrl'), locale, viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      page.setDefaultTimeout(60_000);
      await page.goto('/login');
      await page.locator('input[name=email]').waitFor({ timeout: 90_000 });
      await signInPage(page, tenant.admin.email, tenant.admin.password);
      await page.goto('/connections');
      const row = page.getByTestId(`connection-row-${connectionId}`);
      await row.waitFor();
      const headers = await page.getByRole('columnheader').allInnerTexts();
      const cell = row.getByRole('cell').nth(headers.findIndex((text) => text.trim() === header));
      await page.screenshot({ path: join(artifacts, `connection-status-${locale}.png`) });
      // biome-ignore lint/performance/useDomNodeTextContent: the words a person sees, not a hidden label.
      expect((await cell.innerText()).trim()).toBe(word);
      await context.close();
    });
  }
});
