/**
 * The composer keeps what was typed and not sent, per conversation, as chat apps do: an attendant
 * answering two customers opens the other one mid-sentence and finds the sentence again on return,
 * after a reload too; a private note comes back as a note (never as a message to the customer),
 * still mentioning the colleague picked in it;
 * the row of a conversation left mid-sentence says so; what was sent is not offered again; signing out leaves none on the computer. Screenshots in tests/artifacts/composer-drafts-*.png.
 */
import { randomInt } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Call, client, createTenant, firstPlanId, superLogin, type Tenant } from '../integration/tenants.ts';
import { connectedConnection, ok, simulator, waitUntil } from '../integration/whatsapp-kit.ts';
import { pendingTicketOf } from '../support/api.ts';
import { type LaunchedBrowser, launchBrowser, openPage, screenshots, signInPage } from '../support/browser.ts';

const shot = screenshots('composer-drafts');
const contacts = [
  { name: 'Bruna Costa', number: `55419${randomInt(10_000_000, 99_999_999)}`, question: 'O pedido 123 já saiu?' },
  { name: 'Davi Rocha', number: `55419${randomInt(10_000_000, 99_999_999)}`, question: 'Tem na cor azul?' },
];

let launched: LaunchedBrowser;
let page: Page;
let tenant: Tenant;
let call: Call;

beforeAll(async () => {
  call = client(inject('apiUrl'));
  const sim = simulator(inject('simulatorUrl'));
  tenant = await createTenant(call, await superLogin(call, inject('admin')), await firstPlanId(call), 'drafts-web');
  const setup = await connectedConnection(call, sim, { token: tenant.admin.token, companyId: tenant.companyId, queues: ['Vendas'] });
  for (const contact of contacts) {
    await sim.send(setup.simId, contact.number, contact.question, contact.name);
    const ticketId = await pendingTicketOf(call, tenant.admin.token, contact.number, contact.question);
    // Given to the attendant before they sign in in the browser (a sign-in ends the API session).
    await ok(call, 'PUT', `/tickets/${ticketId}`, { token: tenant.admin.token, body: { status: 'open', userId: tenant.user.id } });
  }
  launched = await launchBrowser();
  page = await openPage(launched, { baseURL: inject('webUrl'), viewport: { width: 1280, height: 800 } });
  await signInPage(page, tenant.user.email, tenant.user.password);
}, 120_000);

afterAll(async () => {
  await launched?.close();
});

/** Opens `contact`'s conversation from the list and waits for its thread. */
async function open(contact: (typeof contacts)[number]): Promise<void> {
  await page.getByTestId('ticket-row').filter({ hasText: contact.name }).click();
  await page.getByTestId('message').filter({ hasText: contact.question }).waitFor({ timeout: 30_000 });
}

describe('the composer', () => {
  it('gives each conversation its unsent text back, after a reload too, a note as a note, and forgets it once sent or signed out', async () => {
    const [bruna, davi] = contacts as [(typeof contacts)[number], (typeof contacts)[number]];
    const input = page.getByRole('textbox', { name: 'Digite uma mensagem' });
    const composer = page.getByTestId('message-input');
    const toggle = page.getByTestId('note-toggle');
    await page.goto('/tickets');
    // Act: a reply begun to Bruna, a note begun on Davi's conversation.
    await open(bruna);
    await input.fill('Vou verificar com a transportadora e');
    await open(davi);
    // Assess: Bruna's row says a reply is begun there; Davi's composer is his own, empty, not a note.
    const draftOf = (contact: (typeof contacts)[number]) =>
      page.getByTestId('ticket-row').filter({ hasText: contact.name }).getByTestId('row-draft');
    await expect.poll(() => draftOf(bruna).textContent()).toBe('Rascunho: Vou verificar com a transportadora e');
    await expect(input.inputValue()).resolves.toBe('');
    await toggle.click();
    // A colleague (the admin) picked from the note's @ list.
    await input.pressSequentially('@Comp');
    await page.getByTestId('mention-suggestions').getByText(`@${tenant.companyName}`).waitFor();
    // Typed at once after the pick: every key lands after the name.
    await input.press('Enter');
    await input.pressSequentially('cliente antigo, oferecer frete grátis');
    const noteText = `@${tenant.companyName} cliente antigo, oferecer frete grátis`;
    await open(bruna);
    await expect(input.inputValue()).resolves.toBe('Vou verificar com a transportadora e');
    await expect(composer.getAttribute('data-note')).resolves.toBeNull();
    // Assess: after a reload on Davi's conversation, his note is back as a note.
    await open(davi);
    await page.reload();
    await page.getByTestId('message').filter({ hasText: davi.question }).waitFor({ timeout: 30_000 });
    await expect(input.inputValue()).resolves.toBe(noteText);
    await expect(composer.getAttribute('data-note')).resolves.toBe('true');
    await expect(toggle.getAttribute('aria-pressed')).resolves.toBe('true');
    await shot(page, 'note-back');
    // Act: Bruna's reply finished and sent.
    await open(bruna);
    await input.press('End');
    await input.pressSequentially(' te aviso.');
    await input.press('Enter');
    await page.getByTestId('message').filter({ hasText: 'te aviso.' }).waitFor({ timeout: 30_000 });
    // Assess: sent, so not offered again, in the row, here or after a reload.
    await open(davi);
    await expect(draftOf(bruna).count()).resolves.toBe(0);
    await open(bruna);
    await expect(input.inputValue()).resolves.toBe('');
    await page.reload();
    await page.getByTestId('message').filter({ hasText: 'te aviso.' }).waitFor({ timeout: 30_000 });
    await expect(input.inputValue()).resolves.toBe('');
    // Act: Davi's note sent after all that. Assess: the colleague picked before the reload is mentioned.
    await open(davi);
    await input.press('Enter');
    await page.getByTestId('message').filter({ hasText: 'frete grátis' }).waitFor({ timeout: 30_000 });
    const mentioned = await waitUntil('the mention of the admin', async () => {
      const list = await ok<{ mentions: { excerpt: string }[] }>(call, 'GET', '/mentions', { token: tenant.admin.token });
      return list.mentions.find((m) => m.excerpt.includes('frete grátis'));
    });
    expect(mentioned.excerpt).toContain('frete grátis');
    // Act: a new draft (the composer is disabled while a send is on its way, SPEC 4), then the
    // attendant signs out. Assess: it is not left on this computer.
    await expect.poll(() => input.isEditable()).toBe(true);
    await input.pressSequentially('Amanhã ligo para ele');
    const stored = () => page.evaluate("window.localStorage.getItem('drafts')");
    await expect.poll(stored).toContain('Amanhã ligo');
    await page.getByTestId('account-button').click();
    await page.getByTestId('menu-logout').click();
    await page.waitForURL('**/login');
    await expect(stored()).resolves.toBeNull();
  });
});
