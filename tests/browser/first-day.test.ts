/**
 * A new customer's whole first day (issue 25) in headless Chromium over the local stack, walked as a
 * person does, screen after screen, one browser session throughout:
 *   1. sign up on /signup with the owner's own name and the company's; the top bar greets the owner;
 *   2. connect a WhatsApp number on Conexões: add it, open its QR, the (simulated) phone scans it;
 *   3. a contact writes from the phone: the conversation arrives in the inbox under Aguardando;
 *   4. the owner accepts it and answers; the phone gets the answer; on Kanban the bare board says how
 *      its lanes are made, and a tag made with the Kanban option becomes one;
 *   5. a contact list with that contact and a campaign to it, started on save, from the Campanhas
 *      screens; the campaign's message shows in the contact's thread labelled "Campanha", the
 *      contact answers "SIM" on the phone and the answer shows in the same thread right after it;
 *   6. pay on day one: Assinatura, the wizard (Dados, Personalizar, Revisar), the PIX QR, the local
 *      fake provider's page (what the README says to pay with); the licence shows renewed.
 * Screenshots: tests/artifacts/first-day-*.png.
 */
import { randomInt } from 'node:crypto';
import { addDays, addMonths, todayIso } from '@conversa/functions/domain/companies/due-date';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Simulator, simulator, waitUntil } from '../integration/whatsapp-kit.ts';
import { offerPlan } from '../support/api.ts';
import {
  type LaunchedBrowser,
  launchBrowser,
  newOwner,
  openPage,
  payOnProviderPage,
  ptDay,
  screenshots,
  signUpPage,
  subscribeToPix,
} from '../support/browser.ts';

const shot = screenshots('first-day');
/** Phone -> queue -> Lambda -> socket -> screen, on a loaded 2-core machine. */
const PIPELINE_WAIT_MS = 90_000;

const owner = newOwner('Sorveteria', 'Helena Duarte');
const contact = { name: `Lia Souza ${randomInt(1000, 9999)}`, number: `55119${randomInt(10_000_000, 99_999_999)}` };
const firstWords = 'Oi! Vocês entregam hoje?';
const ourAnswer = 'Olá! Entregamos sim, até as 20h.';
const campaignText = `Promoção de verão ${randomInt(100, 999)}: dois potes pelo preço de um. Quer reservar?`;
const listName = `Clientes ${randomInt(1000, 9999)}`;
const campaignName = `Verão ${randomInt(1000, 9999)}`;

let launched: LaunchedBrowser;
let page: Page;
let sim: Simulator;
let providerUrl: string;
let companyId: number;
/** The simulator's id of the company's first connection: `<companyId>.1`. */
let simId: string;
/** Her conversation's address, once the owner answered it. */
let conversation = '';

beforeAll(async () => {
  sim = simulator(inject('simulatorUrl'));
  providerUrl = (inject('env').ASAAS_BASE_URL as string).replace(/\/v3$/, '');
  // What the platform offers on the sign-up page before this customer comes.
  await offerPlan(owner.planName, 99.9);
  launched = await launchBrowser();
  page = await openPage(launched, { baseURL: inject('webUrl') });
});

// What the screen showed when a step failed.
afterEach(async ({ task }) => {
  if (task.result?.state === 'fail') await shot(page, `failed-${task.name.split(' ')[0]}`).catch(() => undefined);
});

afterAll(async () => {
  await launched?.close();
});

/** Our messages and the contact's, as the contact's phone shows them. */
const phoneChat = () => sim.chat(simId, contact.number);
const row = () => page.getByTestId('ticket-row').filter({ hasText: contact.name });
const bubble = (text: string) => page.getByTestId('message').filter({ hasText: text });
/** Where each text stands among the thread's message bubbles (-1: not there). */
async function positions(...texts: string[]): Promise<number[]> {
  const bodies = await page.getByTestId('message').allTextContents();
  return texts.map((text) => bodies.findIndex((body) => body.includes(text)));
}

