/**
 * The campaign report names its recipients (issue 25, minors): the report's tiles counted
 * deliveries, but the shop could not see who got the message nor take the list away. In headless
 * Chromium over the local stack (the WhatsApp simulator as the phone): a three-contact campaign's
 * report lists them as waiting, then, once it has run, as delivered without a reload of the list
 * (the report refreshes when the campaign finishes); the state filter narrows it and Export CSV
 * downloads the rows shown (a name that reads as a formula neutralised). Screenshot tests/artifacts/campaign-recipients.png.
 */
import { randomInt } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../../infra/local/lambda-runtime.ts';
import { type Call, client, createTenant, firstPlanId, superLogin, type Tenant } from '../integration/tenants.ts';
import { connectedConnection, ok, simulator } from '../integration/whatsapp-kit.ts';
import { type LaunchedBrowser, launchBrowser, signInPage } from '../support/browser.ts';

const artifacts = join(repoRoot, 'tests', 'artifacts');
const people = [
  ['Lia Campos', `55119${randomInt(10_000_000, 99_999_999)}`],
  ['Rui Prado', `55219${randomInt(10_000_000, 99_999_999)}`],
  // A name from an imported list that a spreadsheet would run as a formula.
  ['=1+1 Teresa', `55319${randomInt(10_000_000, 99_999_999)}`],
] as const;

let call: Call;
let tenant: Tenant;
let launched: LaunchedBrowser;
let page: Page;
let campaignId: number;

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  call = client(inject('apiUrl'));
  const sim = simulator(inject('simulatorUrl'));
  const superToken = await superLogin(call, inject('admin'));
  tenant = await createTenant(call, superToken, await firstPlanId(call), 'campaign-recipients');
  const token = tenant.admin.token;
  const { connectionId } = await connectedConnection(call, sim, { token, companyId: tenant.companyId, queues: ['Vendas'] });
  await ok(call, 'POST', '/campaign-settings', {
    token,
    body: { settings: { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0, variables: [] } },
  });
  const list = await ok<{ id: number }>(call, 'POST', '/contact-lists', { token, body: { name: 'Natal' } });
  for (const [name, number] of people)
    await ok(call, 'POST', '/contact-list-items', { token, body: { name, number, email: '', contactListId: list.id } });
  campaignId = (
    await ok<{ id: number }>(call, 'POST', '/campaigns', {
      token,
      body: { name: 'Natal', contactListId: list.id, whatsappId: connectionId, message1: 'Feliz Natal, {nome}!' },
    })
  ).id;
  launched = await launchBrowser();
  const context = await launched.browser.newContext({ baseURL: inject('webUrl'), locale: 'pt-BR', acceptDownloads: true });
  page = await context.newPage();
  await signInPage(page, tenant.admin.email, tenant.admin.password);
});

afterAll(async () => {
  await launched?.close();
});

const states = () =>
  page
    .getByTestId('recipient-row')
    .evaluateAll((rows) => rows.map((row) => Array.from(row.querySelectorAll('td')).map((td) => td.textContent ?? '')));

describe('the campaign report', () => {
  it('lists each recipient with their state, filters and exports them', async () => {
    await page.goto(`/campaign/${campaignId}/report`);
    const recipients = page.getByTestId('campaign-recipients');
    await recipients.getByText('Destinatários (3)').waitFor({ timeout: 90_000 });
    expect((await states()).map((cells) => [cells[0], cells[1], cells[2]])).toEqual(people.map(([n, num]) => [n, num, 'Aguardando']));

    // The campaign runs (another user of the company starts it now): all three are delivered.
    await ok(call, 'PUT', `/campaigns/${campaignId}`, {
      token: tenant.user.token,
      body: { scheduledAt: new Date(Date.now() + 3000).toISOString() },
    });
    await page.getByTestId('report-status').getByText('Finalizada').waitFor({ timeout: 90_000 });
    await expect
      .poll(async () => (await states()).map((cells) => cells[2]), { timeout: 30_000 })
      .toEqual(['Entregue', 'Entregue', 'Entregue']);
    await page.screenshot({ path: join(artifacts, 'campaign-recipients.png'), fullPage: true });

    // The filter: none failed.
    await recipients.getByLabel('Situação').click();
    await page.getByRole('option', { name: 'Falhou' }).click();
    await recipients.getByText('Destinatários (0)').waitFor();
    await recipients.getByLabel('Situação').click();
    await page.getByRole('option', { name: 'Todas' }).click();
    await recipients.getByText('Destinatários (3)').waitFor();

    // The export: the rows shown, with their state in words.
    const download = page.waitForEvent('download');
    await recipients.getByRole('button', { name: 'Exportar CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`destinatarios-campanha-${campaignId}.csv`);
    const text = readFileSync((await file.path()) ?? '', 'utf8');
    const lines = text.trim().split(/\r?\n/);
    expect(lines[0]).toBe('Nome,Número,Situação,Quando,Motivo');
    for (const [name, number] of people) {
      const cell = name.startsWith('=') ? `'${name}` : name;
      expect(
        lines.some((line) => line.startsWith(`${cell},${number},Entregue,`)),
        name,
      ).toBe(true);
    }
  }, 240_000);
});
