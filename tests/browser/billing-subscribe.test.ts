/**
 * Issue 25 item 1 in headless Chromium over the local stack: a company that wants to pay can, on its
 * first day. A person signs a new company up on the signup screen, opens Subscription from the side
 * menu, presses Subscribe now, walks the wizard (Dados, Personalizar, Revisar) to the PIX QR, then
 * opens the local fake Asaas' page (what the README tells people to pay with), pays the charge there
 * with its Pay button, and sees the licence renewed in the app: the due date a month on, the invoice
 * Pago. Before, Subscribe now only opened an empty Invoices table (no invoice until the hourly job),
 * Subscription had no menu entry, the wizard priced plans as COP$, and the provider's page showed
 * "undefined" instead of its charges. Screenshots: tests/artifacts/subscribe-*.png.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { addDays, addMonths, todayIso } from '@conversa/functions/domain/companies/due-date';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../../infra/local/lambda-runtime.ts';
import { client, superLogin } from '../integration/tenants.ts';
import { type LaunchedBrowser, launchBrowser } from '../support/browser.ts';

const artifacts = join(repoRoot, 'tests', 'artifacts');
const shot = (page: Page, name: string) => page.screenshot({ path: join(artifacts, `subscribe-${name}.png`), fullPage: true });
/** dd/MM/yyyy, as the app writes a day in pt. */
const ptDay = (day: string) => day.split('-').reverse().join('/');

const stamp = Date.now();
const planName = `Plano Start ${stamp}`;
const companyName = `Padaria ${stamp}`;
const email = `dona-${stamp}@padaria.test`;
const password = 'Padaria-Trial-1';

let launched: LaunchedBrowser;
let page: Page;
let providerUrl: string;

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  const call = client(inject('apiUrl'));
  providerUrl = (inject('env').ASAAS_BASE_URL as string).replace(/\/v3$/, '');
  // The platform offers a priced plan on the signup screen.
  const superToken = await superLogin(call, inject('admin'));
  const plan = await call('POST', '/plans', {
    token: superToken,
    body: { name: planName, value: 99.9, users: 3, connections: 1, queues: 2 },
  });
  expect(plan.status, plan.text).toBeLessThan(300);
  launched = await launchBrowser();
  const context = await launched.browser.newContext({
    baseURL: inject('webUrl'),
    locale: 'pt-BR',
    colorScheme: 'light',
    viewport: { width: 1366, height: 860 },
  });
  // The machine is shared (2 cores): a first load of a lazy page can take longer than Playwright's 30 s.
  context.setDefaultTimeout(60_000);
  page = await context.newPage();
});

afterAll(async () => {
  await launched?.close();
});

