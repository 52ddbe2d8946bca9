/**
 * The quick replies page in headless Chromium (issue 25): the dialog's insert helper offers the
 * campaigns' placeholders ({nome}, {numero}, {email}) and inserts them at the cursor, and the list
 * marks a reply private to its author with a label, a shared one without. Screenshots go to
 * tests/artifacts/quick-replies-*.png.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { client, createTenant, firstPlanId, superLogin, type Tenant } from '../integration/tenants.ts';
import { ok } from '../integration/whatsapp-kit.ts';
import { type LaunchedBrowser, launchBrowser, openPage, screenshots, signInPage } from '../support/browser.ts';

const shot = screenshots('quick-replies');

let tenant: Tenant;
let launched: LaunchedBrowser;

beforeAll(async () => {
  const call = client(inject('apiUrl'));
  tenant = await createTenant(call, await superLogin(call, inject('admin')), await firstPlanId(call), 'quick-replies');
  await ok(call, 'POST', '/quick-messages', {
    token: tenant.admin.token,
    body: { shortcode: 'so-minha', message: 'Resposta que só eu uso', geral: false },
  });
  await ok(call, 'POST', '/quick-messages', {
    token: tenant.admin.token,
    body: { shortcode: 'para-todos', message: 'Resposta da equipe', geral: true },
  });
  launched = await launchBrowser();
});

afterAll(async () => {
  await launched?.close();
});

describe('quick replies', { timeout: 150_000 }, () => {
  it("labels a private reply, and the insert helper offers the campaigns' placeholders", async () => {
    const page = await openPage(launched, { baseURL: inject('webUrl'), viewport: { width: 1366, height: 800 } });
    await signInPage(page, tenant.admin.email, tenant.admin.password);
    await page.goto('/quick-messages');
    const table = page.getByTestId('quick-messages-table');
    const mine = table.getByRole('row', { name: /so-minha/ });
    const shared = table.getByRole('row', { name: /para-todos/ });
    await mine.waitFor();
    // The private one says so; the shared one does not.
    await mine.getByText('Privada', { exact: true }).waitFor();
    expect(await shared.getByText('Privada', { exact: true }).count()).toBe(0);
    await shot(page, 'list');

    await page.getByRole('button', { name: 'Adicionar' }).first().click();
    const dialog = page.getByTestId('quick-message-dialog');
    const message = dialog.locator('textarea[name=message]');
    await message.fill('Olá , tudo bem?');
    await message.evaluate((el) => (el as HTMLTextAreaElement).setSelectionRange(4, 4));
    await dialog.getByRole('button', { name: 'Inserir no cursor' }).click();
    const items = page.getByRole('menuitem');
    await items.first().waitFor();
    const offered = (await items.allTextContents()).join(' | ');
    await shot(page, 'placeholders');
    for (const placeholder of ['{nome}', '{numero}', '{email}']) expect(offered).toContain(placeholder);
    expect(offered).not.toContain('{{');
    await items.filter({ hasText: '{nome}' }).click();
    expect(await message.inputValue()).toBe('Olá {nome}, tudo bem?');
    await page.context().close();
  });
});
