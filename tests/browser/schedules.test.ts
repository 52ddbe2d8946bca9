/**
 * Scheduling a message in headless Chromium over the local stack (SPEC 2 "Modals", "Schedules",
 * 3 "Schedule message"): from the conversation header's schedule button the dialog opens for the
 * ticket's contact, one hour ahead by default, refuses a short message with the spec's rule; the
 * saved schedule is an event on the /schedules calendar (count in the title, search), is edited and
 * deleted from its icons; `?contactId=` opens the add dialog for that contact; a sent one opens
 * read-only with its status in the title. Screenshots go to tests/artifacts/.
 */
import { randomInt } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Schedule } from '@conversa/functions/contracts/schedule-requests';
import { addDays, addHours, format, isSameMonth } from 'date-fns';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../../infra/local/lambda-runtime.ts';
import { type Call, client, createTenant, firstPlanId, superLogin, type Tenant } from '../integration/tenants.ts';
import { type ConnectionSetup, connectedConnection, ok, type Simulator, simulator, waitUntil } from '../integration/whatsapp-kit.ts';
import { launchBrowser, signInPage, typeDate } from '../support/browser.ts';

const artifacts = join(repoRoot, 'tests', 'artifacts');
const shot = (page: Page, name: string) => page.screenshot({ path: join(artifacts, `schedules-${name}.png`) });
const contactName = `Rita Agenda ${randomInt(1000, 9999)}`;
const otherName = `Otávio Lista ${randomInt(1000, 9999)}`;
const sentBody = 'Mensagem que já foi enviada';

let call: Call;
let sim: Simulator;
let tenant: Tenant;
let setup: ConnectionSetup;
let ticketUuid: string;
let otherContactId: number;
let sentId: number;
let gated: Tenant;
let gatedTicketUuid: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;

const dialog = () => page.getByTestId('schedule-dialog');
const events = () => page.getByTestId('schedule-event');

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  call = client(inject('apiUrl'));
  sim = simulator(inject('simulatorUrl'));
  const superToken = await superLogin(call, inject('admin'));
  tenant = await createTenant(call, superToken, await firstPlanId(call), 'schedules-web');
  // The company's clock (issue 25 "One time zone") is this process's, whose local times the expectations write.
  await ok(call, 'PUT', '/settings/timezone', {
    token: tenant.admin.token,
    body: { value: Intl.DateTimeFormat().resolvedOptions().timeZone },
  });
  // A company whose plan lacks useSchedules, with a conversation of its own.
  const plan = await ok<{ id: number }>(call, 'POST', '/plans', {
    token: superToken,
    body: { name: `Sem agenda ${randomInt(1e6)}`, useSchedules: false },
  });
  gated = await createTenant(call, superToken, plan.id, 'schedules-web-gated');
  const gatedContact = await ok<{ id: number }>(call, 'POST', '/contacts', {
    token: gated.admin.token,
    body: { name: 'Sem Agenda', number: `55319${randomInt(10_000_000, 99_999_999)}` },
  });
  const gatedConnection = await ok<{ id: number }>(call, 'POST', '/whatsapp', { token: gated.admin.token, body: { name: 'Gated phone' } });
  gatedTicketUuid = (
    await ok<{ uuid: string }>(call, 'POST', '/tickets', {
      token: gated.admin.token,
      body: { contactId: gatedContact.id, whatsappId: gatedConnection.id, userId: gated.admin.id, status: 'open' },
    })
  ).uuid;
  setup = await connectedConnection(call, sim, { token: tenant.admin.token, companyId: tenant.companyId, queues: ['Agenda'] });
  const contact = await ok<{ id: number }>(call, 'POST', '/contacts', {
    token: tenant.admin.token,
    body: { name: contactName, number: `55119${randomInt(10_000_000, 99_999_999)}` },
  });
  const ticket = await ok<{ uuid: string }>(call, 'POST', '/tickets', {
    token: tenant.admin.token,
    body: { contactId: contact.id, queueId: setup.queueIds[0], whatsappId: setup.connectionId, userId: tenant.admin.id, status: 'open' },
  });
  ticketUuid = ticket.uuid;
  const other = await ok<{ id: number }>(call, 'POST', '/contacts', {
    token: tenant.admin.token,
    body: { name: otherName, number: `55219${randomInt(10_000_000, 99_999_999)}` },
  });
  otherContactId = other.id;
  // A schedule already sent (the job runs here, as EventBridge would), made before the browser's
  // sign-in ends this API session (SPEC 4 single session).
  const sent = await ok<Schedule>(call, 'POST', '/schedules', {
    token: tenant.admin.token,
    body: { body: sentBody, contactId: other.id, sendAt: new Date(Date.now() - 60_000).toISOString() },
  });
  sentId = sent.id;
  Object.assign(process.env, inject('env'));
  const job = await import('@conversa/functions/handlers/jobs/schedule-sends');
  await job.handler();
  await waitUntil(
    'the past schedule is sent',
    async () => (await ok<Schedule>(call, 'GET', `/schedules/${sentId}`, { token: tenant.admin.token })).status === 'ENVIADA',
  );

  browser = (await launchBrowser()).browser;
  context = await browser.newContext({
    baseURL: inject('webUrl'),
    locale: 'pt-BR',
    colorScheme: 'light',
    viewport: { width: 1366, height: 860 },
  });
  page = await context.newPage();
  await signInPage(page, tenant.admin.email, tenant.admin.password);
});

