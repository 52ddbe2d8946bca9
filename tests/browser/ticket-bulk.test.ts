/**
 * Working many tickets at once (issue 22 §5), in headless Chromium: an attendant checks the first of
 * her open tickets, shift-clicks the third (the second is selected with them), resolves the three
 * from the bulk bar after its confirmation, and sees a toast counting them; the three leave Abertos >
 * Atendendo while the fourth stays, and the server has them closed. Then she snoozes the fourth for
 * an hour from its header: it leaves Atendendo and waits under Adiados, showing until when.
 * Screenshots go to tests/artifacts/ticket-bulk-*.png.
 */
import { randomInt } from 'node:crypto';
import type { Ticket } from '@conversa/functions/contracts/tickets';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Call, client, createTenant, firstPlanId, PASSWORD, superLogin, type Tenant } from '../integration/tenants.ts';
import { ok } from '../integration/whatsapp-kit.ts';
import { type LaunchedBrowser, launchBrowser, openPage, screenshots, signInPage } from '../support/browser.ts';

const shot = screenshots('ticket-bulk');
const names = ['Bia', 'Caio', 'Davi', 'Eva'].map((name) => `${name} ${randomInt(1000, 9999)}`);

let call: Call;
let tenant: Tenant;
const tickets: Ticket[] = [];
let launched: LaunchedBrowser;
let page: Page;

beforeAll(async () => {
  call = client(inject('apiUrl'));
  tenant = await createTenant(call, await superLogin(call, inject('admin')), await firstPlanId(call), 'bulk-ui');
  // The attendant at the browser is a second admin, so the first admin's API session stays signed in.
  const email = `lia@${tenant.marker}.test`;
  const lia = await ok<{ id: number }>(call, 'POST', '/users', {
    token: tenant.admin.token,
    body: { name: 'Lia Lima', email, password: PASSWORD, profile: 'admin' },
  });
  const liaToken = (await ok<{ token: string }>(call, 'POST', '/auth/login', { body: { email, password: PASSWORD } })).token;
  const connection = await ok<{ id: number }>(call, 'POST', '/whatsapp', {
    token: tenant.admin.token,
    body: { name: 'Loja', token: `bulk-${Date.now()}` },
  });
  // Four open tickets of Lia's, created oldest first: the list shows Eva, Davi, Caio, Bia.
  for (const name of names) {
    const contact = await ok<{ id: number }>(call, 'POST', '/contacts', {
      token: tenant.admin.token,
      body: { name, number: `55319${randomInt(10_000_000, 99_999_999)}` },
    });
    tickets.push(
      await ok<Ticket>(call, 'POST', '/tickets', {
        token: liaToken,
        body: { contactId: contact.id, whatsappId: connection.id, userId: lia.id, queueId: null, status: 'open' },
      }),
    );
  }
  launched = await launchBrowser();
  page = await openPage(launched, { baseURL: inject('webUrl') });
  await page.goto('/login');
  await page.locator('input[name=email]').waitFor({ timeout: 90_000 });
  await signInPage(page, email, PASSWORD);
});

afterAll(async () => {
  await page?.context().close();
  await launched?.close();
});

const row = (name: string) => page.getByTestId('ticket-list').getByTestId('ticket-row').filter({ hasText: name });
const statusOf = async (ticket: Ticket) => (await ok<Ticket>(call, 'GET', `/tickets/${ticket.id}`, { token: tenant.admin.token })).status;

describe('bulk actions on the ticket list', { timeout: 180_000 }, () => {
  it('resolves three tickets selected with a checkbox and a shift-click; they leave the Open tab', async () => {
    const [bia, caio, davi, eva] = names as [string, string, string, string];
    await page.getByTestId('tab-assigned').click();
    for (const name of names) await row(name).waitFor();

    // Eva's row is the newest (first); a shift-click on Caio's selects Eva, Davi and Caio.
    await row(eva).getByTestId('ticket-row-check').click();
    await row(caio)
      .getByTestId('ticket-row-check')
      .click({ modifiers: ['Shift'] });
    await expect.poll(() => page.getByTestId('bulk-count').textContent()).toBe('3 selecionados');
    for (const name of [eva, davi, caio]) expect(await row(name).getByRole('checkbox').isChecked()).toBe(true);
    expect(await row(bia).getByRole('checkbox').isChecked()).toBe(false);
    await shot(page, 'selected');

    await page.getByTestId('bulk-bar').getByRole('button', { name: 'Resolver' }).click();
    const confirm = page.getByRole('dialog').filter({ hasText: 'Resolver 3 tickets?' });
    await confirm.waitFor();
    await confirm.getByTestId('confirm-dialog-confirm').click();

    await page.getByText('3 tickets atualizados.').waitFor();
    for (const name of [eva, davi, caio]) await row(name).waitFor({ state: 'detached' });
    await row(bia).waitFor();
    expect(await page.getByTestId('bulk-bar').count()).toBe(0);
    await shot(page, 'resolved');

    // The server has them closed, Bia's untouched (tickets are in creation order: Bia, Caio, Davi, Eva).
    expect(await Promise.all(tickets.map(statusOf))).toEqual(['open', 'closed', 'closed', 'closed']);
  });

  it('snoozes a ticket from its header: it leaves Atendendo for Adiados until its time', async () => {
    const bia = names[0] as string;
    await row(bia).click();
    await page.getByTestId('conversation-header').waitFor();
    await page.getByTestId('snooze-button').click();
    await page.getByTestId('snooze-menu').getByRole('menuitem', { name: 'Por 1 hora' }).click();
    await page.getByText(/Ticket adiado até/).waitFor();
    await row(bia).waitFor({ state: 'detached' });

    await page.getByTestId('tab-snoozed').click();
    await row(bia).getByTestId('snoozed-chip').waitFor();
    await shot(page, 'snoozed');
    const snoozed = await ok<Ticket>(call, 'GET', `/tickets/${tickets[0]!.id}`, { token: tenant.admin.token });
    expect(snoozed.status).toBe('open');
    expect(Date.parse(snoozed.snoozedUntil ?? '') - Date.now()).toBeGreaterThan(50 * 60_000);
  });
});
