/**
 * Reports (issue 22 §4) in headless Chromium over the local stack. A small scripted day through the
 * simulated phone and the API: three contacts write to the company (the bot greets each: not a
 * response); the admin takes the first, writes a private note (not a response) and then answers and
 * resolves it; answers and resolves the second; the third waits unanswered. The admin opens Reports
 * from the menu and reads the real numbers (two first responses, two resolutions, three
 * conversations in Vendas, the heatmap's cell of this hour) as GET /reports/summary gives them, the
 * charts drawn, and downloads the CSV holding the same rows; the company's attendant, in no queue,
 * finds Reports too and sees none of it. Screenshots: tests/artifacts/reports-page.png, -attendant.png.
 */
import { randomInt } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ReportSummary } from '../../functions/src/contracts/reports.ts';
import { type Call, client, createTenant, firstPlanId, superLogin, type Tenant } from '../integration/tenants.ts';
import { type ConnectionSetup, connectedConnection, ok, type Simulator, simulator } from '../integration/whatsapp-kit.ts';
import { pendingTicketOf } from '../support/api.ts';
import { type LaunchedBrowser, launchBrowser, openPage, screenshots, signInPage } from '../support/browser.ts';

const shot = screenshots('reports');

let launched: LaunchedBrowser;
let page: Page;
let tenant: Tenant;
let call: Call;
let sim: Simulator;
let setup: ConnectionSetup;
let summary: ReportSummary;

/** As the page writes a duration under an hour (the script answers within seconds: the histogram says under 30 s). */
const seconds = (value: number | null) =>
  value === null ? '—' : value < 30 ? '< 30 s' : value < 60 ? `${Math.round(value)} s` : `${Math.round(value / 60)} min`;

beforeAll(async () => {
  call = client(inject('apiUrl'));
  sim = simulator(inject('simulatorUrl'));
  tenant = await createTenant(call, await superLogin(call, inject('admin')), await firstPlanId(call), 'reports-web');
  const token = tenant.admin.token;
  setup = await connectedConnection(call, sim, { token, companyId: tenant.companyId, queues: ['Vendas'] });
  const numbers = [0, 1, 2].map(() => `55419${randomInt(10_000_000, 99_999_999)}`);
  const ids: number[] = [];
  for (const [i, number] of numbers.entries()) {
    const text = `Olá, preciso de ajuda ${i}`;
    await sim.send(setup.simId, number, text, `Cliente ${i}`);
    ids.push(await pendingTicketOf(call, token, number, text));
  }
  const [first, second] = ids as [number, number];
  await ok(call, 'PUT', `/tickets/${first}`, { token, body: { status: 'open', userId: tenant.admin.id } });
  await ok(call, 'POST', `/messages/${first}`, { token, body: { body: 'Cliente antigo, tratar com prioridade', isPrivate: true } });
  await ok(call, 'POST', `/messages/${first}`, { token, body: { body: 'Olá! Já vou ver isso.' } });
  await ok(call, 'PUT', `/tickets/${first}`, { token, body: { status: 'closed', userId: tenant.admin.id } });
  await ok(call, 'PUT', `/tickets/${second}`, { token, body: { status: 'open', userId: tenant.admin.id } });
  await ok(call, 'POST', `/messages/${second}`, { token, body: { body: 'Bom dia! Como posso ajudar?' } });
  await ok(call, 'PUT', `/tickets/${second}`, { token, body: { status: 'closed', userId: tenant.admin.id } });
  // What the API answers for the period the page shows first (this month to today): the page must show it.
  summary = await ok<ReportSummary>(call, 'GET', '/reports/summary', { token });
  launched = await launchBrowser();
  page = await openPage(launched, { baseURL: inject('webUrl'), locale: 'en-US', viewport: { width: 1366, height: 900 } });
}, 180_000);

afterAll(async () => {
  await launched?.close();
});

