/**
 * The Kanban of someone in no queue (issue 25 item 5) in headless Chromium: a plain user without
 * queues gets an empty board by design, and the screen now says why and opens their profile (their
 * queues) in pt, en and es; the admin, whose board is the company's, gets no such notice.
 * Screenshots go to tests/artifacts/kanban-no-queues-*.png.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { client, createTenant, firstPlanId, superLogin, type Tenant } from '../integration/tenants.ts';
import { type LaunchedBrowser, launchBrowser, openPage, screenshots, signInPage } from '../support/browser.ts';

const shot = screenshots('kanban-no-queues');

let tenant: Tenant;
let launched: LaunchedBrowser;

beforeAll(async () => {
  const call = client(inject('apiUrl'));
  const superToken = await superLogin(call, inject('admin'));
  // createTenant's plain user is in no queue, as a user added without choosing any.
  tenant = await createTenant(call, superToken, await firstPlanId(call), 'kanban-no-queues');
  launched = await launchBrowser();
});

afterAll(async () => {
  await launched?.close();
});

const notices = [
  { locale: 'pt-BR', text: 'Você não está em nenhuma fila', button: 'Ver minhas filas' },
  { locale: 'en-US', text: 'You are in no queue', button: 'See my queues' },
  { locale: 'es-ES', text: 'No está en ninguna cola', button: 'Ver mis colas' },
];

describe('the Kanban of someone in no queue', { timeout: 180_000 }, () => {
  for (const { locale, text, button } of notices) {
    it(`says why the board is empty and opens the profile (${locale})`, async () => {
      const page = await openPage(launched, { baseURL: inject('webUrl'), locale });
      await signInPage(page, tenant.user.email, tenant.user.password);
      await page.goto('/kanban');
      const notice = page.getByTestId('kanban-no-queues');
      await notice.waitFor({ timeout: 30_000 });
      expect(await notice.textContent()).toContain(text);
      await shot(page, locale);
      await notice.getByRole('button', { name: button }).click();
      await page.getByRole('dialog').waitFor();
      await page.context().close();
    });
  }

  it("shows the admin, whose board is the company's, no such notice", async () => {
    const page = await openPage(launched, { baseURL: inject('webUrl') });
    await signInPage(page, tenant.admin.email, tenant.admin.password);
    await page.goto('/kanban');
    await page.getByTestId('kanban-lane-0').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('kanban-no-queues').count()).toBe(0);
    await page.context().close();
  });
});
