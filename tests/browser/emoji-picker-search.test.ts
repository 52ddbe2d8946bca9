/**
 * The composer's emoji picker in headless Chromium (issue 25, "the emoji picker searches and has
 * categories"): an attendant opens it on an open ticket, sees its categories, searches "coração"
 * in Portuguese, and the heart it finds lands in the message. Screenshot:
 * tests/artifacts/emoji-picker-search.png.
 */
import { randomInt } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Ticket } from '@conversa/functions/contracts/tickets';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../../infra/local/lambda-runtime.ts';
import { client, createTenant, firstPlanId, superLogin, type Tenant } from '../integration/tenants.ts';
import { ok } from '../integration/whatsapp-kit.ts';
import { type LaunchedBrowser, launchBrowser, signInPage } from '../support/browser.ts';

const artifacts = join(repoRoot, 'tests', 'artifacts');

let tenant: Tenant;
let ticket: Ticket;
let launched: LaunchedBrowser;

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  const call = client(inject('apiUrl'));
  tenant = await createTenant(call, await superLogin(call, inject('admin')), await firstPlanId(call), 'emoji-picker');
  const contact = await ok<{ id: number }>(call, 'POST', '/contacts', {
    token: tenant.admin.token,
    body: { name: 'Clara Emoji', number: `55319${randomInt(10_000_000, 99_999_999)}` },
  });
  const connection = await ok<{ id: number }>(call, 'POST', '/whatsapp', {
    token: tenant.admin.token,
    body: { name: 'Loja', token: `emoji-${Date.now()}` },
  });
  ticket = await ok<Ticket>(call, 'POST', '/tickets', {
    token: tenant.admin.token,
    body: { contactId: contact.id, whatsappId: connection.id, status: 'open' },
  });
  launched = await launchBrowser();
});

afterAll(async () => {
  await launched?.close();
});

describe("the composer's emoji picker", { timeout: 150_000 }, () => {
  it('has categories, finds ❤️ by its Portuguese name and puts it in the message', async () => {
    const context = await launched.browser.newContext({
      baseURL: inject('webUrl'),
      locale: 'pt-BR',
      viewport: { width: 1366, height: 800 },
    });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await page.goto('/login');
    await page.locator('input[name=email]').waitFor({ timeout: 90_000 });
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
    await page.screenshot({ path: join(artifacts, 'emoji-picker-search.png') });
    await heart.click();
    await picker.waitFor({ state: 'hidden' });
    expect(await input.inputValue()).toMatch(/^Obrigada ❤/u);
    await context.close();
  });
});
