/**
 * A contact's data on request (issue 21 §4) on the Contacts page in headless Chromium over the local
 * stack: the admin downloads the contact's data as JSON from its row, then erases it; the erase
 * button stays off until the contact's number is typed, the row goes, and the API no longer knows
 * the contact. And the retention setting (§5) in Settings: the admin sets how many days messages
 * are kept, a value outside 0..3650 is refused with the reason; and exports the company's data as a
 * zip, downloaded once the job is done. Screenshots go to tests/artifacts/.
 */
import { randomInt } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../../infra/local/lambda-runtime.ts';
import { client, createTenant, firstPlanId, superLogin, type Tenant } from '../integration/tenants.ts';
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

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  tenant = await createTenant(call, await superLogin(call, inject('admin')), await firstPlanId(call), 'contact-data-web');
  launched = await launchBrowser();
  context = await launched.browser.newContext({
    baseURL: inject('webUrl'),
    locale: 'en-US',
    viewport: { width: 1366, height: 800 },
    acceptDownloads: true,
  });
  page = await context.newPage();
  await signInPage(page, tenant.admin.email, tenant.admin.password);
});

afterAll(async () => {
  await context?.close();
  await launched?.close();
});

describe('contacts: a contact’s data on request', { timeout: 150_000 }, () => {
  it('downloads the contact’s data, then erases it once its number is typed', async () => {
    // Prepare
    const token = await browserToken();
    const number = `55219${randomInt(10_000_000, 99_999_999)}`;
    const name = `Titular ${randomInt(100_000, 999_999)}`;
    const made = await call('POST', '/contacts', { token, body: { name, number } });
    expect(made.status).toBe(201);
    const contactId = (made.body as { id: number }).id;
    await page.goto('/contacts');
    const row = page.getByTestId('contacts-table').locator('tbody tr', { hasText: name });
    await row.waitFor();

    // Act: the export
    const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: 'Export data' }).click()]);
    expect(download.suggestedFilename()).toBe(`contato-${number}.json`);
    const document = JSON.parse(readFileSync(await download.path(), 'utf8'));
    expect(document.contact).toMatchObject({ id: contactId, name, number });
    expect(document.tickets).toEqual([]);

    // Act: the erasure, refused until the number is typed
    await row.getByRole('button', { name: 'Erase contact' }).click();
    const dialog = page.getByRole('dialog', { name: `Erase ${name} and their whole history?` });
    const confirm = dialog.getByTestId('erase-contact-confirm');
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByTestId('erase-contact-number').fill(number.slice(0, -1));
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByTestId('erase-contact-number').fill(`+${number.slice(0, 2)} (${number.slice(2, 4)}) ${number.slice(4)}`);
    await expect.poll(() => confirm.isDisabled()).toBe(false);
    await page.screenshot({ path: join(artifacts, 'contact-erase-confirm.png') });
    await confirm.click();

    // Assess
    await page.getByText(`${name}’s data was erased.`).waitFor();
    await row.waitFor({ state: 'detached' });
    await page.screenshot({ path: join(artifacts, 'contact-erase-done.png') });
    expect((await call('GET', `/contacts/${contactId}`, { token })).status).toBe(404);
  });

  it('sets how long messages are kept in Settings, and refuses a value outside 0..3650', async () => {
    const token = await browserToken();
    await page.goto('/settings');
    const field = page.getByLabel('Keep messages for (days, 0 = forever)');
    await field.waitFor();
    expect(await field.inputValue()).toBe('0');
    await page.getByText('Older messages and their files are deleted; the dashboard keeps its counts.').waitFor();

    await field.fill('4000');
    await field.blur();
    await page.getByText('At most 3650 days').waitFor();
    await field.fill('90');
    await field.blur();
    await page.getByText('Operation updated successfully').first().waitFor();
    await page.screenshot({ path: join(artifacts, 'settings-retention.png') });
    const settings = await call('GET', '/settings', { token });
    expect(settings.body).toContainEqual({ key: 'messageRetentionDays', value: '90' });
  });

  it('exports the company’s data from Settings and downloads the zip when it is ready', async () => {
    await page.goto('/settings');
    await page.getByRole('button', { name: 'Export company data' }).click();
    const download = page.getByTestId('company-export-download');
    await download.waitFor({ timeout: 60_000 });
    await page.screenshot({ path: join(artifacts, 'settings-company-export.png') });
    const zip = unzipSync(new Uint8Array(await (await fetch((await download.getAttribute('href')) ?? '')).arrayBuffer()));
    expect(JSON.parse(strFromU8(zip['company.json'] as Uint8Array))).toMatchObject({ id: tenant.companyId });
    expect(strFromU8(zip['users.json'] as Uint8Array)).toContain(tenant.admin.email);
  });
});
