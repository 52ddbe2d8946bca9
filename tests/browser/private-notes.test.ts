/**
 * Issue 22 §6 in the browser: the attendant turns on "Nota" in the composer (pressed, the composer
 * turns amber and says the text is a private note), sends, and the note shows in the thread in amber
 * with a lock and "Nota privada", without delivery ticks; a colleague (the admin) with the same
 * conversation open sees it arrive live, marked the same; the contact's phone never gets it.
 * Screenshots in tests/artifacts/private-notes-*.png.
 */
import { randomInt } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Call, client, createTenant, firstPlanId, superLogin, type Tenant } from '../integration/tenants.ts';
import { type ConnectionSetup, connectedConnection, ok, type Simulator, simulator, sleep } from '../integration/whatsapp-kit.ts';
import { pendingTicketOf } from '../support/api.ts';
import { type LaunchedBrowser, launchBrowser, openPage, screenshots, signInPage } from '../support/browser.ts';

const shot = screenshots('private-notes');
const number = `55419${randomInt(10_000_000, 99_999_999)}`;
const question = 'Vocês entregam no sábado?';
const noteText = `Cliente pediu desconto ontem, ver com gerente ${randomInt(1000, 9999)}`;

let launched: LaunchedBrowser;
let userPage: Page;
let adminPage: Page;
let tenant: Tenant;
let call: Call;
let sim: Simulator;
let setup: ConnectionSetup;
let uuid: string;

beforeAll(async () => {
  call = client(inject('apiUrl'));
  sim = simulator(inject('simulatorUrl'));
  tenant = await createTenant(call, await superLogin(call, inject('admin')), await firstPlanId(call), 'notes-web');
  setup = await connectedConnection(call, sim, { token: tenant.admin.token, companyId: tenant.companyId, queues: ['Vendas'] });
  await sim.send(setup.simId, number, question, 'Caio');
  const ticketId = await pendingTicketOf(call, tenant.admin.token, number, question);
  // The admin gives it to the attendant before either signs in in the browser (a sign-in ends the API session).
  await ok(call, 'PUT', `/tickets/${ticketId}`, { token: tenant.admin.token, body: { status: 'open', userId: tenant.user.id } });
  uuid = (await ok<{ uuid: string }>(call, 'GET', `/tickets/${ticketId}`, { token: tenant.admin.token })).uuid;
  launched = await launchBrowser();
  [userPage, adminPage] = await Promise.all([
    openPage(launched, { baseURL: inject('webUrl'), viewport: { width: 1280, height: 800 } }),
    openPage(launched, { baseURL: inject('webUrl'), viewport: { width: 1280, height: 800 } }),
  ]);
}, 120_000);

afterAll(async () => {
  await launched?.close();
});

/** The conversation `uuid` open on `page`, the contact's question shown. */
async function openConversation(page: Page, email: string, password: string): Promise<void> {
  await signInPage(page, email, password);
  await page.goto(`/tickets/${uuid}`);
  await page
    .getByTestId('message')
    .filter({ hasText: question })
    .waitFor({ timeout: 30_000 })
    .catch(async (error) => {
      await shot(page, `failed-${email.split('@')[0]}`);
      throw error;
    });
}

/**
 * The bubble's background as [r, g, b], read until it is the note's amber (or 5 s): the sent note's
 * row is rendered again once the server's copy replaces the one shown at once, and a row read as it
 * leaves the page has no computed style (read as black: a run of session 23).
 */
const backgroundOf = async (message: Locator): Promise<number[]> => {
  const read = () =>
    message.evaluate((el) => {
      const bubble = el.firstElementChild as HTMLElement;
      const [r = 0, g = 0, b = 0] = (getComputedStyle(bubble).backgroundColor.match(/[\d.]+/g) ?? []).map(Number);
      return [r, g, b];
    });
  const amber = ([r = 0, g = 0, b = 0]: number[]) => r > 200 && g > 120 && b < 120;
  let last = await read();
  for (const started = Date.now(); !amber(last) && Date.now() - started < 5_000; last = await read()) await sleep(100);
  return last;
};