afterAll(async () => {
  await context?.close();
  await browser?.close().catch(() => undefined);
});

/** Tomorrow at 10:00 local time: always a future send, on the calendar's month or the next. */
const sendAt = addHours(addDays(new Date(new Date().setHours(0, 0, 0, 0)), 1), 10);

describe('scheduling a message', { timeout: 180_000 }, () => {
  it('schedules from the conversation header: the contact is set, one hour ahead by default, a short message refused', async () => {
    // Prepare
    await page.goto(`/tickets/${ticketUuid}`);
    await page.getByTestId('conversation-header').getByText(contactName).waitFor();
    // Act
    const opened = Date.now();
    await page.getByTestId('schedule-message').click();
    // Assess
    await dialog().waitFor();
    await dialog().getByText('Mensagem pendente').waitFor();
    await waitUntil('the contact is set', async () => (await dialog().locator('input[name=contact]').inputValue()).includes(contactName));
    const initial = await dialog().locator('input[name=sendAt]').inputValue();
    // The field writes pt's order (dd/MM/yyyy HH:mm), whatever the browser's locale.
    const oneHourAhead = [0, 60_000].map((skew) => format(addHours(new Date(opened + skew), 1), 'dd/MM/yyyy HH:mm'));
    expect(oneHourAhead).toContain(initial);
    // Act: too short, then a real message tomorrow at 10:00
    await dialog().locator('textarea[name=body]').fill('oi');
    await dialog().getByRole('button', { name: 'Agendar' }).click();
    await dialog().getByText('Mensagem muito curta').waitFor();
    await dialog().locator('textarea[name=body]').fill('Lembrete: sua consulta é amanhã às 10h');
    await typeDate(page, dialog().locator('input[name=sendAt]'), sendAt, { time: true });
    await expect(dialog().locator('input[name=sendAt]').inputValue()).resolves.toBe(format(sendAt, 'dd/MM/yyyy HH:mm'));
    await shot(page, '1-dialog-from-conversation');
    await dialog().getByRole('button', { name: 'Agendar' }).click();
    // Assess
    await page.getByText('Agendamento salvo com sucesso.').waitFor();
    await dialog().waitFor({ state: 'hidden' });
  });

  it('shows it on the /schedules calendar at its send time, with the count in the title; search narrows it', async () => {
    // Act
    await page.goto('/schedules');
    // Assess
    await page.getByRole('heading', { name: 'Agendamentos (2)' }).waitFor();
    if (!isSameMonth(sendAt, new Date())) await page.getByRole('button', { name: 'Próximo' }).click();
    const event = events().filter({ hasText: contactName });
    await event.waitFor();
    // The month cell of its day holds it.
    const cellDay = await event.evaluate((el) => {
      const row = el.closest('.rbc-month-row');
      const cells = [...(row?.querySelectorAll('.rbc-date-cell') ?? [])];
      const segment = el.closest('.rbc-row-segment') as HTMLElement | null;
      const left = segment?.getBoundingClientRect().left ?? 0;
      const cell = cells.find((c) => Math.abs(c.getBoundingClientRect().left - left) < 4);
      return cell?.textContent?.trim();
    });
    expect(Number(cellDay)).toBe(sendAt.getDate());
    // A sent one is coloured apart from those still waiting (green vs the primary colour).
    const background = (id: number) =>
      page.locator(`[data-schedule-id="${id}"]`).evaluate((el) => getComputedStyle(el.closest('.rbc-event') as Element).backgroundColor);
    const waitingId = Number(await event.getAttribute('data-schedule-id'));
    if (isSameMonth(sendAt, new Date())) expect(await background(sentId)).not.toBe(await background(waitingId));
    await shot(page, '2-calendar');
    // Act: search by the message
    await page.locator('input[type=search]').first().fill('consulta');
    // Assess
    await page.getByRole('heading', { name: 'Agendamentos (1)' }).waitFor();
    await page.locator('input[type=search]').first().fill('');
    await page.getByRole('heading', { name: 'Agendamentos (2)' }).waitFor();
  });

  it('edits it from its icon and deletes it from the other', async () => {
    // Act: edit
    const event = events().filter({ hasText: contactName });
    await event.getByRole('button', { name: 'Editar' }).click();
    await dialog().waitFor();
    await expect(dialog().locator('textarea[name=body]').inputValue()).resolves.toBe('Lembrete: sua consulta é amanhã às 10h');
    await dialog().locator('textarea[name=body]').fill('Lembrete: consulta remarcada para as 10h');
    await dialog().getByRole('button', { name: 'Salvar' }).click();
    // Assess
    await dialog().waitFor({ state: 'hidden' });
    await waitUntil(
      'the event carries the new text',
      async () => (await event.getAttribute('title')) === 'Lembrete: consulta remarcada para as 10h',
    );
    // Act: delete, confirmed
    await event.getByRole('button', { name: 'Excluir' }).click();
    await page.getByRole('button', { name: 'Confirmar' }).click();
    // Assess
    await page.getByText('Agendamento excluído com sucesso.').waitFor();
    await event.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'Agendamentos (1)' }).waitFor();
  });

  it('opens a sent schedule read-only, its status in the title; ?contactId= opens the add dialog for that contact', async () => {
    // Act
    await page.goto('/schedules');
    await page.getByRole('heading', { name: 'Agendamentos (1)' }).waitFor();
    const sent = page.locator(`[data-schedule-id="${sentId}"]`);
    await sent.getByRole('button', { name: 'Editar' }).click();
    // Assess
    await dialog().getByText('Mensagem enviada').waitFor();
    await dialog().getByTestId('schedule-sent-at').waitFor();
    await expect(dialog().getByRole('button', { name: 'Salvar' }).count()).resolves.toBe(0);
    await shot(page, '3-sent-read-only');
    await dialog().getByRole('button', { name: 'Fechar' }).click();
    await dialog().waitFor({ state: 'hidden' });
    // Act
    await page.goto(`/schedules?contactId=${otherContactId}`);
    // Assess
    await dialog().waitFor();
    await waitUntil('the contact is set', async () => (await dialog().locator('input[name=contact]').inputValue()).includes(otherName));
    await dialog().getByRole('button', { name: 'Cancelar' }).click();
    await dialog().waitFor({ state: 'hidden' });
    expect(page.url()).not.toContain('contactId');
    // On a phone the calendar still fits, in dark mode too.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 390, height: 800 });
    await page.reload();
    await page.getByRole('heading', { name: 'Agendamentos (1)' }).waitFor();
    await page.locator(`[data-schedule-id="${sentId}"]`).waitFor();
    await shot(page, '4-narrow-dark');
  });

  it('without useSchedules the header has no schedule button and /schedules is refused', async () => {
    // Prepare
    const other = await browser.newContext({ baseURL: inject('webUrl'), locale: 'pt-BR', viewport: { width: 1366, height: 860 } });
    const gatedPage = await other.newPage();
    await signInPage(gatedPage, gated.admin.email, gated.admin.password);
    // Act
    await gatedPage.goto(`/tickets/${gatedTicketUuid}`);
    await gatedPage.getByTestId('conversation-header').getByText('Sem Agenda').waitFor();
    // The plan has been read once the menu shows its other gated entries (Kanban) and not Agendamentos.
    await gatedPage.getByText('Kanban', { exact: true }).waitFor();
    await expect(gatedPage.getByText('Agendamentos', { exact: true }).count()).resolves.toBe(0);
    // Assess
    await expect(gatedPage.getByTestId('schedule-message').count()).resolves.toBe(0);
    // Act
    await gatedPage.goto('/schedules');
    // Assess
    await gatedPage.getByText('Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.').waitFor();
    await gatedPage.waitForURL((url) => url.pathname === '/');
    await other.close();
  });
});
