/**
 * Automatic assignment seen by an attendant, in headless Chromium (issue 22 §2): the queue gives new
 * conversations in turn (roundRobin); an attendant of it is signed in (the web app's socket says
 * online), a contact writes from the simulated phone, and the ticket appears in the attendant's Open
 * tab (Abertos > Atendendo), theirs, without anyone accepting it; its conversation says it was
 * assigned automatically. Screenshot: tests/artifacts/auto-assign-open-tab.png.
 */
import { randomInt } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, inject, it } from 'vitest';
import { repoRoot } from '../../infra/local/lambda-runtime.ts';
import { type Call, client, createTenant, firstPlanId, PASSWORD, superLogin, type Tenant } from '../integration/tenants.ts';
import { type ConnectionSetup, connectedConnection, ok, type Simulator, simulator, waitUntil } from '../integration/whatsapp-kit.ts';
import { type LaunchedBrowser, launchBrowser, signInPage } from '../support/browser.ts';

const artifacts = join(repoRoot, 'tests', 'artifacts');
const contactName = `Bia ${randomInt(1000, 9999)}`;

let call: Call;
let sim: Simulator;
let tenant: Tenant;
let setup: ConnectionSetup;
let attendant: { id: number; email: string };
let launched: LaunchedBrowser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  call = client(inject('apiUrl'));
  sim = simulator(inject('simulatorUrl'));
  tenant = await createTenant(call, await superLogin(call, inject('admin')), await firstPlanId(call), 'auto-assign-web');
  setup = await connectedConnection(call, sim, { token: tenant.admin.token, companyId: tenant.companyId, queues: ['Atendimento'] });
  const queueId = setup.queueIds[0] as number;
  await ok(call, 'PUT', `/queue/${queueId}`, { token: tenant.admin.token, body: { autoAssign: 'roundRobin' } });
  const email = `lia@${tenant.marker}.test`;
  const made = await ok<{ id: number }>(call, 'POST', '/users', {
    token: tenant.admin.token,
    body: { name: 'Lia Atendente', email, password: PASSWORD, profile: 'user', queueIds: [queueId], maxOpenTickets: 3 },
  });
  attendant = { id: made.id, email };
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

describe('automatic assignment', { timeout: 180_000 }, () => {
  it('a new conversation arrives already assigned in the attendant’s Open tab', async () => {
    // The web app's socket is open and has said online (presence) before the contact writes.
    await page.getByRole('tab', { name: /Atendendo/ }).waitFor();
    await waitUntil('Lia online', async () => {
      const lia = await ok<{ presence?: string }>(call, 'GET', `/users/${attendant.id}`, { token: tenant.admin.token });
      return lia.presence === 'online';
    });
    await sim.send(setup.simId, `55219${randomInt(10_000_000, 99_999_999)}`, 'Oi, preciso de ajuda', contactName);

    // It shows in Atendendo (the Open tab's own list), theirs, without anyone accepting it: the list
    // follows it there (it was in Aguardando for the moment before it was assigned).
    const row = page.getByTestId('ticket-row').filter({ hasText: contactName });
    await row.waitFor({ timeout: 90_000 });
    await page.screenshot({ path: join(artifacts, 'auto-assign-open-tab.png') });
    await row.click();
    await page.getByTestId('thread-event').filter({ hasText: 'Atribuído automaticamente a Lia Atendente' }).waitFor({ timeout: 60_000 });
  });
});
