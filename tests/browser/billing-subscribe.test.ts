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
import { addDays, addMonths, todayIso } from '@conversa/functions/domain/companies/due-date';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { offerPlan } from '../support/api.ts';
import {
  fillSignUp,
  type LaunchedBrowser,
  launchBrowser,
  newOwner,
  openPage,
  openSignUp,
  payOnProviderPage,
  ptDay,
  screenshots,
  submitSignUp,
  subscribeToPix,
} from '../support/browser.ts';

const shot = screenshots('subscribe');

const owner = newOwner('Padaria', 'Maria Lima');
const { planName, companyName } = owner;

let launched: LaunchedBrowser;
let page: Page;
let providerUrl: string;

beforeAll(async () => {
  providerUrl = (inject('env').ASAAS_BASE_URL as string).replace(/\/v3$/, '');
  // The platform offers a priced plan on the signup screen.
  await offerPlan(planName, 99.9);
  launched = await launchBrowser();
  page = await openPage(launched, { baseURL: inject('webUrl') });
});

afterAll(async () => {
  await launched?.close();
});

describe('a trial company pays on its first day', { timeout: 240_000 }, () => {
  it('signs up, subscribes from the Subscription menu entry, pays the PIX charge on the provider page and is renewed', async () => {
    // Act: sign up on the signup screen
    await openSignUp(page);
    await fillSignUp(page, owner);
    // The chosen plan's price in the one currency, not COP$.
    expect(await page.getByLabel('Plano').textContent()).toMatch(/R\$\s99,90\/mês$/);
    await shot(page, '1-signup');
    await submitSignUp(page);

    // Act: day one, Subscription from the side menu
    await page.getByTestId('menu-subscription').click();
    await page.waitForURL('**/subscription');
    const trialEnd = addDays(todayIso(), 3);
    await page.getByTestId('trial-days').getByText(ptDay(trialEnd), { exact: false }).waitFor();
    await shot(page, '2-subscription');

    // Act: Subscribe now opens the wizard (Dados, Personalizar, Revisar), then the PIX QR of the
    // charge it created, priced in the one currency throughout
    const pixCode = await subscribeToPix(page, {
      planName,
      amount: 'R$ 99,90',
      address: { firstName: 'Maria', lastName: 'Lima', address2: 'Rua do Pão, 7', city: 'Recife', state: 'PE', zipcode: '50010-000' },
      shot,
    });
    expect(pixCode).toMatch(/^000201/);

    // Act: the customer pays on the provider's page, as the README tells people to
    await payOnProviderPage(page, providerUrl, { companyName, amount: 'R$ 99.90', shot });

    // Assess: the app shows the licence renewed, a month after the trial's end
    const renewedOn = ptDay(addMonths(trialEnd, 1));
    await page.getByTestId('licence-renewed').getByText(renewedOn, { exact: false }).waitFor({ timeout: 20_000 });
    await page.getByTestId('pix-payment').waitFor({ state: 'detached' });
    await page.getByTestId('trial-days').getByText(renewedOn, { exact: false }).waitFor({ timeout: 20_000 });
    // Just paid: no second offer to subscribe under the renewed licence.
    expect(await page.getByTestId('subscribe-now').count()).toBe(0);
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
