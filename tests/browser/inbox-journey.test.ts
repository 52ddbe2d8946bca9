/**
 * Issue 4's whole inbox journey in headless Chromium over the local stack, three people at once:
 * the admin creates a queue and an attendant in the web app and puts the queue on the connection; a
 * simulated contact writes and picks that queue; the ticket shows up under Pending, without a
 * reload, for that queue's attendant (Ana) and not for the other queue's (Bruno); Ana accepts,
 * replies with text and an image, tags the ticket, writes a note and transfers it to Bruno's queue;
 * Bruno sees it arrive live, accepts, sees the contact's reply live, resolves with ratings on (the
 * contact rates 3 and gets the completion message) and reopens it from the Closed tab.
 * Screenshots of both layouts go to tests/artifacts/journey-*.png.
 */
import { randomInt } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../../infra/local/lambda-runtime.ts';
import { type Call, client, createTenant, firstPlanId, PASSWORD, superLogin, type Tenant } from '../integration/tenants.ts';
import { type ConnectionSetup, connectedConnection, ok, type Simulator, simulator, waitUntil } from '../integration/whatsapp-kit.ts';
import { type LaunchedBrowser, launchBrowser } from '../support/browser.ts';

const artifacts = join(repoRoot, 'tests', 'artifacts');
const number = `55119${randomInt(10_000_000, 99_999_999)}`;
const contactName = `Clara ${randomInt(1000, 9999)}`;
const tagName = `Prioridade ${randomInt(100, 999)}`;
const ana = { name: 'Ana Vendas', email: `ana-${randomInt(1e6, 9e6)}@journey.test` };
const RATING_MESSAGE = 'Como você avalia o nosso atendimento?';
const COMPLETION_MESSAGE = 'Obrigado pelo contato!';
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
/** Crosses the whole pipeline (phone -> queue -> Lambda -> socket) on a loaded 2-core machine. */
const PIPELINE_WAIT_MS = 45_000;

let call: Call;
let sim: Simulator;
let tenant: Tenant;
let setup: ConnectionSetup;
let launched: LaunchedBrowser;
const contexts: BrowserContext[] = [];
let admin: Page;
let anaPage: Page;
let brunoPage: Page;

interface PhoneEntry {
  from: 'us' | 'contact';
  body: string;
  media?: { mimetype: string };
}
const phone = async () => (await sim.chat(setup.simId, number)) as unknown as PhoneEntry[];
const fromUs = async () => (await phone()).filter((m) => m.from === 'us');
/** Waits for the phone to show one more message from us than `before`, and returns it. */
const nextFromUs = (what: string, before: number) =>
  waitUntil(what, async () => {
    const list = await fromUs();
    return list.length > before ? list.at(-1) : undefined;
  });

const row = (page: Page) => page.getByTestId('ticket-row').filter({ hasText: contactName });
const shot = (page: Page, name: string) => page.screenshot({ path: join(artifacts, `journey-${name}.png`) });

async function openPage(): Promise<Page> {
  const context = await launched.browser.newContext({
    baseURL: inject('webUrl'),
    locale: 'pt-BR',
    colorScheme: 'light',
    viewport: { width: 1366, height: 800 },
  });
  contexts.push(context);
  return context.newPage();
}

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page
    .locator('input[name=email]')
    .waitFor({ timeout: 20_000 })
    .catch(async (error: unknown) => {
      await shot(page, `login-${email.split('@')[0]}`);
      throw error;
    });
  await page.fill('input[name=email]', email);
  await page.fill('input[name=password]', password);
  await page.click('button[type=submit]');
  await page.waitForURL(/\/(tickets)?$/);
}

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  call = client(inject('apiUrl'));
  sim = simulator(inject('simulatorUrl'));
  tenant = await createTenant(call, await superLogin(call, inject('admin')), await firstPlanId(call), 'journey');
  const token = tenant.admin.token;
  // What the admin set up before today (the admin's browser sign-in below ends this API session).
  setup = await connectedConnection(call, sim, {
    token,
    companyId: tenant.companyId,
    queues: ['Suporte'],
    greeting: 'Bem-vindo! Escolha uma fila:',
    connection: { ratingMessage: RATING_MESSAGE, complationMessage: COMPLETION_MESSAGE },
  });
  await ok(call, 'PUT', '/settings/userRating', { token, body: { value: 'enabled' } });
  await ok(call, 'POST', '/tags', { token, body: { name: tagName, color: '#00897b' } });
  await ok(call, 'PUT', `/users/${tenant.user.id}`, { token, body: { name: 'Bruno Suporte', queueIds: [setup.queueIds[0]] } });
  launched = await launchBrowser();
}, 180_000);

afterAll(async () => {
  for (const context of contexts) await context.close();
  await launched?.close();
});

