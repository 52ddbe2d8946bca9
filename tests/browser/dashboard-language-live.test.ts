/**
 * The dashboard as a new company met it (issue 25, minors): a Spanish owner opened a dashboard with
 * Portuguese words ("Atendentes") and two bare chart frames; tickets came in and the counters stood
 * still until a reload; in pt the average read "0.05 min" and the chart's days "11-29" (the API's
 * month-day), whatever the language. Here, in headless Chromium over the local stack: the es owner
 * sees the empty state, then a conversation created through the API shows up in the counters and the
 * charts without a reload; pt and en then read the same figures with their decimal mark and their day
 * order (dd/MM in pt and es, MM/dd in en). Screenshots go to tests/artifacts/.
 */
import { randomInt } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../../infra/local/lambda-runtime.ts';
import { type Call, client, createTenant, firstPlanId, superLogin, type Tenant } from '../integration/tenants.ts';
import { ok } from '../integration/whatsapp-kit.ts';
import { type LaunchedBrowser, launchBrowser, signInPage } from '../support/browser.ts';

const artifacts = join(repoRoot, 'tests', 'artifacts');
const shot = (page: Page, name: string) => page.screenshot({ path: join(artifacts, `dashboard-language-${name}.png`), fullPage: true });

let call: Call;
let tenant: Tenant;
let launched: LaunchedBrowser;
let queueId: number;
let connectionId: number;

async function open(locale: string): Promise<{ page: Page; period: { from: string; to: string } }> {
  const context = await launched.browser.newContext({ baseURL: inject('webUrl'), locale, viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  await signInPage(page, tenant.admin.email, tenant.admin.password);
  const answer = page.waitForResponse((res) => new URL(res.url()).pathname.endsWith('/dashboard') && res.status() === 200, {
    timeout: 60_000,
  });
  await page.goto('/');
  const body = (await (await answer).json()) as { period: { from: string; to: string } };
  return { page, period: body.period };
}

/**
 * The texts of the days chart's X axis ticks (recharts drops some when crowded, always keeping the
 * last): the tick labels that are not the Y axis' counts. SVG text has no innerText: textContent.
 */
const xTicks = async (page: Page, chart: string) =>
  (
    await page
      .getByTestId(chart)
      .locator('.recharts-cartesian-axis-tick-value')
      .evaluateAll((els) => els.map((e) => e.textContent ?? ''))
  )
    .map((text) => text.trim())
    .filter((text) => !/^\d+$/.test(text));

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  call = client(inject('apiUrl'));
  const superToken = await superLogin(call, inject('admin'));
  tenant = await createTenant(call, superToken, await firstPlanId(call), 'dashboard-language');
  const token = tenant.admin.token;
  const queue = await ok<{ id: number }>(call, 'POST', '/queue', { token, body: { name: 'Vendas', color: '#1976d2' } });
  queueId = queue.id;
  for (const id of [tenant.admin.id, tenant.user.id]) await ok(call, 'PUT', `/users/${id}`, { token, body: { queueIds: [queueId] } });
  connectionId = (await ok<{ id: number }>(call, 'POST', '/whatsapp', { token, body: { name: 'Principal' } })).id;
  launched = await launchBrowser();
});

afterAll(async () => {
  await launched?.close();
});

describe('dashboard across languages, live', () => {
  it('es: no Portuguese, an empty state, then a new conversation arrives without a reload', async () => {
    const { page } = await open('es-ES');
    await expect.poll(() => page.getByTestId('counter-happening').textContent(), { timeout: 60_000 }).toBe('0');
    // The empty charts say so instead of drawing bare axes.
    for (const chart of ['chart-users', 'chart-days']) {
      await page.getByTestId(chart).getByText('Aún no hay atenciones en este período.').waitFor({ timeout: 60_000 });
      expect(await page.getByTestId(chart).locator('.recharts-surface').count()).toBe(0);
    }
    // Every dashboard word in Spanish: the attendants are "Agentes", not the Portuguese "Atendentes".
    const text = (await page.locator('main').textContent()) ?? '';
    expect(text).not.toMatch(/Atendente|Atendimento/i);
    expect(text).toContain('Agentes');
    await shot(page, 'es-empty');

    // A conversation opens while the owner watches (the attendant works through the API: the
    // owner's own API token ended when the browser signed in): the counter and the charts follow.
    const contact = await ok<{ id: number }>(call, 'POST', '/contacts', {
      token: tenant.user.token,
      body: { name: 'Cliente Vivo', number: `55119${randomInt(10_000_000, 99_999_999)}` },
    });
    const ticket = await ok<{ id: number }>(call, 'POST', '/tickets', {
      token: tenant.user.token,
      body: { contactId: contact.id, queueId, whatsappId: connectionId, userId: tenant.user.id, status: 'open' },
    });
    await expect.poll(() => page.getByTestId('counter-happening').textContent(), { timeout: 30_000 }).toBe('1');
    await page.getByTestId('chart-days').locator('.recharts-bar-rectangle').first().waitFor({ timeout: 30_000 });
    // It ends after a second and a half: a fraction of a minute, so the average has decimals.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await ok(call, 'PUT', `/tickets/${ticket.id}`, { token: tenant.user.token, body: { status: 'closed', userId: tenant.user.id } });
    await expect.poll(() => page.getByTestId('counter-finished').textContent(), { timeout: 30_000 }).toBe('1');
    await expect.poll(() => page.getByTestId('counter-support-time').textContent(), { timeout: 30_000 }).toMatch(/^\d+,\d+ min$/);
    await shot(page, 'es-live');
    await page.context().close();
  }, 240_000);

  it('pt writes 0,05 min and dd/MM; en writes 0.05 min and MM/dd', async () => {
    for (const [locale, mark, day] of [
      ['pt-BR', ',', (m: string, d: string) => `${d}/${m}`],
      ['en-US', '.', (m: string, d: string) => `${m}/${d}`],
    ] as const) {
      const { page, period } = await open(locale);
      const [, month, date] = period.to.split('-') as [string, string, string];
      await expect.poll(() => page.getByTestId('counter-finished').textContent(), { timeout: 60_000 }).toBe('1');
      const time = (await page.getByTestId('counter-support-time').textContent()) ?? '';
      expect(time, locale).toMatch(/^\d+[.,]\d+ min$/);
      expect(time.replace(/^\d+/, '').charAt(0), locale).toBe(mark);
      await page.getByTestId('chart-days').locator('.recharts-bar-rectangle').first().waitFor({ timeout: 60_000 });
      await expect.poll(async () => (await xTicks(page, 'chart-days')).length, { timeout: 30_000 }).toBeGreaterThan(0);
      const ticks = await xTicks(page, 'chart-days');
      // A one-day period (the default on a month's first day) draws that day's hours: 01h, 02h...
      const oneDay = period.from === period.to;
      for (const tick of ticks) expect(tick, locale).toMatch(oneDay ? /^\d{2}h$/ : /^\d{2}\/\d{2}$/);
      // The last day of the period (kept by recharts) in the language's order.
      expect(ticks.at(-1), locale).toBe(oneDay ? ticks.at(-1) : day(month, date));
      await shot(page, locale);
      await page.context().close();
    }
  }, 240_000);
});
