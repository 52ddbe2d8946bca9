/**
 * The composer's emoji picker in headless Chromium (issue 25, "the emoji picker searches and has
 * categories"): an attendant opens it on an open ticket, sees its categories, searches "coração"
 * in Portuguese, and the heart it finds lands in the message. Screenshot:
 * tests/artifacts/emoji-picker-search.png.
 */
import { randomInt } from 'node:crypto';
import type { Ticket } from '@conversa/functions/contracts/tickets';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { client, createTenant, firstPlanId, superLogin, type Tenant } from '../integration/tenants.ts';
import { openTicketOfNewContact } from '../support/api.ts';
import { type LaunchedBrowser, launchBrowser, openPage, screenshots, signInPage } from '../support/browser.ts';

const shot = screenshots('emoji-picker');

let tenant: Tenant;
let ticket: Ticket;
let launched: LaunchedBrowser;

beforeAll(async () => {
  const call = client(inject('apiUrl'));
  tenant = await createTenant(call, await superLogin(call, inject('admin')), await firstPlanId(call), 'emoji-picker');
  ticket = await openTicketOfNewContact<Ticket>(call, tenant.admin.token, {
    name: 'Clara Emoji',
    number: `55319${randomInt(10_000_000, 99_999_999)}`,
  });
  launched = await launchBrowser();
});

afterAll(async () => {
  await launched?.close();
});

describe("the composer's emoji picker", { timeout: 150_000 }, () => {
  it('has categories, finds ❤️ by its Portuguese name and puts it in the message', async () => {
    const page = await openPage(launched, { baseURL: inject('webUrl'), viewport: { width: 1366, height: 800 } });
    await signInPage(page, tenant.admin.email, tenant.admin.password);
    await page.goto(`/tickets/${ticket.uuid}`);
    const input = page.getByRole('textbox', { name: 'Digite uma mensagem' });
    await input.fill('Obrigada ');
    await page.getByTestId('message-input').getByRole('button', { name: 'Emoji' }).click();
    const picker = page.getByTestId('emoji-picker');
    // Categories to browse
    await picker.getByRole('tab').first().waitFor();
    expect(await picker.getByRole('tab').count()).toBeGreaterThanOrEqual(8);
    // A search in the user's language
    await picker.getByPlaceholder('Buscar emoji').fill('coração');
    const heart = picker.locator('.epr-emoji-native', { hasText: '❤' }).first();
    await heart.waitFor();
    await shot(page, 'search');
    await heart.click();
    await picker.waitFor({ state: 'hidden' });
    expect(await input.inputValue()).toMatch(/^Obrigada ❤/u);
    await page.context().close();
  });
});
