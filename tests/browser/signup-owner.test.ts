/**
 * Issue 25 (journeys, sign-up) in headless Chromium over the local stack. A person signs a new company
 * up: pressing Cadastrar on the empty form marks every field "Obrigatório", and each mark goes away as
 * soon as its field is filled (before, the marks stayed until the next press). The form asks for the
 * person's own name, and once in, the top bar greets that person, not the company: before, the first
 * admin was named after the company ("Olá Padaria ..., seja bem-vindo a Padaria ..."), and so were their
 * signatures and "Assigned to". Screenshots: tests/artifacts/signup-owner-*.png.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../../infra/local/lambda-runtime.ts';
import { client, superLogin } from '../integration/tenants.ts';
import { type LaunchedBrowser, launchBrowser } from '../support/browser.ts';

const artifacts = join(repoRoot, 'tests', 'artifacts');
const shot = (page: Page, name: string) => page.screenshot({ path: join(artifacts, `signup-owner-${name}.png`), fullPage: true });

const stamp = Date.now();
const planName = `Plano Dona ${stamp}`;
const companyName = `Mercearia ${stamp}`;
const ownerName = 'Joana Prado';
const email = `joana-${stamp}@mercearia.test`;
const password = 'Mercearia-1';

let launched: LaunchedBrowser;
let page: Page;

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  const call = client(inject('apiUrl'));
  const superToken = await superLogin(call, inject('admin'));
  const plan = await call('POST', '/plans', {
    token: superToken,
    body: { name: planName, value: 49.9, users: 3, connections: 1, queues: 2 },
  });
  expect(plan.status, plan.text).toBeLessThan(300);
  launched = await launchBrowser();
  const context = await launched.browser.newContext({
    baseURL: inject('webUrl'),
    locale: 'pt-BR',
    colorScheme: 'light',
    viewport: { width: 1366, height: 860 },
  });
  page = await context.newPage();
});

afterAll(async () => {
  await launched?.close();
});

/** The "Obrigatório" marks under the fields, as a person reads them. */
const requiredMarks = () => page.locator('.MuiFormHelperText-root', { hasText: 'Obrigatório' }).count();

describe('signing a company up', { timeout: 240_000 }, () => {
  it("clears each field's Obrigatório once filled, and greets the owner by their own name", async () => {
    // Prepare: the sign-up screen, pressed once while empty
    await page.goto('/signup');
    // The first lazy load of a fresh build can take a while on a busy machine.
    await page.getByLabel('Nome da empresa').waitFor({ timeout: 90_000 });
    await page.getByRole('button', { name: 'Cadastrar' }).click();
    await expect.poll(requiredMarks).toBeGreaterThanOrEqual(4);
    const before = await requiredMarks();
    await shot(page, '1-empty');

    // Act + Assess: each filled field loses its mark at once, with no second press
    await page.getByLabel('Nome da empresa').fill(companyName);
    await expect.poll(requiredMarks).toBe(before - 1);
    await page.getByLabel('Seu nome').fill(ownerName);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Telefone').fill('11987654321');
    await page.getByLabel('Senha', { exact: true }).fill(password);
    await page.getByLabel('Plano').click();
    await page.getByRole('option', { name: planName }).click();
    await page.locator('.MuiPopover-root').waitFor({ state: 'detached' });
    await expect.poll(requiredMarks).toBe(0);
    await shot(page, '2-filled');

    // Act: sign up (the page signs the new admin in)
    await page.getByRole('button', { name: 'Cadastrar' }).click();
    await page.waitForURL('**/tickets', { timeout: 30_000 });

    // Assess: the top bar greets the person, and the company stays the company
    const greeting = page.getByTestId('greeting');
    await greeting.waitFor({ timeout: 30_000 });
    await expect.poll(() => greeting.textContent()).toContain(`Olá ${ownerName},`);
    expect(await greeting.textContent()).toContain(companyName);
    expect(await greeting.textContent()).not.toContain(`Olá ${companyName}`);
    await shot(page, '3-greeting');
  });
});
