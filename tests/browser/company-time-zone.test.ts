/**
 * One time zone (issue 25 minor): the company's `timezone` setting, not the browser's, governs the
 * times the app shows and the date-times it takes. Chromium runs in Tokyo (playwright's timezoneId)
 * for a company in São Paulo, twelve hours apart, so every leak of the browser's zone shows:
 * - a contact's message: its time in the thread and in the ticket's list row are São Paulo's;
 * - a schedule made through the API for tomorrow 10:00 São Paulo shows 10:00 on the agenda and in
 *   its dialog (Tokyo would say 22:00);
 * - a schedule typed as 14:00 in the dialog is stored as 14:00 São Paulo (17:00 UTC), read back
 *   through the API (Tokyo's 14:00 would be 05:00 UTC);
 * - an invoice's due date is the day it is due.
 * Screenshots tests/artifacts/company-time-zone-*.png.
 */
import { randomInt } from 'node:crypto';
import type { Schedule } from '@conversa/functions/contracts/schedule-requests';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Call, client, createTenant, firstPlanId, PASSWORD, paidPlanId, superLogin, type Tenant } from '../integration/tenants.ts';
import { type ConnectionSetup, connectedConnection, ok, type Simulator, simulator, waitUntil } from '../integration/whatsapp-kit.ts';
import { type LaunchedBrowser, launchBrowser, ptDay, screenshots, signInPage, typeDate } from '../support/browser.ts';

const COMPANY_ZONE = 'America/Sao_Paulo';
const BROWSER_ZONE = 'Asia/Tokyo';
const shot = screenshots('company-time-zone');

let call: Call;
let sim: Simulator;
let superToken: string;
let tenant: Tenant;
let setup: ConnectionSetup;
let launched: LaunchedBrowser;
let context: BrowserContext;
let page: Page;
let ticketUuid: string;
let ticketId: number;
let contactNumber: string;
let contactId: number;
const contactName = `Zélia Fuso ${randomInt(1000, 9999)}`;

