/**
 * Issue 25 (journeys, sign-up) in headless Chromium over the local stack. A person signs a new company
 * up: pressing Cadastrar on the empty form marks every field "Obrigatório", and each mark goes away as
 * soon as its field is filled (before, the marks stayed until the next press). The form asks for the
 * person's own name, and once in, the top bar greets that person, not the company: before, the first
 * admin was named after the company ("Olá Padaria ..., seja bem-vindo a Padaria ..."), and so were their
 * signatures and "Assigned to". Screenshots: tests/artifacts/signup-owner-*.png.
 */
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
  screenshots,
  submitSignUp,
} from '../support/browser.ts';

const shot = screenshots('signup-owner');

const owner = newOwner('Mercearia', 'Joana Prado');
const { companyName, ownerName } = owner;

let launched: LaunchedBrowser;
let page: Page;

beforeAll(async () => {
  await offerPlan(owner.planName, 49.9);
  launched = await launchBrowser();
  page = await openPage(launched, { baseURL: inject('webUrl') });
});

afterAll(async () => {
  await launched?.close();
});

/** The "Obrigatório" marks under the fields, as a person reads them. */
const requiredMarks = () => page.locator('.MuiFormHelperText-root', { hasText: 'Obrigatório' }).count();

describe('signing a company up', { timeout: 240_000 }, () => {
  it("clears each field's Obrigatório once filled, and greets the owner by their own name", async () => {
    // Prepare: the sign-up screen, pressed once while empty
    await openSignUp(page);
    await page.getByRole('button', { name: 'Cadastrar' }).click();
    await expect.poll(requiredMarks).toBeGreaterThanOrEqual(4);
    const before = await requiredMarks();
    await shot(page, '1-empty');

    // Act + Assess: each filled field loses its mark at once, with no second press
    await page.getByLabel('Nome da empresa').fill(companyName);
    await expect.poll(requiredMarks).toBe(before - 1);
    await fillSignUp(page, owner);
    await expect.poll(requiredMarks).toBe(0);
    await shot(page, '2-filled');

    // Act: sign up (the page signs the new admin in)
    await submitSignUp(page);

    // Assess: the top bar greets the person, and the company stays the company
    const greeting = page.getByTestId('greeting');
    await greeting.waitFor({ timeout: 30_000 });
    await expect.poll(() => greeting.textContent()).toContain(`Olá ${ownerName},`);
    expect(await greeting.textContent()).toContain(companyName);
    expect(await greeting.textContent()).not.toContain(`Olá ${companyName}`);
    await shot(page, '3-greeting');
  });
});
