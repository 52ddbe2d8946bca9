/**
 * Where the app's toasts appear, in headless Chromium (issue 25, "toasts never cover the page's main
 * button"): an admin's save is refused with a toast while the queue dialog is open; the toast must
 * not lie over the dialog's Save nor over the list page's Add button at the top right, on a desktop
 * and on a phone. Three refusals in a row show three toasts at once on a wide screen and the newest
 * alone on a phone (a new one never waits behind the last). Screenshots go to tests/artifacts/toast-placement-*.png.
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

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  const call = client(inject('apiUrl'));
  const superToken = await superLogin(call, inject('admin'));
  tenant = await createTenant(call, superToken, await firstPlanId(call), 'toast-placement');
  // Its colour, typed into the dialog for another queue, is refused with a toast.
  const made = await call('POST', '/queue', { token: tenant.admin.token, body: { name: 'Vendas', color: '#B80000' } });
  if (made.status >= 300) throw new Error(`create queue: ${made.status} ${made.text}`);
  launched = await launchBrowser();
});

afterAll(async () => {
  await launched?.close();
});

const viewports = [
  { name: '1440', width: 1440, height: 900 },
  { name: '1024', width: 1024, height: 700 },
  { name: '390', width: 390, height: 844 },
];

describe("the app's toasts", { timeout: 180_000 }, () => {
  for (const { name, width, height } of viewports) {
    it(`never cover the dialog's Save nor the page's Add button (${name} px)`, async () => {
      const context = await launched.browser.newContext({ baseURL: inject('webUrl'), locale: 'pt-BR', viewport: { width, height } });
      const page = await context.newPage();
      page.setDefaultTimeout(60_000);
      await page.goto('/login');
      await page.locator('input[name=email]').waitFor({ timeout: 90_000 });
      await signInPage(page, tenant.admin.email, tenant.admin.password);
      await page.goto('/queues');
      const add = page.getByRole('button', { name: 'Adicionar fila' });
      // Measured before the dialog hides the page from the accessibility tree; the dialog does not move it.
      const addBox = await add.boundingBox();
      await add.click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('textbox', { name: 'Nome' }).fill(`Suporte ${name}`);
      // Vendas' colour: the dialog proposes a free one (a2fd02d), so it is typed in to be refused.
      await dialog.getByRole('textbox', { name: 'Cor' }).fill('#B80000');
      const save = dialog.getByRole('button', { name: 'Salvar' });
      await save.click();
      const toasts = page.getByTestId('toast').filter({ hasText: 'Esta cor já está em uso' });
      await toasts.first().waitFor();
      // Two more refusals at once: each answer shows at once, not queued 3 s behind the last; stacked
      // three high on a wide screen, the newest alone on a phone (three would cover the form).
      await save.click();
      await save.click();
      await expect.poll(() => toasts.count(), { timeout: 2_500 }).toBe(width < 600 ? 1 : 3);
      // The toasts grow in: measure where they come to rest.
      await page.waitForTimeout(400);
      await page.screenshot({ path: join(artifacts, `toast-placement-${name}.png`) });
      const saveBox = await save.boundingBox();
      for (const toast of await toasts.all()) {
        const toastBox = await toast.boundingBox();
        expect(toastBox).not.toBeNull();
        expect(overlaps(toastBox!, saveBox!), `toast ${JSON.stringify(toastBox)} over Save ${JSON.stringify(saveBox)}`).toBe(false);
        expect(overlaps(toastBox!, addBox!), `toast ${JSON.stringify(toastBox)} over Add ${JSON.stringify(addBox)}`).toBe(false);
      }
      await context.close();
    });
  }
});
