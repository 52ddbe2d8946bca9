/**
 * The super admin's inline forms under Settings (plans, companies, help videos) in headless Chromium:
 * what was added lands in its table and the form is empty again, so nothing of one record is left
 * for the next (a company's admin password least of all); "Limpar" empties a form being filled, not
 * only one being edited. Screenshots go to tests/artifacts/settings-forms-*.png.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type LaunchedBrowser, launchBrowser, openPage, screenshots, signInPage } from '../support/browser.ts';

const shot = screenshots('settings-forms');

let launched: LaunchedBrowser;

beforeAll(async () => {
  launched = await launchBrowser();
});

afterAll(async () => {
  await launched?.close();
});

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

async function openTab(page: Page, tab: string) {
  await page.getByTestId(`settings-tab-${tab}`).click();
  await page.getByRole('button', { name: 'Adicionar' }).waitFor();
}

describe("the super admin's settings forms", { timeout: 240_000 }, () => {
  it('adds a plan, a company and a help video, each form empty again after; Limpar empties a form being filled', async () => {
    const page = await openPage(launched, { baseURL: inject('webUrl') });
    await signInPage(page, inject('admin').email, inject('admin').password);
    await page.goto('/settings');
    const suffix = Date.now().toString(36);

    // A plan
    await openTab(page, 'plans');
    const planName = `Plano ${suffix}`;
    await field(page, 'Nome').fill(planName);
    await field(page, 'Usuários').fill('7');
    await page.getByRole('button', { name: 'Adicionar' }).click();
    await page.locator('tbody').getByText(planName, { exact: true }).waitFor();
    await expect.poll(() => field(page, 'Nome').inputValue()).toBe('');
    expect(await field(page, 'Usuários').inputValue()).toBe('0');
    await field(page, 'Nome').fill('rascunho');
    await page.getByRole('button', { name: 'Limpar' }).click();
    await expect.poll(() => field(page, 'Nome').inputValue()).toBe('');
    await shot(page, 'plans');

    // A company, with its first admin's password
    await openTab(page, 'companies');
    const companyName = `Empresa ${suffix}`;
    await field(page, 'Nome').fill(companyName);
    await field(page, 'E-mail').fill(`forms-${suffix}@example.com`);
    await field(page, 'Plano').click();
    await page.getByRole('option', { name: planName }).click();
    await field(page, 'Senha do administrador').fill('Forms-Admin-pass1');
    await page.getByRole('button', { name: 'Adicionar' }).click();
    await page.locator('tbody').getByText(companyName, { exact: true }).waitFor({ timeout: 30_000 });
    await expect.poll(() => field(page, 'Nome').inputValue()).toBe('');
    expect(await field(page, 'E-mail').inputValue()).toBe('');
    expect(await field(page, 'Senha do administrador').inputValue()).toBe('');
    await shot(page, 'companies');

    // A help video: Limpar while adding
    await openTab(page, 'helps');
    await field(page, 'Título').fill('rascunho');
    await field(page, 'Código do vídeo').fill('abc');
    await page.getByRole('button', { name: 'Limpar' }).click();
    await expect.poll(() => field(page, 'Título').inputValue()).toBe('');
    expect(await field(page, 'Código do vídeo').inputValue()).toBe('');
    const helpTitle = `Ajuda ${suffix}`;
    await field(page, 'Título').fill(helpTitle);
    await field(page, 'Código do vídeo').fill('dQw4w9WgXcQ');
    await page.getByRole('button', { name: 'Adicionar' }).click();
    await page.locator('tbody').getByText(helpTitle, { exact: true }).waitFor();
    await expect.poll(() => field(page, 'Título').inputValue()).toBe('');
    await shot(page, 'helps');
    await page.context().close();
  });
});