describe("a new customer's first day", { timeout: 300_000 }, () => {
  it('signs up with her own name and the company name, and is greeted by her name', async () => {
    companyId = await signUpPage(page, owner);
    simId = `${companyId}.1`;
    const greeting = page.getByTestId('greeting');
    await expect.poll(() => greeting.textContent(), { timeout: 60_000 }).toContain(`Olá ${owner.ownerName},`);
    expect(await greeting.textContent()).not.toContain(`Olá ${owner.companyName}`);
    await shot(page, '1-signed-up');
  });

  it('connects a WhatsApp number: adds it, shows its QR, the phone scans it, Conectado', async () => {
    // The phone waits for the owner to point it at the QR (no automatic scan).
    await sim.blockScan(simId);
    await page.getByTestId('menu-connections').click();
    await page.waitForURL('**/connections');
    await page.getByTestId('empty-hint').getByRole('button', { name: 'Adicionar o primeiro WhatsApp' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Nome', { exact: true }).fill('Loja');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await dialog.waitFor({ state: 'detached' });
    const connection = page.getByTestId('connection-row-1');
    await connection.getByRole('button', { name: 'QR CODE' }).click({ timeout: PIPELINE_WAIT_MS });
    const qr = page.getByTestId('connection-qr');
    await qr.waitFor({ timeout: PIPELINE_WAIT_MS });
    await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    await shot(page, '2-qr');

    await sim.scan(simId);

    // The QR closes by itself and the row says Conectado.
    await qr.waitFor({ state: 'detached', timeout: PIPELINE_WAIT_MS });
    await connection.getByTestId('connection-status').getByText('Conectado').waitFor({ timeout: PIPELINE_WAIT_MS });
    await shot(page, '3-connected');
  });

  it("receives a contact's first message in the inbox and answers it", async () => {
    await page.getByTestId('menu-tickets').click();
    await page.waitForURL('**/tickets');
    await page.getByTestId('tab-pending').click();

    await sim.send(simId, contact.number, firstWords, contact.name);

    await row().waitFor({ timeout: PIPELINE_WAIT_MS });
    expect(await row().textContent()).toContain(firstWords);
    await shot(page, '4-inbox-pending');
    await row().getByRole('button', { name: 'Aceitar' }).click();
    await page.waitForURL(/\/tickets\/[0-9a-f-]{36}$/);
    await bubble(firstWords).waitFor();
    const input = page.getByRole('textbox', { name: 'Digite uma mensagem' });
    await input.fill(ourAnswer);
    await input.press('Enter');

    await bubble(ourAnswer).waitFor({ timeout: PIPELINE_WAIT_MS });
    await waitUntil('the answer on the phone', async () => (await phoneChat()).some((m) => m.from === 'us' && m.body.includes(ourAnswer)));
    await shot(page, '5-answered');
    conversation = page.url();
  });

  it('opens Kanban: the bare board says how lanes are made, and a tag with Kanban on becomes one', async () => {
    await page.getByTestId('menu-kanban').click();
    await page.waitForURL('**/kanban');
    const noLanes = page.getByTestId('kanban-no-lanes');
    await noLanes.waitFor();
    await shot(page, '5a-kanban-no-lanes');
    await noLanes.getByRole('link', { name: 'Criar coluna' }).click();
    await page.waitForURL('**/tags');
    await page.getByRole('button', { name: 'Adicionar tag' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Nome', { exact: true }).fill('Quente');
    await dialog.getByLabel('Mostrar a tag como coluna do Kanban').check();
    await dialog.getByRole('button', { name: 'Adicionar' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await page.getByTestId('menu-kanban').click();
    await page.waitForURL('**/kanban');
    await page.getByText('Quente (0 tickets)').waitFor();
    expect(await noLanes.count()).toBe(0);
    await shot(page, '5b-kanban-lane');
  });

  it('runs a campaign to her from the Campanhas screens: its message and her SIM share her thread', async () => {
    // A contact list with her in it
    await page.getByTestId('menu-campaigns').click();
    await page.getByTestId('menu-contactLists').click();
    await page.waitForURL('**/contact-lists');
    await page.getByRole('button', { name: 'Nova lista' }).click();
    const listDialog = page.getByTestId('contact-list-dialog');
    await listDialog.locator('input[name=name]').fill(listName);
    await listDialog.getByRole('button', { name: 'Adicionar' }).click();
    const list = page.getByRole('row').filter({ hasText: listName });
    await list.getByRole('button', { name: 'Ver contatos' }).click();
    await page.getByRole('heading', { name: listName }).waitFor();
    await page.getByRole('button', { name: 'Novo contato' }).click();
    const itemDialog = page.getByTestId('contact-item-dialog');
    await itemDialog.getByLabel('Nome').fill(contact.name);
    await itemDialog.getByLabel('Número').fill(contact.number);
    await itemDialog.getByRole('button', { name: 'Adicionar' }).click();
    await page.getByRole('row').filter({ hasText: contact.number }).waitFor();
    await shot(page, '6-list');

    // The campaign, started on save
    await page.getByTestId('menu-campaignsList').click();
    await page.waitForURL('**/campaigns');
    await page.getByRole('button', { name: 'Nova campanha' }).click();
    const form = page.getByTestId('campaign-dialog');
    await form.locator('input[name=name]').fill(campaignName);
    await form.getByRole('combobox', { name: 'Lista de contatos' }).click();
    await page.getByRole('option', { name: new RegExp(listName) }).click();
    await form.getByRole('combobox', { name: 'Conexão' }).click();
    await page.getByRole('option', { name: 'Loja' }).click();
    await form.locator('textarea[name=message1]').fill(campaignText);
    await form.getByLabel('Iniciar ao salvar').check();
    // With no time, the hint under Agendamento says what saving does now (it said "stays inactive").
    await form.getByText('Vazio: a campanha começa ao salvar.').waitFor();
    await shot(page, '7-campaign-dialog');
    await form.getByRole('button', { name: 'Adicionar', exact: true }).click();
    await page.getByText('Campanha salva com sucesso.').waitFor();
    // Started on save: in progress at once (or done already), never left inactive.
    const status = page.getByRole('row').filter({ hasText: campaignName }).getByTestId('campaign-status');
    await status.getByText(/Em andamento|Finalizada/).waitFor({ timeout: PIPELINE_WAIT_MS });
    await shot(page, '8-campaign-started');
    await waitUntil(
      'the campaign on the phone',
      async () => (await phoneChat()).some((m) => m.from === 'us' && m.body === campaignText),
      PIPELINE_WAIT_MS,
    ).catch(async (error) => {
      await shot(page, '8-failed');
      throw new Error(`${String(error)}; the campaign's row says ${await status.textContent()}`);
    });

    // Her conversation shows the campaign's message, labelled as such, after the owner's answer
    await page.getByTestId('menu-tickets').click();
    await page.getByTestId('tab-assigned').click();
    await row().click();
    await page.waitForURL(conversation);
    const sent = bubble(campaignText);
    await sent.waitFor({ timeout: PIPELINE_WAIT_MS });
    expect(await sent.getByTestId('message-origin').textContent()).toBe('Campanha');
    expect(await sent.getByTestId('message-origin').getAttribute('data-origin')).toBe('campaign');

    // She answers SIM on the phone: it shows in the same thread, right after the campaign message
    await sim.send(simId, contact.number, 'SIM', contact.name);
    // Case-sensitive: the owner's "Entregamos sim" is not her answer.
    const yes = page.getByTestId('message').filter({ hasText: /SIM/ });
    await yes.waitFor({ timeout: PIPELINE_WAIT_MS });
    const [answered, campaign, answer] = await positions(ourAnswer, campaignText, 'SIM');
    expect(campaign).toBeGreaterThan(answered as number);
    expect(answer).toBe((campaign as number) + 1);
    expect(await yes.getByTestId('message-origin').count()).toBe(0);
    await shot(page, '9-campaign-and-sim');
  });

  it('pays on day one through Assinatura, the wizard, the PIX QR and the provider page, and sees the licence renewed', async () => {
    await page.getByTestId('menu-subscription').click();
    await page.waitForURL('**/subscription');
    const trialEnd = addDays(todayIso(), 3);
    await page.getByTestId('trial-days').getByText(ptDay(trialEnd), { exact: false }).waitFor();
    await shot(page, '10-subscription');

    const pixCode = await subscribeToPix(page, {
      planName: owner.planName,
      amount: 'R$ 99,90',
      address: {
        firstName: 'Helena',
        lastName: 'Duarte',
        address2: 'Rua do Sol, 12',
        city: 'Fortaleza',
        state: 'CE',
        zipcode: '60060-000',
      },
      shot: (shown, name) => shot(shown, `11-${name}`),
    });
    expect(pixCode).toMatch(/^000201/);

    await payOnProviderPage(page, providerUrl, {
      companyName: owner.companyName,
      amount: 'R$ 99.90',
      shot: (shown, name) => shot(shown, `12-${name}`),
    });

    // The licence runs a month past the trial's end, on the page she paid from.
    const renewedOn = ptDay(addMonths(trialEnd, 1));
    await page.getByTestId('licence-renewed').getByText(renewedOn, { exact: false }).waitFor({ timeout: PIPELINE_WAIT_MS });
    await page.getByTestId('trial-days').getByText(renewedOn, { exact: false }).waitFor({ timeout: PIPELINE_WAIT_MS });
    await shot(page, '13-renewed');
  });
});
