/**
 * The Kanban card as the customer of issue 25 met it, in headless Chromium: a card is picked up by
 * its body (there was only a small handle to grab), stays in sight above the lanes while it travels
 * (it disappeared under the next lane, clipped by its own lane's scroll box), and says whose
 * conversation it is (the contact's name; only the number showed). The admin drags the card by its
 * text from Open to a kanban tag's lane; mid-drag the point under the mouse is the dragged card;
 * the drop retags the ticket (the reloaded board has it in that lane). Screenshot mid-drag:
 * tests/artifacts/kanban-card-drag-mid.png.
 */
import { randomInt } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../../infra/local/lambda-runtime.ts';
import { type Call, client, createTenant, firstPlanId, superLogin, type Tenant } from '../integration/tenants.ts';
import { ok } from '../integration/whatsapp-kit.ts';
import { type LaunchedBrowser, launchBrowser, signInPage } from '../support/browser.ts';

const artifacts = join(repoRoot, 'tests', 'artifacts');
const CONTACT = 'Mariana Lopes';

let tenant: Tenant;
let launched: LaunchedBrowser;
let page: Page;
let lane: { id: number };
let ticket: { id: number };

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  const call: Call = client(inject('apiUrl'));
  const superToken = await superLogin(call, inject('admin'));
  tenant = await createTenant(call, superToken, await firstPlanId(call), 'kanban-card-drag');
  const token = tenant.admin.token;
  const queue = await ok<{ id: number }>(call, 'POST', '/queue', { token, body: { name: 'Vendas', color: '#1976d2' } });
  const connection = await ok<{ id: number }>(call, 'POST', '/whatsapp', { token, body: { name: 'Principal' } });
  lane = await ok<{ id: number }>(call, 'POST', '/tags', { token, body: { name: 'Quente', color: '#e65100', kanban: 1 } });
  const contact = await ok<{ id: number }>(call, 'POST', '/contacts', {
    token,
    body: { name: CONTACT, number: `55119${randomInt(10_000_000, 99_999_999)}` },
  });
  ticket = await ok<{ id: number }>(call, 'POST', '/tickets', {
    token,
    body: { contactId: contact.id, queueId: queue.id, whatsappId: connection.id, userId: tenant.admin.id, status: 'open' },
  });
  launched = await launchBrowser();
  const context = await launched.browser.newContext({ baseURL: inject('webUrl'), locale: 'en-US', viewport: { width: 1366, height: 860 } });
  page = await context.newPage();
  await page.goto('/login');
  await page.locator('input[name=email]').waitFor({ timeout: 90_000 });
  await signInPage(page, tenant.admin.email, tenant.admin.password);
}, 240_000);

afterAll(async () => {
  await launched?.close();
});

describe('a kanban card', { timeout: 240_000 }, () => {
  it("shows the contact's name, drags by its body and stays in sight above the lanes on the way", async () => {
    await page.goto('/kanban');
    const open = page.getByTestId('kanban-lane-0');
    const target = page.getByTestId(`kanban-lane-${lane.id}`);
    const card = open.getByTestId(`kanban-card-${ticket.id}`);
    await card.waitFor({ timeout: 60_000 });
    expect(await card.getByText(CONTACT).isVisible()).toBe(true);

    // The body of the card (its name), not a handle.
    const grip = await card.getByText(CONTACT).boundingBox();
    const to = await target.boundingBox();
    if (!grip || !to) throw new Error('no boxes');
    await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
    await page.mouse.down();
    await page.mouse.move(grip.x + grip.width / 2 + 20, grip.y + 10, { steps: 5 });
    const over = { x: to.x + to.width / 2, y: to.y + 120 };
    await page.mouse.move(over.x, over.y, { steps: 15 });
    // Mid-drag, over the next lane: what is under the mouse is the dragged card, carrying the name.
    await expect
      .poll(() =>
        page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('[data-testid=kanban-drag-overlay]')?.textContent ?? '', over),
      )
      .toContain(CONTACT);
    await page.screenshot({ path: join(artifacts, 'kanban-card-drag-mid.png') });
    await page.mouse.up();

    await target.getByTestId(`kanban-card-${ticket.id}`).waitFor({ timeout: 30_000 });
    expect(await open.getByTestId(`kanban-card-${ticket.id}`).count()).toBe(0);
    // Stored: a fresh board (the browser's sign-in ended the API token's session) has it in that lane.
    await page.reload();
    await target.getByTestId(`kanban-card-${ticket.id}`).waitFor({ timeout: 60_000 });
    await page.screenshot({ path: join(artifacts, 'kanban-card-drag-after.png') });
  });
});
