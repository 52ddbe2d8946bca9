/**
 * Issue 22 §6, mentions, in the browser: an attendant writing a note types "@Bru", picks the
 * colleague from the list with Enter, and sends; the note shows the name marked. The colleague
 * (a plain user outside the ticket's queue) hears of it at once: the bell counts it under
 * "Menções" and the side menu's Atendimentos gets its dot; clicking it opens the conversation,
 * read only (the thread, no composer, no actions), and the bell and the dot clear. While she has it
 * open, the attendant's reply appears in her thread as it is sent (the chat box she joined).
 * Screenshots in tests/artifacts/mentions-*.png.
 */
import { randomInt } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Call, client, createTenant, firstPlanId, PASSWORD, superLogin, type Tenant } from '../integration/tenants.ts';
import { connectedConnection, ok, simulator } from '../integration/whatsapp-kit.ts';
import { pendingTicketOf } from '../support/api.ts';
import { type LaunchedBrowser, launchBrowser, openPage, screenshots, signInPage } from '../support/browser.ts';

const shot = screenshots('mentions');
const number = `55419${randomInt(10_000_000, 99_999_999)}`;
const question = 'Meu pedido 4471 chegou quebrado';
const colleagueName = `Bruna Lima ${randomInt(100, 999)}`;

let launched: LaunchedBrowser;
let attendantPage: Page;
let colleaguePage: Page;
let tenant: Tenant;
let call: Call;
let uuid: string;
let colleagueEmail: string;

beforeAll(async () => {
  call = client(inject('apiUrl'));
  const sim = simulator(inject('simulatorUrl'));
  tenant = await createTenant(call, await superLogin(call, inject('admin')), await firstPlanId(call), 'mentions-web');
  const setup = await connectedConnection(call, sim, { token: tenant.admin.token, companyId: tenant.companyId, queues: ['Vendas'] });
  colleagueEmail = `bruna-${randomInt(1000, 9999)}@mentions.test`;
  // A plain user in no queue: by the ordinary rule she may not see the ticket.
  await ok(call, 'POST', '/users', {
    token: tenant.admin.token,
    body: { name: colleagueName, email: colleagueEmail, password: PASSWORD, profile: 'user' },
  });
  await sim.send(setup.simId, number, question, 'Caio');
  const ticketId = await pendingTicketOf(call, tenant.admin.token, number, question);
  await ok(call, 'PUT', `/tickets/${ticketId}`, { token: tenant.admin.token, body: { status: 'open', userId: tenant.user.id } });
  uuid = (await ok<{ uuid: string }>(call, 'GET', `/tickets/${ticketId}`, { token: tenant.admin.token })).uuid;
  launched = await launchBrowser();
  [attendantPage, colleaguePage] = await Promise.all([
    openPage(launched, { baseURL: inject('webUrl'), viewport: { width: 1366, height: 820 } }),
    openPage(launched, { baseURL: inject('webUrl'), viewport: { width: 1366, height: 820 } }),
  ]);
}, 120_000);

afterAll(async () => {
  await launched?.close();
});

const menuDot = (page: Page) => page.locator('[data-testid=menu-tickets] .MuiBadge-dot:not(.MuiBadge-invisible)');

describe('mentions in private notes', { timeout: 150_000 }, () => {
  it('a note names a colleague from the list; she is told, opens it from the bell, reads it without acting', async () => {
    await signInPage(colleaguePage, colleagueEmail, PASSWORD);
    const bell = colleaguePage.getByTestId('notifications-bell');
    await expect(bell.getAttribute('data-count')).resolves.toBe('0');

    // The attendant: note on, "@Bru" offers the colleague, Enter picks her.
    await signInPage(attendantPage, tenant.user.email, tenant.user.password);
    await attendantPage.goto(`/tickets/${uuid}`);
    await attendantPage.getByTestId('message').filter({ hasText: question }).waitFor({ timeout: 30_000 });
    await attendantPage.getByTestId('note-toggle').click();
    const input = attendantPage.getByRole('textbox', { name: 'Digite uma mensagem' });
    await input.pressSequentially('@Bru');
    const options = attendantPage.getByTestId('mention-suggestions');
    await options.getByText(`@${colleagueName}`).waitFor();
    await shot(attendantPage, 'suggestions', { fullPage: false });
    await input.press('Enter');
    await expect(input.inputValue()).resolves.toBe(`@${colleagueName} `);
    await input.pressSequentially('pode ver a troca?');
    await input.press('Enter');
    const note = attendantPage.getByTestId('message').filter({ hasText: 'pode ver a troca?' });
    await note.waitFor({ timeout: 15_000 });
    await attendantPage.waitForFunction(
      (name) => [...document.querySelectorAll('[data-testid=mention]')].some((el) => el.textContent === `@${name}`),
      colleagueName,
      { timeout: 15_000 },
    );
    await shot(attendantPage, 'note', { fullPage: false });

    // The colleague: the bell counts it, the menu's dot shows, the list names who and where.
    await colleaguePage.waitForFunction(
      () => document.querySelector('[data-testid=notifications-bell]')?.getAttribute('data-count') === '1',
      undefined,
      { timeout: 30_000 },
    );
    await menuDot(colleaguePage).waitFor();
    await bell.click();
    const item = colleaguePage.getByTestId('mention-notification');
    await expect(item.textContent()).resolves.toContain('mencionou você · Caio');
    await expect(item.textContent()).resolves.toContain('pode ver a troca?');
    await shot(colleaguePage, 'bell', { fullPage: false });
    await item.click();

    // Read only: the thread with the note, no composer, no actions; the bell and the dot clear.
    await colleaguePage.waitForURL(`**/tickets/${uuid}`);
    await colleaguePage.getByTestId('message').filter({ hasText: question }).waitFor({ timeout: 30_000 });
    await colleaguePage.getByTestId('message').filter({ hasText: 'pode ver a troca?' }).waitFor();
    await colleaguePage.getByTestId('mention-read-only').waitFor();
    await expect(colleaguePage.getByTestId('message-input').count()).resolves.toBe(0);
    await expect(colleaguePage.getByRole('button', { name: 'Resolver' }).isVisible()).resolves.toBe(false);
    await colleaguePage.waitForFunction(
      () => document.querySelector('[data-testid=notifications-bell]')?.getAttribute('data-count') === '0',
      undefined,
      { timeout: 15_000 },
    );
    await expect(menuDot(colleaguePage).count()).resolves.toBe(0);
    await shot(colleaguePage, 'read-only', { fullPage: false });

    // Live: the attendant answers the customer; the reply reaches the colleague's open thread.
    const reply = 'Já separei a troca do pedido 4471';
    await attendantPage.getByTestId('note-toggle').click();
    await input.fill(reply);
    await input.press('Enter');
    await colleaguePage.getByTestId('message').filter({ hasText: reply }).waitFor({ timeout: 15_000 });
  });
});
