/**
 * The second factor in the browser (issue 21 part 2), against the local stack: a user enrols from
 * the account menu's Security section with a code computed from the secret the page shows (the QR
 * code's), sees the recovery codes once, signs out, and signs in again with a code; a company
 * requiring the factor of everyone sends its admin to enrolment after the password.
 * Screenshots go to tests/artifacts/mfa-*.png.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from 'otplib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../../infra/local/lambda-runtime.ts';
import { type Call, client, createTenant, firstPlanId, superLogin, type Tenant } from '../integration/tenants.ts';
import { type LaunchedBrowser, launchBrowser, signInPage } from '../support/browser.ts';

const artifacts = join(repoRoot, 'tests', 'artifacts');

let call: Call;
let tenant: Tenant;
let launched: LaunchedBrowser;

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  call = client(inject('apiUrl'));
  const superToken = await superLogin(call, inject('admin'));
  tenant = await createTenant(call, superToken, await firstPlanId(call), 'mfa-signin');
  launched = await launchBrowser();
});

afterAll(async () => {
  await launched?.close();
});

/** The authenticator's code `steps` 30 s steps from now. */
const codeAt = (secret: string, steps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

/** Codes are per 30 s step: do not compute one in the last seconds of its step. */
async function awayFromStepEdge(): Promise<void> {
  const intoStep = Date.now() % 30_000;
  if (intoStep > 25_000) await new Promise((resolve) => setTimeout(resolve, 30_500 - intoStep));
}

/** Reads the shown secret, types the app's current code, and answers the recovery codes shown. */
async function enrolOnPage(page: Page, shot: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  await page.getByTestId('mfa-start').click();
  await page.getByTestId('mfa-qr').waitFor({ timeout: 30_000 });
  const secret = ((await page.getByTestId('mfa-secret').textContent()) ?? '').trim();
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await page.screenshot({ path: join(artifacts, `mfa-${shot}-qr.png`) });
  await awayFromStepEdge();
  await page.getByTestId('mfa-code').fill(await codeAt(secret));
  await page.getByTestId('mfa-verify').click();
  const list = page.getByTestId('mfa-recovery-codes');
  await list.waitFor({ timeout: 30_000 });
  const recoveryCodes = (await list.locator('li').allTextContents()).map((code) => code.trim());
  await page.screenshot({ path: join(artifacts, `mfa-${shot}-recovery.png`) });
  await page.getByTestId('mfa-recovery-done').click();
  return { secret, recoveryCodes };
}

describe('two-step verification in the browser', { timeout: 240_000 }, () => {
  it('enrols from Security with a code of the shown secret, then signs in with a code', async () => {
    const context = await launched.browser.newContext({
      baseURL: inject('webUrl'),
      locale: 'pt-BR',
      viewport: { width: 1280, height: 860 },
    });
    const page = await context.newPage();
    await page.goto('/login');
    await page.locator('input[name=email]').waitFor({ timeout: 90_000 });
    await signInPage(page, tenant.user.email, tenant.user.password);
    await page.getByTestId('account-button').waitFor({ timeout: 30_000 });

    // Enrol from the account menu.
    await page.getByTestId('account-button').click();
    await page.getByTestId('menu-security').click();
    await page.getByRole('dialog').getByText('Verificação em duas etapas', { exact: false }).first().waitFor();
    const { secret, recoveryCodes } = await enrolOnPage(page, 'profile');
    expect(recoveryCodes).toHaveLength(10);
    await page.getByTestId('mfa-on').waitFor();
    await page.screenshot({ path: join(artifacts, 'mfa-profile-on.png') });
    await page.keyboard.press('Escape');

    // Sign out; the password alone now leads to the code step, and nothing opens without it.
    await page.getByTestId('account-button').click();
    await page.getByTestId('menu-logout').click();
    await page.waitForURL('**/login');
    // A fresh page: the form the sign-out left may still re-render under the fields being filled.
    await page.goto('/login');
    await page.locator('input[name=email]').waitFor();
    await page.fill('input[name=email]', tenant.user.email);
    await page.fill('input[name=password]', tenant.user.password);
    await page.click('button[type=submit]');
    const codeField = page.getByTestId('mfa-signin-code');
    await codeField.waitFor({ timeout: 30_000 });
    await page.screenshot({ path: join(artifacts, 'mfa-signin-code.png') });
    expect(page.url()).toContain('/login');

    // A wrong code stays on the step with the message; the right one opens the inbox.
    await codeField.fill('000000');
    await page.getByTestId('mfa-signin-submit').click();
    await page.getByText('Código incorreto ou já usado.').waitFor();
    await awayFromStepEdge();
    // The enrolment spent the current step: the authenticator's next code.
    await codeField.fill(await codeAt(secret, 1));
    await page.getByTestId('mfa-signin-submit').click();
    await page.waitForURL('**/tickets', { timeout: 30_000 });
    await page.getByTestId('account-button').waitFor({ timeout: 30_000 });
    await page.screenshot({ path: join(artifacts, 'mfa-signin-done.png') });
    await context.close();
  });

  it('sends the admin of a company requiring the factor of everyone to enrolment after the password', async () => {
    const set = await call('PUT', '/settings/mfaRequired', { token: tenant.admin.token, body: { value: 'everyone' } });
    expect(set.status).toBe(200);
    const context = await launched.browser.newContext({
      baseURL: inject('webUrl'),
      locale: 'en-US',
      viewport: { width: 1280, height: 860 },
    });
    const page = await context.newPage();
    await page.goto('/login');
    await page.locator('input[name=email]').waitFor({ timeout: 90_000 });
    await signInPage(page, tenant.admin.email, tenant.admin.password);
    const gate = page.getByTestId('mfa-enrolment-required');
    await gate.waitFor({ timeout: 30_000 });
    expect(await gate.textContent()).toContain('Two-step verification required');
    await page.screenshot({ path: join(artifacts, 'mfa-required-gate.png') });
    await enrolOnPage(page, 'required');
    // Enrolled: the app itself.
    await page.getByTestId('account-button').waitFor({ timeout: 30_000 });
    expect(await gate.count()).toBe(0);
    await page.screenshot({ path: join(artifacts, 'mfa-required-done.png') });
    await context.close();
  });
});