describe('the inbox journey', { timeout: 180_000 }, () => {
  it('the admin creates the Vendas queue and its attendant in the app and puts the queue on the connection', async () => {
    admin = await openPage();
    await signIn(admin, tenant.admin.email, tenant.admin.password);
    // The queue
    await admin.goto('/queues');
    await admin.getByRole('button', { name: 'Adicionar fila' }).click();
    const queueDialog = admin.getByRole('dialog');
    await queueDialog.getByLabel('Nome').first().fill('Vendas');
    await queueDialog.getByRole('radiogroup', { name: 'Cor' }).getByRole('radio').nth(3).click();
    await queueDialog.getByRole('button', { name: 'Salvar' }).click();
    await admin.getByRole('row').filter({ hasText: 'Vendas' }).waitFor();
    // The attendant, in that queue
    await admin.goto('/users');
    await admin.getByRole('button', { name: 'Adicionar usuário' }).click();
    const userDialog = admin.getByRole('dialog');
    await userDialog.getByLabel('Nome').fill(ana.name);
    await userDialog.getByLabel('Senha', { exact: true }).fill(PASSWORD);
    await userDialog.getByLabel('E-mail').fill(ana.email);
    await userDialog.getByTestId('user-queues').getByRole('combobox').click();
    await admin.getByRole('option', { name: 'Vendas' }).click();
    await admin.keyboard.press('Escape');
    await userDialog.getByRole('button', { name: 'Adicionar' }).click();
    await admin.getByRole('row').filter({ hasText: ana.email }).waitFor();
    // The connection offers both queues
    await admin.goto('/connections');
    await admin.getByTestId(`connection-row-${setup.connectionId}`).getByRole('button', { name: 'Editar' }).click();
    const connectionDialog = admin.getByRole('dialog');
    await connectionDialog.getByRole('combobox', { name: 'Filas' }).click();
    await admin.getByRole('option', { name: 'Vendas' }).click();
    await admin.keyboard.press('Escape');
    await connectionDialog.getByRole('button', { name: 'Salvar' }).click();
    await connectionDialog.waitFor({ state: 'detached' });
  });

  it("shows the contact's ticket under Pending, live, to Vendas' attendant and not to Suporte's", async () => {
    // Prepare: both attendants have the inbox open on Pending.
    anaPage = await openPage();
    await signIn(anaPage, ana.email, PASSWORD);
    brunoPage = await openPage();
    await signIn(brunoPage, tenant.user.email, tenant.user.password);
    for (const page of [anaPage, brunoPage]) {
      await page.goto('/tickets');
      await page.getByTestId('tab-pending').click();
    }
    // Act: the contact writes and picks Vendas from the menu.
    await sim.send(setup.simId, number, 'Olá, quero comprar', contactName);
    const menu = await nextFromUs('the queue menu', 0);
    const option = /(\d+)\D{0,8}Vendas/.exec(menu.body)?.[1];
    expect(option, menu.body).toBeDefined();
    await sim.send(setup.simId, number, option as string, contactName);
    // Assess
    await row(anaPage).waitFor({ timeout: PIPELINE_WAIT_MS });
    await expect(row(anaPage).textContent()).resolves.toContain('Vendas');
    await anaPage.waitForTimeout(1500);
    expect(await row(brunoPage).count()).toBe(0);
  });

  it('Ana accepts, replies with text and an image, tags the ticket and writes a note', async () => {
    // Accept: the conversation opens.
    await row(anaPage).getByRole('button', { name: 'Aceitar' }).click();
    await anaPage.waitForURL(/\/tickets\/[0-9a-f-]{36}$/);
    // Text
    let before = (await fromUs()).length;
    const input = anaPage.getByRole('textbox', { name: 'Digite uma mensagem' });
    await input.fill('Olá! Posso ajudar com o seu pedido.');
    await input.press('Enter');
    const text = await waitUntil('the text on the phone', async () =>
      (await fromUs()).slice(before).find((m) => m.body.includes('Posso ajudar')),
    );
    expect(text.body).toBe(`*${ana.name}:*\nOlá! Posso ajudar com o seu pedido.`);
    // Image
    before = (await fromUs()).length;
    await anaPage
      .getByTestId('attach-input')
      .setInputFiles({ name: 'catalogo.png', mimeType: 'image/png', buffer: Buffer.from(PNG_1X1, 'base64') });
    // Before sending, the image shows as itself (a decoded thumbnail), not as its file name (issue 14).
    const thumbnail = anaPage.getByTestId('attachment-thumbnail').getByRole('img', { name: 'catalogo.png' });
    await thumbnail.waitFor();
    await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await anaPage.getByRole('button', { name: 'Enviar' }).click();
    await anaPage.getByTestId('attachment-preview').waitFor({ state: 'detached' });
    const image = await waitUntil('the image on the phone', async () => (await fromUs()).slice(before).find((m) => m.media));
    expect(image.media?.mimetype).toBe('image/png');
    // Tag, seen on the row of the Assigned list
    await anaPage.getByRole('combobox', { name: 'Tags' }).click();
    await anaPage.getByRole('option', { name: tagName }).click();
    await anaPage.keyboard.press('Escape');
    await anaPage.getByTestId('tab-assigned').click();
    await row(anaPage).getByText(tagName).waitFor();
    // Note, in the contact drawer
    await anaPage.getByTestId('open-contact').click();
    const drawer = anaPage.getByTestId('contact-drawer');
    await drawer.getByRole('textbox', { name: 'Adicionar uma observação' }).fill('Quer o catálogo de verão');
    await drawer.getByRole('button', { name: 'Salvar' }).click();
    await anaPage.getByText('Observação adicionada com sucesso!').waitFor();
    await drawer.getByTestId('ticket-note').filter({ hasText: 'catálogo de verão' }).waitFor();
    await drawer.getByRole('button', { name: 'Fechar' }).click();
    await drawer.waitFor({ state: 'hidden' });
    await shot(anaPage, 'wide');
    await anaPage.setViewportSize({ width: 420, height: 820 });
    await anaPage.getByTestId('tickets-page').and(anaPage.locator('[data-layout="narrow"]')).waitFor();
    await shot(anaPage, 'narrow');
    await anaPage.setViewportSize({ width: 1366, height: 800 });
  });

  it("Ana transfers it to Suporte: it leaves her list and arrives in Bruno's Pending live", async () => {
    // Act
    await anaPage.getByTestId('conversation-header').getByRole('button', { name: 'Mais opções' }).click();
    await anaPage.getByRole('menuitem', { name: 'Transferir' }).click();
    const dialog = anaPage.getByTestId('transfer-dialog');
    await dialog.getByRole('combobox', { name: 'Fila' }).click();
    await anaPage.getByRole('option', { name: 'Suporte' }).click();
    await dialog.getByRole('button', { name: 'Transferir' }).click();
    // Assess
    await row(brunoPage).waitFor({ timeout: PIPELINE_WAIT_MS });
    await expect(row(brunoPage).textContent()).resolves.toContain('Suporte');
    await expect(row(brunoPage).textContent()).resolves.toContain(tagName);
    await anaPage.goto('/tickets');
    for (const tab of ['tab-assigned', 'tab-pending']) {
      await anaPage.getByTestId(tab).click();
      await waitUntil(`the ticket leaves Ana's ${tab}`, async () => (await row(anaPage).count()) === 0);
    }
  });

  it("Bruno accepts and sees the contact's reply live", async () => {
    await row(brunoPage).getByRole('button', { name: 'Aceitar' }).click();
    await brunoPage.waitForURL(/\/tickets\/[0-9a-f-]{36}$/);
    await brunoPage.getByTestId('message').filter({ hasText: 'Posso ajudar' }).waitFor();
    await sim.send(setup.simId, number, 'Ainda preciso do catálogo', contactName);
    await brunoPage.getByTestId('message').filter({ hasText: 'Ainda preciso do catálogo' }).waitFor({ timeout: PIPELINE_WAIT_MS });
  });

  it('Bruno resolves with ratings on: the contact rates 3, gets the completion message, the ticket is closed', async () => {
    // Act
    const before = (await fromUs()).length;
    await brunoPage.getByTestId('conversation-header').getByRole('button', { name: 'Resolver' }).click();
    await brunoPage.getByTestId('confirm-dialog-confirm').click();
    await brunoPage.waitForURL('**/tickets');
    const rating = await nextFromUs('the rating request', before);
    expect(rating.body).toContain(RATING_MESSAGE);
    await sim.send(setup.simId, number, '3', contactName);
    // Assess
    const completion = await waitUntil('the completion message', async () =>
      (await fromUs()).slice(before + 1).find((m) => m.body.includes(COMPLETION_MESSAGE)),
    );
    expect(completion.body).toContain(COMPLETION_MESSAGE);
    await brunoPage.getByRole('tab', { name: 'Resolvidos' }).click();
    await row(brunoPage).waitFor({ timeout: PIPELINE_WAIT_MS });
  });

  it('Bruno reopens it from the Closed tab', async () => {
    await row(brunoPage).click();
    const header = brunoPage.getByTestId('conversation-header');
    await header.getByRole('button', { name: 'Reabrir' }).click();
    await header.getByRole('button', { name: 'Resolver' }).waitFor();
    await brunoPage.getByRole('textbox', { name: 'Digite uma mensagem' }).waitFor();
    await shot(brunoPage, 'reopened');
  });
});
