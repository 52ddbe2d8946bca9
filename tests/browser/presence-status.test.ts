/**
 * Presence in headless Chromium (issue 22 §1): an attendant chooses Away in the top bar's status
 * menu and the admin's dashboard, open in another browser, shows her dot away without a reload;
 * Online brings it back. Screenshots go to tests/artifacts/presence-status-*.png.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Call, client, createTenant, firstPlanId, superLogin, type Tenant } from '../integration/tenants.ts';
import { type LaunchedBrowser, launchBrowser, openPage, screenshots, signInPage } from '../support/browser.ts';

const shot = screenshots('presence-status');

let call: Call;
let tenant: Tenant;
let launched: LaunchedBrowser;
let attendant: Page;
let admin: Page;

beforeAll(async () => {
  call = client(inject('apiUrl'));
  tenant = await createTenant(call, await superLogin(call, inject('admin')), await firstPlanId(call), 'presence-ui');
  launched = await launchBrowser();
  attendant = await openPage(launched, { baseURL: inject('webUrl') });
  admin = await openPage(launched, { baseURL: inject('webUrl') });
  await signInPage(attendant, tenant.user.email, tenant.user.password);
  await signInPage(admin, tenant.admin.email, tenant.admin.password);
}, 300_000);

afterAll(async () => {
  await attendant?.context().close();
  await admin?.context().close();
  await launched?.close();
});

/** The attendant's dot in the admin's dashboard table (null while the table is not drawn yet). */
const dashboardDot = () =>
  admin
    .getByTestId('attendant-row')
    .filter({ hasText: `User ${tenant.marker}` })
    .locator('[data-presence]')
    .getAttribute('data-presence', { timeout: 5_000 })
    .catch(() => null);

describe('the top bar status menu', { timeout: 240_000 }, () => {
  it('sets Away, and the dashboard shows the attendant away; Online brings her back', async () => {
    // Prepare: the admin's dashboard shows the attendant online while her tab is open and in use
    await admin.goto('/');
    // A cold dashboard Lambda on a busy machine: its first answer may take a while.
    await expect.poll(dashboardDot, { timeout: 120_000 }).toBe('online');
    await expect.poll(() => attendant.getByTestId('presence-button').getAttribute('data-status')).toBe('online');

    // Act: the attendant chooses Away in the top bar
    await attendant.getByTestId('presence-button').click();
    await attendant.getByTestId('presence-away').click();

    // Assess: her own dot says away, and the admin's dashboard follows without a reload
    await expect.poll(() => attendant.getByTestId('presence-button').getAttribute('data-status')).toBe('away');
    await expect.poll(dashboardDot, { timeout: 30_000 }).toBe('away');
    const row = admin.getByTestId('attendant-row').filter({ hasText: `User ${tenant.marker}` });
    expect(await row.locator('[data-presence]').getAttribute('aria-label')).toBe('Ausente');
    await shot(attendant, 'attendant-away', { fullPage: false });
    await shot(admin, 'dashboard-away');

    // Act + Assess: Online again
    await attendant.getByTestId('presence-button').click();
    await attendant.getByTestId('presence-online').click();
    await expect.poll(dashboardDot, { timeout: 30_000 }).toBe('online');
    await shot(admin, 'dashboard-online');
  });

  it('keeps Away across a reload of the attendant’s page, and the users list shows it', async () => {
    await attendant.getByTestId('presence-button').click();
    await attendant.getByTestId('presence-away').click();
    await attendant.reload();
    await expect.poll(() => attendant.getByTestId('presence-button').getAttribute('data-status'), { timeout: 60_000 }).toBe('away');
    await admin.goto('/users');
    const row = admin.getByRole('row').filter({ hasText: tenant.user.email });
    await expect.poll(() => row.locator('[data-presence]').getAttribute('data-presence'), { timeout: 30_000 }).toBe('away');
    await shot(admin, 'users-away');
  });
});
