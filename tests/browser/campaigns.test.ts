/**
 * The campaign pages in headless Chromium over the local stack (SPEC 2 "Contact lists", "List
 * contacts", "Campaigns", "Campaign report", "Campaign settings", 4 "Campaign"): the menu group
 * opens its pages (a plan with useCampaigns sets cshow), a list is created and filled by importing
 * an .xlsx (a refused row named by its line), a campaign is scheduled from the dialog (PROGRAMADA,
 * its time in pt-BR), its report follows the campaign's realtime channel without a reload, and the
 * settings keep the spec's intervals and a variable. Screenshots go to tests/artifacts/campaigns-*.png.
 */
import { randomInt } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Campaign, CampaignsPage } from '@conversa/functions/contracts/campaigns';
import { utils, write } from '@e965/xlsx';
import { addDays, format } from 'date-fns';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../../infra/local/lambda-runtime.ts';
import { type Call, client, createTenant, firstPlanId, superLogin, type Tenant } from '../integration/tenants.ts';
import { connectedConnection, ok, type Simulator, simulator, waitUntil } from '../integration/whatsapp-kit.ts';
import { launchBrowser, signInPage, typeDate } from '../support/browser.ts';

const artifacts = join(repoRoot, 'tests', 'artifacts');
const shot = (page: Page, name: string) => page.screenshot({ path: join(artifacts, `campaigns-${name}.png`) });
const listName = `Clientes VIP ${randomInt(1000, 9999)}`;
const campaignName = `Black Friday ${randomInt(1000, 9999)}`;
const fileListName = `Catálogo ${randomInt(1000, 9999)}`;
/** Tomorrow at 10:00 local time: always ahead, and more than an hour ahead (still editable). */
const scheduledAt = new Date(addDays(new Date(new Date().setHours(0, 0, 0, 0)), 1).setHours(10, 0, 0, 0));

let call: Call;
let sim: Simulator;
let tenant: Tenant;
let sheetPath: string;
let simId: string;
/** The sheet's valid contacts: name and number. */
let people: Array<[string, string]>;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  call = client(inject('apiUrl'));
  sim = simulator(inject('simulatorUrl'));
  const superToken = await superLogin(call, inject('admin'));
  tenant = await createTenant(call, superToken, await firstPlanId(call), 'campaigns-web');
  // The company's clock (issue 25 "One time zone") is this process's, whose local times the expectations write.
  await ok(call, 'PUT', '/settings/timezone', {
    token: tenant.admin.token,
    body: { value: Intl.DateTimeFormat().resolvedOptions().timeZone },
  });
  ({ simId } = await connectedConnection(call, sim, { token: tenant.admin.token, companyId: tenant.companyId, queues: ['Vendas'] }));
  // The sheet a user would fill from the sample: three good rows and one number too short (line 4).
  const rows = [
    ['nome', 'numero', 'email'],
    ['Ana Lima', `55119${randomInt(10_000_000, 99_999_999)}`, 'ana@exemplo.com'],
    ['Bruno Reis', `55219${randomInt(10_000_000, 99_999_999)}`, ''],
    ['Curto', '1234', ''],
    ['Dora Melo', `55319${randomInt(10_000_000, 99_999_999)}`, 'dora@exemplo.com'],
  ];
  people = [rows[1], rows[2], rows[4]].map((row) => [String(row?.[0]), String(row?.[1])]);
  const book = utils.book_new();
  utils.book_append_sheet(book, utils.aoa_to_sheet(rows), 'Contatos');
  sheetPath = join(tmpdir(), `campanha-${randomInt(1e9)}.xlsx`);
  writeFileSync(sheetPath, write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer);

  browser = (await launchBrowser()).browser;
  context = await browser.newContext({
    baseURL: inject('webUrl'),
    locale: 'pt-BR',
    colorScheme: 'light',
    viewport: { width: 1440, height: 900 },
  });
  page = await context.newPage();
  await signInPage(page, tenant.admin.email, tenant.admin.password);
});

afterAll(async () => {
  await context?.close();
  await browser?.close().catch(() => undefined);
});

const dialog = (testId: string) => page.getByTestId(testId);