describe('a trial company pays on its first day', { timeout: 240_000 }, () => {
  it('signs up, subscribes from the Subscription menu entry, pays the PIX charge on the provider page and is renewed', async () => {
    // Act: sign up on the signup screen
    await page.goto('/signup');
    // The first lazy load of a fresh build can take a while on a busy machine.
    await page.getByLabel('Nome da empresa').waitFor({ timeout: 90_000 });
    await page.getByLabel('Nome da empresa').fill(companyName);
    await page.getByLabel('Seu nome').fill('Maria Lima');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Telefone').fill('11987654321');
    await page.getByLabel('Senha', { exact: true }).fill(password);
    await page.getByLabel('Plano').click();
    const option = page.getByRole('option', { name: planName });
    // The plan's price in the one currency, not COP$.
    await expect.poll(() => option.textContent()).toMatch(/R\$\s99,90\/mês$/);
    await option.click();
    // The menu fades out before it unmounts.
    await page.locator('.MuiPopover-root').waitFor({ state: 'detached' });
    await shot(page, '1-signup');
    await page.getByRole('button', { name: 'Cadastrar' }).click();
    // Signed in and sent to the inbox; its lazy page is a first load too. A failure names where it went instead.
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 90_000 }).toBe('/tickets');

    // Act: day one, Subscription from the side menu
    await page.getByTestId('menu-subscription').click();
    await page.waitForURL('**/subscription');
    const trialEnd = addDays(todayIso(), 3);
    await page.getByTestId('trial-days').getByText(ptDay(trialEnd), { exact: false }).waitFor();
    await shot(page, '2-subscription');

    // Act: Subscribe now opens the wizard (Dados, Personalizar, Revisar)
    await page.getByTestId('subscribe-now').click();
    const wizard = page.getByTestId('subscription-wizard');
    await wizard.waitFor();
    for (const step of ['Dados', 'Personalizar', 'Revisar']) await wizard.getByText(step, { exact: true }).waitFor();
    for (const [name, value] of Object.entries({
      firstName: 'Maria',
      lastName: 'Lima',
      address2: 'Rua do Pão, 7',
      city: 'Recife',
      state: 'PE',
      zipcode: '50010-000',
    })) {
      await wizard.locator(`input[name=${name}]`).fill(value);
    }
    await shot(page, '3-wizard-dados');
    await wizard.getByRole('button', { name: 'Próximo' }).click();
    const card = wizard.getByText(planName).locator('xpath=ancestor::div[contains(@class,"MuiCard-root")]');
    await card.waitFor();
    // One currency through the wizard: the Customise step prices the plan as the invoice will.
    await card.getByText('R$ 99,90', { exact: false }).waitFor();
    expect(await wizard.textContent()).not.toContain('COP$');
    await shot(page, '4-wizard-personalizar');
    await card.getByRole('button', { name: 'Escolher' }).click();
    await page.getByTestId('subscription-review').getByText('R$ 99,90', { exact: false }).waitFor();
    await shot(page, '5-wizard-revisar');
    await page.getByTestId('subscription-pay').click();

    // Assess: the PIX QR, for the charge the wizard created (with its invoice)
    const pix = page.getByTestId('pix-payment');
    await pix.waitFor({ timeout: 30_000 });
    await pix.getByText('R$ 99,90', { exact: false }).waitFor();
    const qr = pix.locator('img');
    await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    expect(await page.getByTestId('pix-code').inputValue()).toMatch(/^000201/);
    await shot(page, '6-pix-qr');

    // Act: the customer pays on the provider's page, as the README tells people to
    const provider = await page.context().newPage();
    await provider.goto(providerUrl);
    const row = provider.locator('tr', { hasText: companyName });
    await row.waitFor({ timeout: 10_000 });
    expect(await provider.locator('table').textContent()).not.toContain('undefined');
    await row.getByText('R$ 99.90').waitFor();
    await row.getByText('PENDING').waitFor();
    await shot(provider, '7-provider-page');
    await row.getByRole('button', { name: 'Pay' }).click();
    await provider.getByRole('status').getByText('the webhook answered 200').waitFor();
    await row.getByText('RECEIVED').waitFor();
    await shot(provider, '8-provider-paid');
    await provider.close();

    // Assess: the app shows the licence renewed, a month after the trial's end
    const renewedOn = ptDay(addMonths(trialEnd, 1));
    await page.getByTestId('licence-renewed').getByText(renewedOn, { exact: false }).waitFor({ timeout: 20_000 });
    await page.getByTestId('pix-payment').waitFor({ state: 'detached' });
    await page.getByTestId('trial-days').getByText(renewedOn, { exact: false }).waitFor({ timeout: 20_000 });
    await shot(page, '9-renewed');
    // ...and Finance lists the invoice paid, in the same currency.
    await page.getByTestId('menu-financeiro').click();
    await page.waitForURL('**/financeiro');
    const invoices = page.locator('[data-testid^="invoice-"]');
    await invoices.first().getByText('Pago', { exact: true }).waitFor();
    expect(await invoices.count()).toBe(1);
    await invoices.first().getByText('R$ 99,90', { exact: false }).waitFor();
    await shot(page, '10-finance-paid');
  });
});
