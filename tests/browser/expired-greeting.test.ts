/**
 * The top bar's greeting of an expired company's admin (issue 25, minors), in headless Chromium in
 * en, pt and es: it said "(Active until <yesterday>)", a past date, beside the expiry notice. Now it
 * says "(Expired on <date>)"; a paid-up company's admin still reads "Active until" its due date.
 * Screenshots: tests/artifacts/expired-greeting-*.png.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../../infra/local/lambda-runtime.ts';
import { type Call, client, createTenant, paidPlanId, superLogin, type Tenant } from '../integration/tenants.ts';
import { type LaunchedBrowser, launchBrowser } from '../support/browser.ts';

const artifacts = join(repoRoot, 'tests', 'artifacts');
const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
const [y, m, d] = yesterday.split('-');

let call: Call;
let superToken: string;
let planId: number;
let tenant: Tenant;
let launched: LaunchedBrowser;

async function greetingOf(locale: string, landing: string): Promise<string> {
  const context = await launched.browser.newContext({ baseURL: inject('webUrl'), locale, viewport: { width: 1366, height: 860 } });
  const page = await context.newPage();
  await page.goto('/login');
  await page.locator('input[name=email]').waitFor({ timeout: 90_000 });
  await page.fill('input[name=email]', tenant.admin.email);
  await page.fill('input[name=password]', tenant.admin.password);
  await page.click('button[type=submit]');
  await page.waitForURL(`**${landing}`, { timeout: 60_000 });
  const greeting = page.getByTestId('greeting');
  await expect.poll(() => greeting.textContent(), { timeout: 30_000 }).toContain('(');
  await page.screenshot({ path: join(artifacts, `expired-greeting-${locale}.png`) });
  const text = (await greeting.textContent()) ?? '';
  await context.close();
  return text;
}

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  call = client(inject('apiUrl'));
  superToken = await superLogin(call, inject('admin'));
  // A plan worth paying for: the seeded one is free, and a free period renews itself.
  planId = await paidPlanId(call, superToken);
  tenant = await createTenant(call, superToken, planId, 'expired-greeting');
  launched = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await launched?.close();
});

describe("an expired company's greeting", { timeout: 240_000 }, () => {
  it('says Active until a date to come while paid up', async () => {
    expect(await greetingOf('en-US', '/tickets')).toMatch(/\(Active until \d{2}\/\d{2}\/\d{4}\)/);
  });

  it('says Expired on the past date, never Active until, in en, pt and es', async () => {
    const res = await call('PUT', `/companies/${tenant.companyId}`, {
      token: superToken,
      body: { name: tenant.companyName, email: tenant.admin.email, planId, dueDate: yesterday },
    });
    expect(res.status, res.text).toBe(200);
    const cases = [
      ['en-US', `(Expired on ${m}/${d}/${y})`],
      ['pt-BR', `(Venceu em ${d}/${m}/${y})`],
      ['es-ES', `(Venció el ${d}/${m}/${y})`],
    ];
    for (const [locale, expected] of cases) {
      const text = await greetingOf(locale as string, '/financeiro');
      expect(text).toContain(expected);
      expect(text).not.toMatch(/Active until|Ativo até|Activo hasta/);
    }
  });
});