describe('reports', { timeout: 240_000 }, () => {
  it("the script's day as the API counts it: two answered and resolved, a note and the bot's greeting no response", () => {
    expect(summary.firstResponse.count).toBe(2);
    expect(summary.resolution.count).toBe(2);
    expect(summary.volume.reduce((n, d) => n + d.conversations, 0)).toBe(3);
    expect(summary.byQueue.map((q) => [q.name, q.conversations, q.firstResponse.count])).toEqual([['Vendas', 3, 2]]);
    expect(summary.byUser.map((u) => [u.userId, u.firstResponse.count, u.resolution.count])).toEqual([[tenant.admin.id, 2, 2]]);
  });

  it('the admin opens Reports from the menu and reads those numbers, the charts and the heatmap, and downloads the CSV', async () => {
    await signInPage(page, tenant.admin.email, tenant.admin.password);
    await page.getByTestId('menu-reports').click();
    await page.waitForURL('**/reports');
    // A cold Lambda on a busy machine: the first answer may take seconds.
    await expect.poll(() => page.getByTestId('figure-first-response-detail').textContent(), { timeout: 60_000 }).toContain('2 measured');
    expect(await page.getByTestId('figure-first-response-value').textContent()).toBe(
      `${seconds(summary.firstResponse.median)} · ${seconds(summary.firstResponse.p90)}`,
    );
    expect(await page.getByTestId('figure-resolution-value').textContent()).toBe(
      `${seconds(summary.resolution.median)} · ${seconds(summary.resolution.p90)}`,
    );
    expect(await page.getByTestId('figure-resolution-detail').textContent()).toContain('2 measured');
    expect(await page.getByTestId('figure-csat-detail').textContent()).toBe('0 ratings');
    expect(await page.getByTestId('figure-sla-value').textContent()).toBe('—');
    // The tables: Vendas with its three conversations, the admin's row.
    const queueRow = page.getByTestId('reports-by-queue').locator('tbody tr');
    expect(await queueRow.count()).toBe(1);
    expect(await queueRow.first().locator('td').nth(0).textContent()).toBe('Vendas');
    expect(await queueRow.first().locator('td').nth(1).textContent()).toBe('3');
    expect(await page.getByTestId('reports-by-attendant').locator('tbody tr').count()).toBe(1);
    // The heatmap: the cells the API counted, with their numbers.
    for (const cell of summary.heatmap.filter((c) => c.conversations > 0))
      expect(await page.getByTestId(`heat-${cell.weekday}-${cell.hour}`).textContent()).toBe(String(cell.conversations));
    // The volume chart drew its bar (recharts, loaded with the charts).
    await page.getByTestId('chart-volume').locator('.recharts-bar-rectangle').first().waitFor({ timeout: 60_000 });
    await shot(page, 'page');

    // The CSV: the same rows.
    const download = page.waitForEvent('download', { timeout: 30_000 });
    await page.getByRole('button', { name: 'Download CSV' }).click();
    const file = await download;
    const csv = (await readFile(await file.path())).toString('utf8');
    const lines = csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r\n/);
    expect(lines[0]).toMatch(/^scope,id,name,conversations,firstResponseMedian/);
    expect(
      lines
        .find((l) => l.startsWith('queue,'))
        ?.split(',')
        .slice(2, 4),
    ).toEqual(['Vendas', '3']);
    expect(lines.find((l) => l.startsWith('total,'))?.split(',')[3]).toBe('3');
  });

  it("an attendant outside Vendas finds Reports in their menu and sees their queues' figures: none of the day's", async () => {
    const attendant = await openPage(launched, { baseURL: inject('webUrl'), locale: 'en-US', viewport: { width: 1366, height: 900 } });
    await signInPage(attendant, tenant.user.email, tenant.user.password);
    await attendant.getByTestId('menu-reports').click();
    await attendant.waitForURL('**/reports');
    await expect
      .poll(() => attendant.getByTestId('reports-period').textContent(), { timeout: 60_000 })
      .toContain("You see your queues' figures.");
    expect(await attendant.getByTestId('figure-first-response-detail').textContent()).toContain('0 measured');
    expect(await attendant.getByTestId('reports-by-queue').textContent()).toContain('Nothing in this period.');
    await shot(attendant, 'attendant');
  });
});