/** `yyyy-MM-dd` and `HH:mm` of an instant on São Paulo's clock. */
const spDay = (ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone: COMPANY_ZONE }).format(ms);
const spTime = (ms: number) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: COMPANY_ZONE, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(ms);
/** The day after `day` (yyyy-MM-dd). */
const nextDay = (day: string) => new Date(Date.parse(`${day}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
/** São Paulo keeps -03:00 all year (no daylight saving since 2019). */
const spInstant = (day: string, time: string) => new Date(`${day}T${time}:00-03:00`).toISOString();

beforeAll(async () => {
  call = client(inject('apiUrl'));
  sim = simulator(inject('simulatorUrl'));
  superToken = await superLogin(call, inject('admin'));
  tenant = await createTenant(call, superToken, await firstPlanId(call), 'company-tz');
  await ok(call, 'PUT', '/settings/timezone', { token: tenant.admin.token, body: { value: COMPANY_ZONE } });
  setup = await connectedConnection(call, sim, { token: tenant.admin.token, companyId: tenant.companyId, queues: ['Fuso'] });
  contactNumber = `55119${randomInt(10_000_000, 99_999_999)}`;
  const contact = await ok<{ id: number }>(call, 'POST', '/contacts', {
    token: tenant.admin.token,
    body: { name: contactName, number: contactNumber },
  });
  contactId = contact.id;
  const ticket = await ok<{ id: number; uuid: string }>(call, 'POST', '/tickets', {
    token: tenant.admin.token,
    body: { contactId: contact.id, queueId: setup.queueIds[0], whatsappId: setup.connectionId, userId: tenant.admin.id, status: 'open' },
  });
  ticketUuid = ticket.uuid;
  ticketId = ticket.id;
  launched = await launchBrowser();
  context = await launched.browser.newContext({
    baseURL: inject('webUrl'),
    locale: 'pt-BR',
    timezoneId: BROWSER_ZONE,
    colorScheme: 'light',
    viewport: { width: 1366, height: 860 },
  });
  context.setDefaultTimeout(60_000);
  page = await context.newPage();
}, 120_000);

afterAll(async () => {
  await context?.close();
  await launched?.close();
});

/** A fresh API token for the admin (the browser's sign-in ended the one made before it). */
async function adminToken(): Promise<string> {
  const res = await call('POST', '/auth/login', { body: { email: tenant.admin.email, password: PASSWORD } });
  return (res.body as { token: string }).token;
}

describe("the company's time zone, in a browser elsewhere", { timeout: 240_000 }, () => {
  it("shows a message's time on the company's clock, in the thread and the ticket list", async () => {
    // The browser really is in Tokyo.
    // The contact writes, and the message is stored, before the browser signs in.
    const body = `Que horas são aí? ${randomInt(1e6)}`;
    const sent = await sim.send(setup.simId, contactNumber, body, contactName);
    await waitUntil(
      'the message is stored',
      async () => {
        const page = await ok<{ messages: { body: string }[] }>(call, 'GET', `/messages/${ticketId}`, { token: tenant.admin.token });
        return page.messages.some((m) => m.body === body);
      },
      60_000,
    );
    await signInPage(page, tenant.admin.email, tenant.admin.password);
    expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe(BROWSER_ZONE);
    await page.goto(`/tickets/${ticketUuid}`);
    await shot(page, '0-opened');
    const bubble = page.getByTestId('message').filter({ hasText: body });
    await bubble.waitFor();
    const expected = spTime(sent.timestamp);
    await waitUntil(`the message shows ${expected}`, async () => ((await bubble.textContent()) ?? '').includes(expected));
    const row = page.getByTestId('ticket-row').filter({ hasText: contactName });
    await row.waitFor();
    // The list says HH:mm of the ticket's last move (the message, or reading it a moment later) for
    // the company's today, else the day.
    const moves = [0, 1, 2, 3].map((minutes) => sent.timestamp + minutes * 60_000);
    const rowExpected = moves.map((ms) => (spDay(ms) === spDay(Date.now()) ? spTime(ms) : ptDay(spDay(ms))));
    await waitUntil(`the row shows one of ${rowExpected.join(', ')}`, async () => {
      const text = (await row.textContent()) ?? '';
      return rowExpected.some((shown) => text.includes(shown));
    });
    await shot(page, '1-thread');
  });

  it('shows a schedule at its company time on the agenda and in its dialog', async () => {
    const day = nextDay(spDay(Date.now()));
    const body = `Lembrete das dez ${randomInt(1e6)}`;
    // Made through the API as an instant: 10:00 in São Paulo, 22:00 in Tokyo.
    await ok<Schedule>(call, 'POST', '/schedules', {
      token: await adminToken(),
      body: { body, contactId, sendAt: spInstant(day, '10:00') },
    });
    // The API login ended the browser's session: sign in again.
    await signInPage(page, tenant.admin.email, tenant.admin.password);
    await page.goto('/schedules');
    await page.locator('.rbc-toolbar').getByRole('button', { name: 'Agenda' }).click();
    const agendaRow = page.locator('.rbc-agenda-table tbody tr').filter({ hasText: contactName });
    await agendaRow.first().waitFor();
    await waitUntil('the agenda says 10:00', async () => ((await agendaRow.first().textContent()) ?? '').includes('10:00'));
    expect((await agendaRow.first().textContent()) ?? '').not.toContain('22:00');
    await shot(page, '2-agenda');
    await agendaRow.first().getByTestId('schedule-event').click();
    const dialog = page.getByTestId('schedule-dialog');
    await dialog.waitFor();
    await expect(dialog.locator('input[name=sendAt]').inputValue()).resolves.toBe(`${ptDay(day)} 10:00`);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  });

  it('stores a schedule typed as 14:00 as 14:00 company time', async () => {
    const day = nextDay(nextDay(spDay(Date.now())));
    const body = `Lembrete das duas ${randomInt(1e6)}`;
    await page.goto(`/tickets/${ticketUuid}`);
    await page.getByTestId('schedule-message').click();
    const dialog = page.getByTestId('schedule-dialog');
    await dialog.waitFor();
    await dialog.locator('textarea[name=body]').fill(body);
    const [year, month, date] = day.split('-').map(Number) as [number, number, number];
    await typeDate(page, dialog.locator('input[name=sendAt]'), new Date(year, month - 1, date, 14, 0), { time: true });
    await expect(dialog.locator('input[name=sendAt]').inputValue()).resolves.toBe(`${ptDay(day)} 14:00`);
    await shot(page, '3-dialog');
    await dialog.getByRole('button', { name: 'Agendar' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const schedules = await ok<{ schedules: Schedule[] }>(call, 'GET', `/schedules?searchParam=${encodeURIComponent(body)}`, {
      token: await adminToken(),
    });
    const saved = schedules.schedules.find((s) => s.body === body);
    expect(saved?.sendAt).toBe(spInstant(day, '14:00'));
  });

  it("shows an invoice's due date as the day it is due", async () => {
    // A plan worth paying for: the seeded one is free, and a free period renews itself.
    const paidPlan = await paidPlanId(call, superToken);
    const expired = await createTenant(call, superToken, paidPlan, 'company-tz-invoice');
    await ok(call, 'PUT', '/settings/timezone', { token: expired.admin.token, body: { value: COMPANY_ZONE } });
    const due = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    await ok(call, 'PUT', `/companies/${expired.companyId}`, {
      token: superToken,
      body: { name: expired.companyName, email: expired.admin.email, planId: paidPlan, dueDate: due },
    });
    const other = await launched.browser.newContext({ baseURL: inject('webUrl'), locale: 'pt-BR', timezoneId: BROWSER_ZONE });
    other.setDefaultTimeout(60_000);
    const billing = await other.newPage();
    await signInPage(billing, expired.admin.email, expired.admin.password, '**/financeiro');
    const table = billing.getByTestId('invoices-table');
    await table.getByText(ptDay(due)).first().waitFor();
    await shot(billing, '4-invoices');
    await other.close();
  });
});
