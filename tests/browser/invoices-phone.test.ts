/**
 * Invoices on a phone (issue 25, minors): at 390 px the invoices table was wider than the screen and
 * its last column, the Pay button, sat past the right edge (in a table scrolled sideways, or off
 * the page). An expired company's admin, whose only way back in is that button, signs in on a phone
 * in headless Chromium over the local stack: the Pay button is whole on screen and the page does
 * not scroll sideways. Screenshot tests/artifacts/invoices-phone.png.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { format, subDays } from 'date-fns';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../../infra/local/lambda-runtime.ts';
import { type Call, client, createTenant, paidPlanId, superLogin, type Tenant } from '../integration/tenants.ts';
import { ok } from '../integration/whatsapp-kit.ts';
import { type LaunchedBrowser, launchBrowser } from '../support/browser.ts';

const artifacts = join(repoRoot, 'tests', 'artifacts');
const WIDTH = 390;

let call: Call;
let tenant: Tenant;
let launched: LaunchedBrowser;

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  call = client(inject('apiUrl'));
  const superToken = await superLogin(call, inject('admin'));
  // A plan worth paying for: the seeded one is free, and a free period renews itself.
  const planId = await paidPlanId(call, superToken);
  tenant = await createTenant(call, superToken, planId, 'invoices-phone');
  // The trial ended yesterday: an open invoice waits for the admin (issue 25).
  await ok(call, 'PUT', `/companies/${tenant.companyId}`, {
    token: superToken,
    body: { name: tenant.companyName, email: tenant.admin.email, planId, dueDate: format(subDays(new Date(), 1), 'yyyy-MM-dd') },
  });
  launched = await launchBrowser();
});

afterAll(async () => {
  await launched?.close();
});

describe('invoices at phone width', () => {
  it('shows the whole Pay button without sideways scrolling', async () => {
    const context = await launched.browser.newContext({
      baseURL: inject('webUrl'),
      locale: 'pt-BR',
      viewport: { width: WIDTH, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    await page.goto('/login');
    await page.locator('input[name=email]').waitFor({ timeout: 90_000 });
    await page.fill('input[name=email]', tenant.admin.email);
    await page.fill('input[name=password]', tenant.admin.password);
    await page.click('button[type=submit]');
    await page.waitForURL('**/financeiro');
    const pay = page.locator('[data-testid^="pay-invoice-"]').first();
    await pay.waitFor({ timeout: 60_000 });
    await page.screenshot({ path: join(artifacts, 'invoices-phone.png'), fullPage: true });

    const box = await pay.boundingBox();
    if (!box) throw new Error('the Pay button has no box');
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(WIDTH);
    // Whole inside the table too: not clipped by a table that scrolls sideways.
    const table = await page
      .locator('table')
      .first()
      .evaluate((el) => {
        const container = el.parentElement as HTMLElement;
        return { scrollWidth: container.scrollWidth, clientWidth: container.clientWidth };
      });
    expect(table.scrollWidth).toBeLessThanOrEqual(table.clientWidth);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(WIDTH);
    await context.close();
  }, 180_000);
});
