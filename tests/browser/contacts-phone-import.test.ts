/**
 * "Import from phone" on the Contacts page in headless Chromium over the local stack: in a tenant of
 * its own with a CONNECTED simulated phone that has contacts saved, the admin confirms the import,
 * is told it started, and the phone's contact shows in the list without a reload (the contact
 * events). Without a connected default connection the server's reason is shown instead.
 * Screenshots go to tests/artifacts/.
 */
import { randomInt } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../../infra/local/lambda-runtime.ts';
import { client, createTenant, firstPlanId, superLogin, type Tenant } from '../integration/tenants.ts';
import { connectedConnection, simulator } from '../integration/whatsapp-kit.ts';
import { type LaunchedBrowser, launchBrowser, signInPage } from '../support/browser.ts';

const artifacts = join(repoRoot, 'tests', 'artifacts');
const call = client(inject('apiUrl'));
let launched: LaunchedBrowser;
let context: BrowserContext;
let page: Page;
let tenant: Tenant;

/** The browser session's ID token: signing in there ended the API session of `tenant.admin` (SPEC 4). */
const browserToken = () =>
  page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => k.startsWith('CognitoIdentityServiceProvider.') && k.endsWith('.idToken'));
    return key ? (localStorage.getItem(key) ?? '') : '';
  });

async function signIn(email: string, password: string) {
  await signInPage(page, email, password);
}

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  tenant = await createTenant(call, await superLogin(call, inject('admin')), await firstPlanId(call), 'phone-import-web');
  launched = await launchBrowser();
  context = await launched.browser.newContext({ baseURL: inject('webUrl'), locale: 'en-US', viewport: { width: 1366, height: 800 } });
  page = await context.newPage();
  await signIn(tenant.admin.email, tenant.admin.password);
});

afterAll(async () => {
  await context?.close();
  await launched?.close();
});

describe('contacts: import from the phone', { timeout: 150_000 }, () => {
  it('shows why nothing can be imported while there is no default connection', async () => {
    await page.goto('/contacts');
    await page.getByRole('button', { name: 'Import from phone' }).click();
    const confirm = page.getByRole('dialog', { name: 'Import the phone’s contacts?' });
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('No default WhatsApp connection found. Check the connections page.').waitFor();
  });

  it('after a confirmation, says the import started and the phone contacts appear live', async () => {
    // Prepare: a connected phone with a saved contact the inbox does not know
    const sim = simulator(inject('simulatorUrl'));
    const token = await browserToken();
    const setup = await connectedConnection(call, sim, { token, companyId: tenant.companyId, queues: ['Web import'] });
    const name = `Agenda ${randomInt(100_000, 999_999)}`;
    const res = await fetch(`${inject('simulatorUrl').replace(/\/$/, '')}/api/connections/${setup.simId}/address-book`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contacts: [{ number: `55119${randomInt(10_000_000, 99_999_999)}`, name }] }),
    });
    expect(res.ok).toBe(true);
    await page.goto('/contacts');
    const row = page.getByTestId('contacts-table').locator('tbody tr', { hasText: name });
    expect(await row.count()).toBe(0);

    // Act
    await page.getByRole('button', { name: 'Import from phone' }).click();
    const confirm = page.getByRole('dialog', { name: 'Import the phone’s contacts?' });
    await page.screenshot({ path: join(artifacts, 'contacts-phone-import-confirm.png') });
    await confirm.getByRole('button', { name: 'Confirm' }).click();

    // Assess
    await page.getByText('Importing the phone’s contacts started.').waitFor();
    await row.waitFor({ timeout: 45_000 });
    await page.screenshot({ path: join(artifacts, 'contacts-phone-import-done.png') });
  });
});
