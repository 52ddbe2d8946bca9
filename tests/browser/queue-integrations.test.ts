/**
 * The /queue-integration page in headless Chromium over the local stack (SPEC 2 "Queue
 * integrations", 5; issue 13): a webhook integration is added and its signing key shows at once,
 * read-only; Typebot's fields come with the type and a bad URL is refused; Dialogflow's Test button
 * asks the local fake through testSession (with the credentials the fake hands out) and toasts its
 * answer; the table shows each type's mark; the queue dialog's integration select saves the choice.
 * Screenshots at 1440 and 390 px go to tests/artifacts/.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../../infra/local/lambda-runtime.ts';
import { client, createTenant, firstPlanId, superLogin, type Tenant } from '../integration/tenants.ts';
import { launchBrowser } from '../support/browser.ts';

const artifacts = join(repoRoot, 'tests', 'artifacts');
const shot = (page: Page, name: string) => page.screenshot({ path: join(artifacts, `queue-integrations-${name}.png`) });

let tenant: Tenant;
let browser: Browser;
let context: BrowserContext;
let page: Page;

const dialog = () => page.getByTestId('queue-integration-dialog');
const pickType = async (label: string) => {
  await dialog().getByRole('combobox', { name: 'Tipo' }).click();
  await page.getByRole('option', { name: label }).click();
};

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  const call = client(inject('apiUrl'));
  const superToken = await superLogin(call, inject('admin'));
  tenant = await createTenant(call, superToken, await firstPlanId(call), 'integrations-web');
  browser = (await launchBrowser()).browser;
  context = await browser.newContext({
    baseURL: inject('webUrl'),
    locale: 'pt-BR',
    colorScheme: 'light',
    viewport: { width: 1440, height: 900 },
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  page = await context.newPage();
  // A loaded CI machine (2 cores, a stack and a browser) may take longer than playwright's 30 s default.
  page.setDefaultTimeout(60_000);
  await page.goto('/login');
  await page.fill('input[name=email]', tenant.admin.email);
  await page.fill('input[name=password]', tenant.admin.password);
  await page.click('button[type=submit]');
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
});

afterAll(async () => {
  await context?.close();
  await browser?.close().catch(() => undefined);
});

describe('queue integrations page', { timeout: 180_000 }, () => {
  it('adds a webhook integration and shows its signing key at once, read-only, with copy', async () => {
    await page.goto('/queue-integration');
    await page.getByRole('heading', { name: 'Integrações' }).waitFor();
    await page.getByRole('button', { name: 'Adicionar integração' }).click();
    await pickType('Webhook');
    await dialog().locator('input[name=name]').fill('Atendimento n8n');
    await dialog().locator('input[name=urlN8N]').fill('ftp://errado.example');
    await dialog().getByRole('button', { name: 'Adicionar' }).click();
    await dialog().getByText('Informe uma URL http ou https válida').waitFor();
    await dialog()
      .locator('input[name=urlN8N]')
      .fill(`${inject('botFakesUrl')}/webhook/echo`);
    await dialog().getByRole('button', { name: 'Adicionar' }).click();
    await page.getByText('Integração salva.').first().waitFor();
    const secret = dialog().getByTestId('signing-secret');
    await secret.waitFor();
    expect(await secret.inputValue()).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(await secret.getAttribute('readonly')).not.toBeNull();
    await dialog().getByRole('button', { name: 'Copiar' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await secret.inputValue());
    await shot(page, '1440-webhook-dialog');
    await dialog().getByRole('button', { name: 'Fechar' }).click();
    const row = page.getByTestId('queue-integrations-table').getByRole('row', { name: /Atendimento n8n/ });
    await row.getByTestId('integration-logo-webhook').waitFor();
  });

  it("shows Typebot's own fields with the spec's defaults", async () => {
    await page.getByRole('button', { name: 'Adicionar integração' }).click();
    await pickType('Typebot');
    expect(await dialog().locator('input[name=typebotExpires]').inputValue()).toBe('1');
    expect(await dialog().locator('input[name=typebotDelayMessage]').inputValue()).toBe('1000');
    await dialog().locator('input[name=name]').fill('Boas-vindas');
    await dialog()
      .locator('input[name=urlN8N]')
      .fill(`${inject('botFakesUrl')}/typebot`);
    await dialog().getByRole('button', { name: 'Adicionar' }).click();
    await dialog().getByText('Required').or(dialog().getByText('Obrigatório')).first().waitFor();
    await dialog().locator('input[name=typebotSlug]').fill('tres-bolhas');
    await dialog().locator('input[name=typebotKeywordRestart]').fill('#reiniciar');
    await dialog().locator('textarea[name=typebotUnknownMessage]').fill('Não entendi, escolha uma opção.');
    await shot(page, '1440-typebot-dialog');
    await dialog().getByRole('button', { name: 'Adicionar' }).click();
    await dialog().waitFor({ state: 'hidden' });
    await page
      .getByTestId('queue-integrations-table')
      .getByRole('row', { name: /Boas-vindas/ })
      .getByTestId('integration-logo-typebot')
      .waitFor();
  });

  it("tests a Dialogflow agent through testSession and toasts the agent's answer", async () => {
    const credentials = await (await fetch(`${inject('botFakesUrl')}/dialogflow/credentials?project=atendimento`)).text();
    await page.getByRole('button', { name: 'Adicionar integração' }).click();
    await pickType('Dialogflow');
    await dialog().locator('input[name=name]').fill('Agente');
    // A Google Cloud project id, unlike the other types' names: no spaces, said in the user's language.
    await dialog().locator('input[name=projectName]').fill('Bot Vendas');
    await dialog().getByRole('button', { name: 'Adicionar' }).click();
    await dialog().getByText('Apenas letras, números, - _ e .').waitFor();
    await dialog().locator('input[name=projectName]').fill('atendimento');
    await dialog().locator('textarea[name=jsonContent]').fill('{"not": "an account"}');
    await dialog().getByRole('button', { name: 'Adicionar' }).click();
    await dialog().getByText('Não é um JSON de conta de serviço válido', { exact: false }).waitFor();
    await dialog().locator('textarea[name=jsonContent]').fill(credentials);
    await dialog().getByTestId('integration-test').click();
    const outcome = page.getByText(/O Dialogflow respondeu|O teste falhou/).first();
    await outcome.waitFor({ timeout: 60_000 });
    await shot(page, '1440-dialogflow-test');
    expect(await outcome.textContent()).toBe('O Dialogflow respondeu: Dialogflow: Olá');
    await dialog().getByRole('button', { name: 'Adicionar' }).click();
    await dialog().waitFor({ state: 'hidden' });
    await page
      .getByTestId('queue-integrations-table')
      .getByRole('row', { name: /Agente/ })
      .getByTestId('integration-logo-dialogflow')
      .waitFor();
    await shot(page, '1440-page');
  });

  it('lets the queue dialog hand the queue to an integration, and keeps it on the next save', async () => {
    await page.goto('/queues');
    await page.getByRole('button', { name: /Adicionar fila/i }).click();
    await page.getByRole('dialog').getByLabel('Nome').first().fill('Robô');
    await page.getByRole('dialog').getByRole('combobox', { name: 'Integração' }).click();
    await page.getByRole('option', { name: 'Boas-vindas' }).click();
    await shot(page, '1440-queue-dialog');
    await page.getByRole('dialog').getByRole('button', { name: 'Salvar' }).click();
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await page
      .getByRole('row', { name: /Robô/ })
      .getByRole('button', { name: /Editar/i })
      .click();
    await expect.poll(() => page.getByRole('dialog').getByRole('combobox', { name: 'Integração' }).textContent()).toContain('Boas-vindas');
  });

  it('fits a phone (390 px)', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/queue-integration');
    await page
      .getByRole('heading', { name: 'Integrações' })
      .waitFor()
      .finally(() => shot(page, '390-page'));
    await page.getByTestId('queue-integrations-table').getByText('Agente').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.getByRole('button', { name: 'Adicionar integração' }).click();
    await pickType('Typebot');
    await shot(page, '390-typebot-dialog');
  });
});