// Generous: a shared CI machine under load takes seconds to open a page the first time.
describe('the campaign pages', { timeout: 300_000 }, () => {
  it('opens each entry of the Campanhas group on its page, the plan having set cshow', async () => {
    // Act
    await page.getByTestId('menu-campaigns').click();
    await page.getByTestId('menu-contactLists').click();
    // Assess
    await page.getByRole('heading', { name: 'Listas de contatos' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/contact-lists');
    await expect(page.evaluate(() => localStorage.getItem('cshow'))).resolves.toBe('true');
    await page.getByTestId('menu-campaignsConfig').click();
    await page.getByRole('heading', { name: 'Configurações de campanhas' }).waitFor();
    await page.getByTestId('menu-campaignsList').click();
    await page.getByRole('heading', { name: 'Campanhas', exact: true }).waitFor();
  });

  it('creates a list and fills it by importing an .xlsx: three added, the short number refused by its line', async () => {
    // Prepare
    await page.goto('/contact-lists');
    await page.getByRole('button', { name: 'Nova lista' }).click();
    await dialog('contact-list-dialog').locator('input[name=name]').fill('X');
    await dialog('contact-list-dialog').getByRole('button', { name: 'Adicionar' }).click();
    await dialog('contact-list-dialog')
      .getByText('Muito curto!')
      .or(dialog('contact-list-dialog').getByText('Too Short!'))
      .first()
      .waitFor();
    await dialog('contact-list-dialog').locator('input[name=name]').fill(listName);
    await dialog('contact-list-dialog').getByRole('button', { name: 'Adicionar' }).click();
    const row = page.getByRole('row').filter({ hasText: listName });
    await row.waitFor();
    await row.getByRole('button', { name: 'Ver contatos' }).click();
    await page.getByRole('heading', { name: listName }).waitFor();
    // Act
    await page.getByTestId('list-import-input').setInputFiles(sheetPath);
    await dialog('list-import-confirm').getByText('4 linhas').waitFor();
    await shot(page, '1-import-confirm');
    await dialog('list-import-confirm').getByRole('button', { name: 'Confirmar' }).click();
    // Assess
    const result = dialog('list-import-result');
    await result.getByText('3 adicionados, 0 já estavam na lista, 1 recusados.').waitFor();
    await result.getByText(/Linha 4 \(number\)/).waitFor();
    await result.getByRole('button', { name: 'Fechar' }).click();
    await waitUntil('the three contacts are listed', async () => (await page.getByTestId('list-contact').count()) === 3);
    await page.getByRole('row').filter({ hasText: 'Ana Lima' }).getByTestId('whatsapp-marker').waitFor();
    await shot(page, '2-list-contacts');
    // The list's count follows its contacts.
    await page.getByRole('link', { name: 'Voltar às listas' }).click();
    await row.getByRole('cell', { name: '3', exact: true }).waitFor();
  });

  it('keeps the spec intervals and a custom variable in the settings', async () => {
    // Prepare
    await page.goto('/campaigns-config');
    const intervals = page.getByTestId('campaign-intervals');
    // Act: no wait between messages, so the report below fills within seconds
    await intervals.getByRole('combobox', { name: 'Intervalo entre mensagens' }).click();
    const offered = await page.getByRole('option').allTextContents();
    await page.getByRole('option', { name: '0 segundos', exact: true }).click();
    await intervals.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Configurações salvas').first().waitFor();
    await page.locator('input[name=variableKey]').fill('loja');
    await page.locator('input[name=variableValue]').fill('Centro');
    await page.getByTestId('campaign-variables').getByRole('button', { name: 'Adicionar' }).click();
    // Assess
    expect(offered).toEqual(['0 segundos', '5 segundos', '10 segundos', '15 segundos', '20 segundos']);
    await page.getByTestId('campaign-variable').getByText('{loja}').waitFor();
    const records = await ok<{ key: string; value: string }[]>(call, 'GET', '/campaign-settings', { token: tenant.user.token });
    const stored = Object.fromEntries(records.map((record) => [record.key, JSON.parse(record.value)]));
    expect(stored).toMatchObject({ messageInterval: 0, variables: [{ key: 'loja', value: 'Centro' }] });
    await shot(page, '3-settings');
  });

  it('creates a file list whose file goes straight to the bucket; the campaign dialog offers it', async () => {
    // Prepare
    await page.goto('/files');
    await page.getByRole('button', { name: 'Nova lista' }).click();
    const form = dialog('file-list-dialog');
    // Act
    await form.locator('input[name=name]').fill('Ca');
    await form.getByRole('button', { name: 'Adicionar', exact: true }).click();
    await form.getByText('nome muito curto').waitFor();
    await form.locator('input[name=name]').fill(fileListName);
    await form.locator('textarea[name=message]').fill('Veja o catálogo');
    await form
      .getByTestId('file-list-files')
      .setInputFiles({ name: 'catalogo.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 catálogo') });
    await form.getByTestId('file-list-option').locator('input').first().waitFor();
    await shot(page, '5-file-list-dialog');
    await form.getByRole('button', { name: 'Adicionar', exact: true }).click();
    // Assess: saved with its one file, uploaded and named by option
    await page.getByText('Lista de arquivos salva com sucesso.').waitFor();
    await page.getByRole('row').filter({ hasText: fileListName }).getByRole('cell', { name: '1', exact: true }).waitFor();
    const { files } = await ok<{
      files: Array<{ name: string; options: Array<{ name: string; path: string | null; mediaName: string | null }> }>;
    }>(call, 'GET', '/files', { token: tenant.user.token, query: { searchParam: fileListName } });
    expect(files[0]?.options).toEqual([
      expect.objectContaining({
        name: 'catalogo',
        mediaName: expect.stringContaining('catalogo'),
        path: expect.stringMatching(/^\/public\//),
      }),
    ]);
  });

  it('schedules a campaign from the dialog: PROGRAMADA, its time shown in pt-BR', async () => {
    // Prepare
    await page.goto('/campaigns');
    await page.getByRole('button', { name: 'Nova campanha' }).click();
    const form = dialog('campaign-dialog');
    // Act
    await form.locator('input[name=name]').fill(campaignName);
    await form.getByRole('combobox', { name: 'Lista de contatos' }).click();
    await page.getByRole('option', { name: new RegExp(listName) }).click();
    await form.getByRole('combobox', { name: 'Conexão' }).click();
    await page.getByRole('option').filter({ hasText: 'Phone' }).first().click();
    await form.getByRole('combobox', { name: 'Lista de arquivos' }).click();
    await page.getByRole('option', { name: fileListName }).waitFor();
    await page.keyboard.press('Escape');
    await typeDate(page, form.locator('input[name=scheduledAt]'), scheduledAt, { time: true });
    await form.locator('textarea[name=message1]').fill('Olá ');
    await form.getByRole('button', { name: '{nome}' }).click();
    await form.getByTestId('campaign-tab-2').click();
    await form.locator('textarea[name=message2]').fill('Oi {nome}, temos ofertas para você');
    await form.getByTestId('campaign-tab-1').click();
    await expect(form.locator('textarea[name=message1]').inputValue()).resolves.toBe('Olá {nome}');
    await shot(page, '6-dialog');
    await form.getByRole('button', { name: 'Adicionar', exact: true }).click();
    // Assess
    await page.getByText('Campanha salva com sucesso.').waitFor();
    const row = page.getByRole('row').filter({ hasText: campaignName });
    await row.getByTestId('campaign-status').getByText('Programada').waitFor();
    await row.getByText(format(scheduledAt, 'dd/MM/yyyy HH:mm')).waitFor();
    const saved = await ok<CampaignsPage>(call, 'GET', '/campaigns', { token: tenant.user.token, query: { searchParam: campaignName } });
    expect(saved.records[0]).toMatchObject({ status: 'PROGRAMADA', scheduledAt: scheduledAt.toISOString(), message1: 'Olá {nome}' });
    await shot(page, '7-campaigns');
  });

  it('fills the report live as the scheduled campaign runs, without a reload', async () => {
    // Prepare
    const { records } = await ok<CampaignsPage>(call, 'GET', '/campaigns', {
      token: tenant.user.token,
      query: { searchParam: campaignName },
    });
    const campaign = records[0] as Campaign;
    await page.getByRole('row').filter({ hasText: campaignName }).getByRole('button', { name: 'Relatório' }).click();
    await page.getByTestId('campaign-report').waitFor({ timeout: 90_000 });
    await page.getByTestId('tile-list-value').getByText(listName).waitFor();
    await expect(page.getByTestId('report-status').textContent()).resolves.toBe('Programada');
    // Act: another user of the company brings the start to a few seconds from now
    const soon = new Date(Date.now() + 6000);
    await ok(call, 'PUT', `/campaigns/${campaign.id}`, { token: tenant.user.token, body: { scheduledAt: soon.toISOString() } });
    // Assess: the new time shows, then the campaign runs and every valid contact is delivered
    await page.getByTestId('tile-schedule-value').getByText(format(soon, 'dd/MM/yyyy HH:mm')).waitFor();
    await page
      .getByTestId('report-status')
      .getByText('Em andamento')
      .or(page.getByTestId('report-status').getByText('Finalizada'))
      .waitFor({ timeout: 60_000 });
    await page.getByTestId('report-status').getByText('Finalizada').waitFor({ timeout: 60_000 });
    await expect(page.getByTestId('tile-valid-value').textContent()).resolves.toBe('3');
    await expect(page.getByTestId('tile-delivered-value').textContent()).resolves.toBe('3');
    await page.getByText('3 de 3 contatos válidos receberam a mensagem').waitFor();
    await expect(page.getByTestId('report-progress').getAttribute('aria-valuenow')).resolves.toBe('100');
    // Each contact got exactly one of the two messages, with its name filled in.
    for (const [name, number] of people) {
      const sent = (await sim.chat(simId, number)).filter((entry) => entry.from === 'us').map((entry) => entry.body);
      expect(sent).toHaveLength(1);
      expect([`Olá ${name}`, `Oi ${name}, temos ofertas para você`]).toContain(sent[0]);
    }
    await shot(page, '8-report');
  });

  it('fits a phone in dark mode', async () => {
    // Act
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    // Assess
    await page.getByTestId('tile-delivered-value').getByText('3').waitFor({ timeout: 90_000 });
    await shot(page, '9-report-390-dark');
    await page.goto('/campaigns');
    await page.getByRole('row').filter({ hasText: campaignName }).getByText('Finalizada').waitFor({ timeout: 90_000 });
    await shot(page, '10-campaigns-390-dark');
    await page.getByRole('button', { name: 'Nova campanha' }).click();
    await page.getByTestId('campaign-dialog').getByRole('tab', { name: 'Msg. 1' }).waitFor({ timeout: 90_000 });
    await shot(page, '11-dialog-390-dark');
  });
});
