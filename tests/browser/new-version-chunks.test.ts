/**
 * A tab left open across a new version of the web app (issue 25, met while walking the first day):
 * each screen is its own file, named by its content, and a deploy replaces them. Before, the next
 * screen a person opened in that tab showed "Unexpected Application Error! Failed to fetch
 * dynamically imported module" and nothing else until they reloaded by hand. Now the app reloads
 * itself once and opens the screen from the new version. The deploy is played by answering the
 * Connections screen's file 404 once, as a server that no longer has it does. Screenshot:
 * tests/artifacts/new-version-*.png.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { client, createTenant, firstPlanId, superLogin, type Tenant } from '../integration/tenants.ts';
import { type LaunchedBrowser, launchBrowser, openPage, screenshots, signInPage } from '../support/browser.ts';

const shot = screenshots('new-version');

let tenant: Tenant;
let launched: LaunchedBrowser;

beforeAll(async () => {
  const call = client(inject('apiUrl'));
  tenant = await createTenant(call, await superLogin(call, inject('admin')), await firstPlanId(call), 'new-version');
  launched = await launchBrowser();
});

afterAll(async () => {
  await launched?.close();
});

describe('a tab open across a new version', { timeout: 180_000 }, () => {
  it("opens the next screen after the old screen's file is gone, instead of an error page", async () => {
    const page = await openPage(launched, { baseURL: inject('webUrl') });
    await signInPage(page, tenant.admin.email, tenant.admin.password);
    // The deploy: the Connections screen's file of the version this tab loaded is gone (once).
    let gone = 0;
    await page.route(/\/assets\/connections-page-[^/]+\.js$/, async (route) => {
      if (gone++ > 0) return route.continue();
      await route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not Found' });
    });

    await page.getByTestId('menu-connections').click();

    await page
      .getByRole('heading', { name: 'Conexões' })
      .waitFor({ timeout: 60_000 })
      .catch(async (error) => {
        await shot(page, 'failed');
        throw error;
      });
    expect(gone).toBeGreaterThanOrEqual(2);
    expect(await page.getByText('Unexpected Application Error').count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/connections');
    await shot(page, 'connections');
  });
});