describe('private notes in the conversation', { timeout: 150_000 }, () => {
  it('the attendant writes a note: amber, locked, "Nota privada", no ticks; the colleague sees it live; the phone never', async () => {
    await openConversation(adminPage, tenant.admin.email, tenant.admin.password);
    await openConversation(userPage, tenant.user.email, tenant.user.password);

    // The toggle: pressed, the composer amber, the placeholder says it is private.
    const composer = userPage.getByTestId('message-input');
    const toggle = userPage.getByTestId('note-toggle');
    await expect(toggle.getAttribute('aria-pressed')).resolves.toBe('false');
    await toggle.click();
    await expect(toggle.getAttribute('aria-pressed')).resolves.toBe('true');
    await expect(composer.getAttribute('data-note')).resolves.toBe('true');
    const input = userPage.getByRole('textbox', { name: 'Digite uma mensagem' });
    await expect(input.getAttribute('placeholder')).resolves.toBe('Escreva uma nota privada (o cliente não vê)');
    await input.fill(noteText);
    await shot(userPage, 'composer', { fullPage: false });
    await input.press('Enter');

    // In the attendant's thread: a note, in amber, with its mark and no delivery ticks.
    const mine = userPage.getByTestId('message').filter({ hasText: noteText });
    await mine.waitFor({ timeout: 15_000 });
    await userPage.waitForFunction(
      (text) =>
        [...document.querySelectorAll('[data-testid=message]')].some(
          (el) => el.textContent?.includes(text) && el.getAttribute('data-private') === 'true',
        ),
      noteText,
    );
    await expect(mine.getByTestId('private-note-label').textContent()).resolves.toBe('Nota privada');
    await expect(mine.locator('[data-ack]').count()).resolves.toBe(0);
    const [r, g, b] = await backgroundOf(mine);
    expect(r).toBeGreaterThan(200);
    expect(g).toBeGreaterThan(120);
    expect(b).toBeLessThan(120);
    // The composer stays in note mode until turned off (a viewport shot: a full-page one resizes the page).
    await sleep(1000);
    await expect(composer.getAttribute('data-note')).resolves.toBe('true');
    await expect(toggle.getAttribute('aria-pressed')).resolves.toBe('true');
    await shot(userPage, 'thread', { fullPage: false });
    // At 1280 px the whole conversation fits: no sideways scroll, Resolver and Send inside the window
    // (a 1fr column grew to its content and clipped both).
    await expect(userPage.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(1280);
    for (const button of [userPage.getByRole('button', { name: 'Resolver' }), composer.getByRole('button', { name: 'Enviar' })]) {
      const box = await button.boundingBox();
      expect(box && box.x + box.width).toBeLessThanOrEqual(1280);
    }

    // The colleague's open thread: the note arrives live, marked the same.
    const theirs = adminPage.getByTestId('message').filter({ hasText: noteText });
    await theirs.waitFor({ timeout: 30_000 }).catch(async (error) => {
      await shot(adminPage, 'failed-colleague');
      throw error;
    });
    await expect(theirs.getAttribute('data-private')).resolves.toBe('true');
    await expect(theirs.getByTestId('private-note-label').textContent()).resolves.toBe('Nota privada');
    await expect(theirs.locator('[data-ack]').count()).resolves.toBe(0);
    await shot(adminPage, 'colleague', { fullPage: false });

    // Turned off, the composer is the plain one again; the contact's phone never got the note.
    await toggle.click();
    await expect(toggle.getAttribute('aria-pressed')).resolves.toBe('false');
    await expect(composer.getAttribute('data-note')).resolves.toBe(null);
    await sleep(1000);
    expect((await sim.chat(setup.simId, number)).some((m) => m.body.includes(noteText))).toBe(false);
  });
});
