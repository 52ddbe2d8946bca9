/**
 * Service levels in headless Chromium (issue 22 §3): a supervisor of a queue that promises a first
 * response in 1 minute sees the pending ticket's countdown; when the ticket-sweeps job's breach step
 * runs (here in this process, with a clock past the due time, as EventBridge would run it later),
 * the row turns "Breached" and the bell lists the breach, without a reload.
 * Screenshots: tests/artifacts/sla-breach-*.png.
 */
import { randomInt } from 'node:crypto';
import type { Ticket } from '@conversa/functions/contracts/tickets';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Call, client, createTenant, firstPlanId, PASSWORD, superLogin, type Tenant } from '../integration/tenants.ts';
import { type LaunchedBrowser, launchBrowser, openPage, screenshots, signInPage } from '../support/browser.ts';

const shot = screenshots('sla-breach');
const MINUTE = 60_000;

let call: Call;
let tenant: Tenant;
let launched: LaunchedBrowser;
let ticket: Ticket;
const supervisorEmail = () => `supervisor@${tenant.marker}.test`;

async function ok<T>(method: string, path: string, token: string, body?: unknown): Promise<T> {
  const res = await call(method, path, { token, body });
  expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
  return res.body as T;
}

beforeAll(async () => {
  call = client(inject('apiUrl'));
  const superToken = await superLogin(call, inject('admin'));
  tenant = await createTenant(call, superToken, await firstPlanId(call), 'sla-breach');
  const token = tenant.admin.token;
  const queueId = (await ok<{ id: number }>('POST', '/queue', token, { name: 'Suporte', color: '#0a5b8e', firstResponseMinutes: 1 })).id;
  const whatsappId = (await ok<{ id: number }>('POST', '/whatsapp', token, { name: 'Sla wa' })).id;
  await ok('POST', '/users', token, {
    name: 'Sofia Supervisor',
    email: supervisorEmail(),
    password: PASSWORD,
    profile: 'supervisor',
    queueIds: [queueId],
  });
  const contact = await ok<{ id: number }>('POST', '/contacts', token, {
    name: 'Cliente Esperando',
    number: `55119${randomInt(10_000_000, 99_999_999)}`,
  });
  const created = await ok<Ticket>('POST', '/tickets', token, { contactId: contact.id, queueId, whatsappId, status: 'open' });
  // Back to the queue's Pending, where the supervisor sees it: entering the queue again starts its clock.
  ticket = await ok<Ticket>('PUT', `/tickets/${created.id}`, token, { status: 'pending', userId: null });
  expect(ticket.sla?.state).toBe('ok');
  // The job's step runs in this process against the stack's table and sockets.
  Object.assign(process.env, inject('env'));
  launched = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await launched?.close();
});

describe('a breached service level', { timeout: 180_000 }, () => {
  it('shows the supervisor the breach badge on the row and the notification in the bell', async () => {
    const page = await openPage(launched, { baseURL: inject('webUrl'), locale: 'en-US' });
    await signInPage(page, supervisorEmail(), PASSWORD);
    // With nothing assigned and work waiting, the inbox opens on Pending by itself.
    const row = page.locator(`[data-testid="ticket-row"][data-ticket-id="${ticket.id}"]`);
    await row.waitFor({ timeout: 60_000 });
    const chip = row.getByTestId('sla-chip');
    await chip.waitFor();
    expect(['ok', 'dueSoon']).toContain(await chip.getAttribute('data-state'));
    expect(await chip.textContent()).toMatch(/\d+ min/);
    await shot(page, 'countdown');

    const { sweepSlaBreaches } = await import('@conversa/functions/domain/sweeps/sla-breach');
    const { defaultEffects } = await import('@conversa/functions/domain/messages/effects');
    const later = new Date(Date.parse(ticket.sla?.firstResponseDueAt as string) + 2 * MINUTE);
    expect(await sweepSlaBreaches(tenant.companyId, later, { ...defaultEffects, now: () => later })).toBe(1);

    // Live: the row's chip says Breached, the bell counts and lists it.
    await row.locator('[data-testid="sla-chip"][data-state="breached"]').waitFor({ timeout: 30_000 });
    expect(await row.getByTestId('sla-chip').textContent()).toBe('Breached');
    const bell = page.getByTestId('notifications-bell');
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="notifications-bell"]')?.getAttribute('data-count')) >= 1);
    await bell.click();
    const notification = page.getByTestId('sla-breach-notification');
    await notification.waitFor({ timeout: 15_000 });
    expect(await notification.textContent()).toContain('Cliente Esperando');
    expect(await page.getByTestId('sla-breach-list').textContent()).toContain('No first response in time');
    await shot(page, 'notification');

    // The notification opens the conversation.
    await notification.click();
    await page.waitForURL(`**/tickets/${ticket.uuid}`);
    await page.context().close();
  });
});
