/**
 * The queue dialog's chatbot options in headless Chromium (issue 25, "a queue's chatbot option has no
 * room for its message"): an admin adds an option to a saved queue, types its title and its message,
 * and sees both: the message field has a real width and shows what was typed, on a desktop and on a
 * phone. Screenshots go to tests/artifacts/queue-options-*.png.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../../infra/local/lambda-runtime.ts';
import { client, createTenant, firstPlanId, superLogin, type Tenant } from '../integration/tenants.ts';
import { type LaunchedBrowser, launchBrowser, signInPage } from '../support/browser.ts';

const artifacts = join(repoRoot, 'tests', 'artifacts');

let tenant: Tenant;
let launched: LaunchedBrowser;

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  const call = client(inject('apiUrl'));
  const superToken = await superLogin(call, inject('admin'));
  tenant = await createTenant(call, superToken, await firstPlanId(call), 'queue-options');
  for (const [name, color] of [
    ['Vendas', '#1976d2'],
    ['Suporte', '#388e3c'],
  ]) {
    const made = await call('POST', '/queue', { token: tenant.admin.token, body: { name, color, greetingMessage: 'Olá' } });
    if (made.status >= 300) throw new Error(`create queue: ${made.status} ${made.text}`);
  }
  launched = await launchBrowser();
});

afterAll(async () => {
  await launched?.close();
});

const viewports = [
  { name: '1440', width: 1440, height: 900, queue: 'Vendas' },
  { name: '390', width: 390, height: 844, queue: 'Suporte' },
];

describe("the queue dialog's chatbot options", { timeout: 180_000 }, () => {
  for (const { name, width, height, queue } of viewports) {
    it(`gives an option's message room to be read (${name} px)`, async () => {
      const context = await launched.browser.newContext({ baseURL: inject('webUrl'), locale: 'pt-BR', viewport: { width, height } });
      const page = await context.newPage();
      page.setDefaultTimeout(60_000);
      await page.goto('/login');
      await page.locator('input[name=email]').waitFor({ timeout: 90_000 });
      await signInPage(page, tenant.admin.email, tenant.admin.password);
      await page.goto('/queues');
      await page
        .getByRole('row', { name: new RegExp(queue) })
        .getByRole('button', { name: 'Editar' })
        .click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Adicionar opção' }).click();
      const title = dialog.getByRole('textbox', { name: 'Título' });
      const message = dialog.getByRole('textbox', { name: 'Mensagem', exact: true });
      await title.waitFor();
      await title.fill('Financeiro');
      await message.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(artifacts, `queue-options-${name}-before-typing.png`) });
      const box = await message.boundingBox();
      const titleBox = await title.boundingBox();
      // Room for a sentence, about as wide as the title's field (a text area's own padding aside), not a sliver beside it.
      expect(box?.width ?? 0, 'the message field has a real width').toBeGreaterThan(Math.max(140, (titleBox?.width ?? 0) * 0.8));

      const typed = 'Escolha 1 para boletos ou 2 para falar com o financeiro';
      await message.click({ timeout: 5_000 });
      await page.keyboard.type(typed);
      await page.screenshot({ path: join(artifacts, `queue-options-${name}.png`) });
      expect(await message.inputValue()).toBe(typed);
      // The typed words are on screen: the text area shows them, it is not clipped to nothing.
      expect(await message.isVisible()).toBe(true);
      expect(await message.evaluate((el) => (el as HTMLTextAreaElement).clientWidth)).toBeGreaterThan(140);
      await context.close();
    });
  }
});
