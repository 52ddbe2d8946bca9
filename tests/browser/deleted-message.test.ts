/**
 * A deleted message in headless Chromium (issue 25 minor): the attendant deletes a message of hers
 * from the conversation (English); the bubble then shows only "This message was deleted", none of
 * its text, and the ticket's row in the list shows the same marker instead of the deleted text,
 * also after a reload (the server's lastMessageDeleted). Screenshot in tests/artifacts/deleted-message.png.
 */
import { randomInt } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Call, client, createTenant, firstPlanId, superLogin, type Tenant } from '../integration/tenants.ts';
import { connectedConnection, ok, simulator, waitUntil } from '../integration/whatsapp-kit.ts';
import { pendingTicketOf } from '../support/api.ts';
import { type LaunchedBrowser, launchBrowser, openPage, screenshots, signInPage } from '../support/browser.ts';

const shot = screenshots('deleted');
const number = `55419${randomInt(10_000_000, 99_999_999)}`;
const contactName = `Lia ${randomInt(1000, 9999)}`;
const secret = `Senha provisoria ${randomInt(100_000, 999_999)}`;

let launched: LaunchedBrowser;
let page: Page;
let tenant: Tenant;
let call: Call;
let ticketId: number;

beforeAll(async () => {
  call = client(inject('apiUrl'));
  const sim = simulator(inject('simulatorUrl'));
  tenant = await createTenant(call, await superLogin(call, inject('admin')), await firstPlanId(call), 'deleted-web');
  const setup = await connectedConnection(call, sim, { token: tenant.admin.token, companyId: tenant.companyId, queues: ['Suporte'] });
  await sim.send(setup.simId, number, 'Oi, preciso de ajuda', contactName);
  ticketId = await pendingTicketOf(call, tenant.admin.token, number);
  await ok(call, 'PUT', `/tickets/${ticketId}`, { token: tenant.admin.token, body: { status: 'open', userId: tenant.user.id } });
  // The attendant's message, sent before she signs in at the browser (which ends her API session).
  await ok(call, 'POST', `/messages/${ticketId}`, { token: tenant.user.token, body: { body: secret } });
  await waitUntil('the phone has it', async () => (await sim.chat(setup.simId, number)).some((m) => m.body === secret));
  launched = await launchBrowser();
  page = await openPage(launched, { baseURL: inject('webUrl'), locale: 'en-US', viewport: { width: 1280, height: 800 } });
}, 120_000);

afterAll(async () => {
  await launched?.close();
});

const row = () => page.getByTestId('ticket-row').filter({ hasText: contactName });

describe('a deleted message', { timeout: 120_000 }, () => {
  it('shows only "This message was deleted" in the thread and in the list row', async () => {
    // Prepare: the conversation open, the message and the row's preview showing its text.
    await signInPage(page, tenant.user.email, tenant.user.password);
    await row().click();
    const bubble = page.getByTestId('message').filter({ hasText: secret });
    await bubble.waitFor({ timeout: 30_000 });
    await row().getByText(secret).waitFor();

    // Act: delete it from its options, confirmed.
    await bubble.hover();
    await bubble.getByRole('button', { name: 'Message options' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByTestId('confirm-dialog-confirm').click();

    // Assess: the thread keeps the bubble with only the marker; the row says the same.
    const deleted = page.getByTestId('message').filter({ hasText: 'This message was deleted' });
    await deleted.waitFor({ timeout: 30_000 });
    await row().getByText('This message was deleted').waitFor({ timeout: 30_000 });
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await shot(page, 'message');
    await expect(page.getByText(secret).count()).resolves.toBe(0);
    // The server's copy too: after a reload nothing of the text comes back.
    await page.reload();
    await deleted.waitFor({ timeout: 30_000 });
    await row().getByText('This message was deleted').waitFor({ timeout: 30_000 });
    await expect(page.getByText(secret).count()).resolves.toBe(0);
  });
});
