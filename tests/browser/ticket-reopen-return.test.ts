/**
 * Reopen and Return in the conversation header, in headless Chromium (issue 25): after Reopen the
 * ticket list moves to where the ticket now lives (Abertos > Atendendo) instead of staying on
 * Resolvidos, where it no longer is; Return, which hands the contact back to the queue, asks for a
 * confirmation first as Resolve does (Cancel changes nothing). Screenshots go to
 * tests/artifacts/ticket-reopen-return-*.png.
 */
import { randomInt } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Ticket } from '@conversa/functions/contracts/tickets';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../../infra/local/lambda-runtime.ts';
import { type Call, client, createTenant, firstPlanId, PASSWORD, superLogin, type Tenant } from '../integration/tenants.ts';
import { ok, waitUntil } from '../integration/whatsapp-kit.ts';
import { type LaunchedBrowser, launchBrowser, signInPage } from '../support/browser.ts';

const artifacts = join(repoRoot, 'tests', 'artifacts');
const contactName = `Rita ${randomInt(1000, 9999)}`;

let call: Call;
let tenant: Tenant;
let ticket: Ticket;
/** The admin at the browser: a second one, so the API calls' session (the first admin's) stays signed in. */
let attendant: { id: number; email: string };
let launched: LaunchedBrowser;
let context: BrowserContext;
let page: Page;

const statusNow = async () => (await ok<Ticket>(call, 'GET', `/tickets/${ticket.id}`, { token: tenant.admin.token })).status;

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  call = client(inject('apiUrl'));
  tenant = await createTenant(call, await superLogin(call, inject('admin')), await firstPlanId(call), 'reopen-return');
  const email = `ana@${tenant.marker}.test`;
  const made = await ok<{ id: number }>(call, 'POST', '/users', {
    token: tenant.admin.token,
    body: { name: 'Ana Admin', email, password: PASSWORD, profile: 'admin' },
  });
  attendant = { id: made.id, email };
  // Ana's own ticket (its creator attends it), made before she signs in at the browser, which ends this API session.
  const ana = (await ok<{ token: string }>(call, 'POST', '/auth/login', { body: { email, password: PASSWORD } })).token;
  const contact = await ok<{ id: number }>(call, 'POST', '/contacts', {
    token: tenant.admin.token,
    body: { name: contactName, number: `55319${randomInt(10_000_000, 99_999_999)}` },
  });
  const connection = await ok<{ id: number }>(call, 'POST', '/whatsapp', {
    token: tenant.admin.token,
    body: { name: 'Loja', token: `reopen-${Date.now()}` },
  });
  ticket = await ok<Ticket>(call, 'POST', '/tickets', {
    token: ana,
    body: { contactId: contact.id, whatsappId: connection.id, userId: attendant.id, queueId: null, status: 'open' },
  });
  // Resolved earlier: Ana finds it under Resolvidos.
  await ok(call, 'PUT', `/tickets/${ticket.id}`, {
    token: ana,
    body: { status: 'closed', userId: attendant.id, queueId: null, useIntegration: false, promptId: false, integrationId: false },
  });
  launched = await launchBrowser();
  context = await launched.browser.newContext({ baseURL: inject('webUrl'), locale: 'pt-BR', viewport: { width: 1366, height: 800 } });
  page = await context.newPage();
  page.setDefaultTimeout(60_000);
  await page.goto('/login');
  await page.locator('input[name=email]').waitFor({ timeout: 90_000 });
  await signInPage(page, attendant.email, PASSWORD);
});

afterAll(async () => {
  await context?.close();
  await launched?.close();
});

const header = () => page.getByTestId('conversation-header');
const row = () => page.getByTestId('ticket-row').filter({ hasText: contactName });

describe('Reopen and Return', { timeout: 150_000 }, () => {
  it('Reopen moves the list to the tab the ticket is now in (Abertos > Atendendo)', async () => {
    // Prepare: the resolved ticket open beside the Resolvidos list
    await page.goto(`/tickets/${ticket.uuid}`);
    await page.getByRole('tab', { name: 'Resolvidos' }).click();
    await row().waitFor();
    // Act
    await header().getByRole('button', { name: 'Reabrir' }).click();
    await header().getByRole('button', { name: 'Devolver' }).waitFor();
    // Assess: the list shows where the ticket lives now, with the ticket in it
    await waitUntil(
      'the Abertos tab',
      async () => (await page.getByRole('tab', { name: 'Abertos' }).getAttribute('aria-selected')) === 'true',
    );
    expect(await page.getByTestId('tab-assigned').getAttribute('aria-selected')).toBe('true');
    await row().waitFor();
    await page.screenshot({ path: join(artifacts, 'ticket-reopen-return-reopened.png') });
    expect(await statusNow()).toBe('open');
  });

  it('Return asks first; Cancel keeps the ticket, Confirm hands it back to Aguardando', async () => {
    // Act: the first click only asks
    await header().getByRole('button', { name: 'Devolver' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(contactName, { exact: false }).waitFor();
    await page.screenshot({ path: join(artifacts, 'ticket-reopen-return-confirm.png') });
    expect(await statusNow()).toBe('open');
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(page.url()).toMatch(new RegExp(`/tickets/${ticket.uuid}$`));
    expect(await statusNow()).toBe('open');
    // Act: asked again, confirmed
    await header().getByRole('button', { name: 'Devolver' }).click();
    await page.getByTestId('confirm-dialog-confirm').click();
    // Assess
    await page.waitForURL('**/tickets');
    await waitUntil('the ticket is pending', async () => (await statusNow()) === 'pending');
  });
});
