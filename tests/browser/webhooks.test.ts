/**
 * The Webhooks page in headless Chromium over the local stack (issue 23 §2): an admin adds an
 * endpoint (a bad URL is refused on its field first), sees its secret once and copies it, sends a
 * test event that reaches a receiver on 127.0.0.1 signed with that secret, reads the delivery log
 * and resends from it (same delivery id), and switches the endpoint off. Screenshots at 1440 and
 * 390 px in tests/artifacts/webhooks-*.png.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { client, createTenant, firstPlanId, superLogin, type Tenant } from '../integration/tenants.ts';
import { waitUntil } from '../integration/whatsapp-kit.ts';
import { type LaunchedBrowser, launchBrowser, openPage, screenshots, signInPage } from '../support/browser.ts';

const shot = screenshots('webhooks');
let launched: LaunchedBrowser;
let page: Page;
let tenant: Tenant;
let receiver: Server;
let receiverUrl: string;
const hits: { headers: IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      hits.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/conversa`;
  const call = client(inject('apiUrl'));
  tenant = await createTenant(call, await superLogin(call, inject('admin')), await firstPlanId(call), 'webhooks-web');
  launched = await launchBrowser();
  page = await openPage(launched, { baseURL: inject('webUrl'), viewport: { width: 1440, height: 900 } });
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await signInPage(page, tenant.admin.email, tenant.admin.password);
}, 180_000);

afterAll(async () => {
  receiver?.close();
  await launched?.close();
});

describe('webhooks page', { timeout: 240_000 }, () => {
  it('adds an endpoint, shows its secret once, sends a signed test event, logs and resends it, switches it off', async () => {
    await page.goto('/webhooks');
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    await page.getByRole('button', { name: 'Adicionar endpoint' }).click();
    const dialog = page.getByTestId('webhook-dialog');
    await dialog.locator('input[name=url]').fill('ftp://loja.example/hook');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await dialog.getByText('Informe uma URL http ou https válida').waitFor();
    await dialog.locator('input[name=url]').fill(receiverUrl);
    await dialog.locator('input[name=description]').fill('Loja virtual');
    await dialog.getByLabel('Contato criado (contact.created)').check();
    await shot(page, '1440-dialog');
    await dialog.getByRole('button', { name: 'Salvar' }).click();

    const secretDialog = page.getByTestId('webhook-secret-dialog');
    const secretField = secretDialog.getByTestId('webhook-secret');
    await secretField.waitFor();
    const secret = await secretField.inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    await secretDialog.getByRole('button', { name: 'Copiar' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await shot(page, '1440-secret');
    await secretDialog.getByRole('button', { name: 'Pronto, copiei' }).click();

    const row = page.getByTestId('webhooks-table').getByRole('row', { name: /Loja virtual/ });
    await row.getByText(receiverUrl).waitFor();
    expect(await page.getByText(secret).count()).toBe(0);
    await row.getByRole('button', { name: 'Enviar evento de teste' }).click();
    await page.getByText('Evento de teste enviado', { exact: false }).first().waitFor();
    const ping = await waitUntil('the test event at the receiver', async () => hits[0]);
    expect(ping.headers['x-conversa-event']).toBe('ping');
    const [t, v1] = String(ping.headers['x-conversa-signature'])
      .split(',')
      .map((part) => part.split('=')[1]);
    expect(v1).toBe(createHmac('sha256', secret).update(`${t}.${ping.body}`).digest('hex'));

    await row.getByRole('button', { name: 'Registro de entregas' }).click();
    const log = page.getByTestId('webhook-deliveries-dialog');
    const entry = log.getByTestId(`delivery-${ping.headers['x-conversa-delivery']}`);
    await waitUntil('the log shows the delivery', async () => {
      await log.getByRole('button', { name: 'Atualizar' }).click();
      return (await entry.getByText('Entregue').count()) > 0;
    });
    await shot(page, '1440-log');
    await entry.getByRole('button', { name: 'Reenviar' }).click();
    await waitUntil('the resent delivery at the receiver', async () => hits.length >= 2);
    expect(hits[1]?.headers['x-conversa-delivery']).toBe(ping.headers['x-conversa-delivery']);
    await log.getByRole('button', { name: 'Fechar' }).click();

    await page
      .getByTestId(`webhook-enabled-${JSON.parse(ping.body).data.webhookId}`)
      .locator('input')
      .click();
    await page.getByText('Endpoint desativado.').first().waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('webhook-docs').waitFor();
    // The layout follows the resize over a frame or two (the switch's toast is still on screen): it must fit then.
    await page
      .waitForFunction(() => document.documentElement.scrollWidth <= window.innerWidth + 1, undefined, { timeout: 5_000 })
      .catch(() => undefined);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
    // The URL stays readable on a phone: its cell is not squeezed to a letter a line by the actions.
    expect((await page.locator('tbody tr td').first().boundingBox())?.width ?? 0).toBeGreaterThanOrEqual(140);
    await shot(page, '390-page');
  });
});
