/**
 * Issue 25 items 3 and 6 in the browser: a message we sent through the external API shows in the
 * conversation with a small "API" label (pt), before the contact's answer; the transfer that gave the
 * ticket to the attendant is a centred line with who and when, and a transfer made elsewhere while
 * the attendant reads adds its line live. Screenshot in tests/artifacts/thread-origins.png.
 */
import { randomInt, randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Call, client, createTenant, firstPlanId, superLogin, type Tenant } from '../integration/tenants.ts';
import { connectedConnection, ok, simulator, waitUntil } from '../integration/whatsapp-kit.ts';
import { pendingTicketOf } from '../support/api.ts';
import { type LaunchedBrowser, launchBrowser, openPage, screenshots, signInPage } from '../support/browser.ts';

const shot = screenshots('thread-origins');
const number = `55419${randomInt(10_000_000, 99_999_999)}`;
const viaApi = `Seu pedido ${randomInt(1000, 9999)} saiu para entrega`;
const answer = 'Obrigada!';

let launched: LaunchedBrowser;
let page: Page;
let tenant: Tenant;
let ticketId: number;
let call: Call;
let otherQueueId: number;

beforeAll(async () => {
  call = client(inject('apiUrl'));
  const sim = simulator(inject('simulatorUrl'));
  tenant = await createTenant(call, await superLogin(call, inject('admin')), await firstPlanId(call), 'origins-web');
  const apiToken = `origins-web-${randomUUID()}`;
  const setup = await connectedConnection(call, sim, {
    token: tenant.admin.token,
    companyId: tenant.companyId,
    queues: ['Entregas'],
    connection: { token: apiToken },
  });
  const sent = await call('POST', '/api/messages/send', { token: apiToken, body: { number, body: viaApi } });
  if (sent.status !== 200) throw new Error(`api send: ${sent.status} ${sent.text}`);
  await waitUntil('the phone has it', async () => (await sim.chat(setup.simId, number)).some((m) => m.body === viaApi));
  await sim.send(setup.simId, number, answer, 'Bia');
  ticketId = await pendingTicketOf(call, tenant.admin.token, number, answer);
  // The admin gives it to the attendant, who reads it in the browser (the admin's API session stays valid).
  await ok(call, 'PUT', `/tickets/${ticketId}`, { token: tenant.admin.token, body: { status: 'open', userId: tenant.user.id } });
  otherQueueId = (
    await ok<{ id: number }>(call, 'POST', '/queue', { token: tenant.admin.token, body: { name: 'Financeiro', color: '#aa5500' } })
  ).id;
  launched = await launchBrowser();
  page = await openPage(launched, { baseURL: inject('webUrl'), viewport: { width: 1280, height: 800 } });
}, 90_000);

afterAll(async () => {
  await launched?.close();
});

describe('the conversation shows where our messages came from', { timeout: 90_000 }, () => {
  it('labels the API message "API", before the answer', async () => {
    await signInPage(page, tenant.user.email, tenant.user.password);
    await page.getByTestId('ticket-row').filter({ hasText: 'Bia' }).click();
    const sent = page.getByTestId('message').filter({ hasText: viaApi });
    await sent.waitFor({ timeout: 30_000 }).catch(async (error) => {
      await shot(page, 'failed');
      throw error;
    });
    const label = sent.getByTestId('message-origin');
    await expect(label.getAttribute('data-origin')).resolves.toBe('api');
    await expect(label.textContent()).resolves.toBe('API');
    // The contact's answer carries no label and comes after.
    const bodies = await page.getByTestId('message').allTextContents();
    const at = (text: string) => bodies.findIndex((b) => b.includes(text));
    expect(at(viaApi)).toBeGreaterThanOrEqual(0);
    expect(at(answer)).toBeGreaterThan(at(viaApi));
    await expect(page.getByTestId('message').filter({ hasText: answer }).getByTestId('message-origin').count()).resolves.toBe(0);
  });

  it('shows the transfer as a centred line with who, and a new transfer live', async () => {
    const transferred = page.getByTestId('thread-event').filter({ hasText: 'transferiu para' });
    await transferred.first().waitFor({ timeout: 15_000 });
    await expect(transferred.first().getAttribute('data-kind')).resolves.toBe('transferred');
    await expect(transferred.first().textContent()).resolves.toMatch(/^Company origins-web-\S+ transferiu para User .+ · \d\d:\d\d$/);
    // The admin moves it to Financeiro, keeping the attendant: the line arrives without a reload.
    await ok(call, 'PUT', `/tickets/${ticketId}`, {
      token: tenant.admin.token,
      body: { status: 'open', userId: tenant.user.id, queueId: otherQueueId },
    });
    await page.getByTestId('thread-event').filter({ hasText: '(Financeiro)' }).waitFor({ timeout: 30_000 });
    await expect(page.getByTestId('thread-event').count()).resolves.toBe(2);
    await shot(page, 'thread');
  });
});
