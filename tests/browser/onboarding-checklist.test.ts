/**
 * Issue 25 "Guide the first day" in headless Chromium over the local stack. A shop owner signs a new
 * company up and finds, on the dashboard, what is left to set up: six steps, each a link to its
 * screen. They follow "add a queue", make one, come back and find that step ticked (from the
 * company's data, not a click). They hide the list; after a reload it stays hidden (kept on the
 * server, not in the browser). A step done in another tab ticks on the open dashboard without a
 * reload. Before, the dashboard of a new company was counters at zero and nothing to say what to do. The empty queues, connections, contacts and quick replies screens say
 * what to do next with the button that does it (before: a bare "Nenhum registro."). Screenshots:
 * tests/artifacts/onboarding-*.png.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { offerPlan } from '../support/api.ts';
import { type LaunchedBrowser, launchBrowser, newOwner, openPage, screenshots, signUpPage } from '../support/browser.ts';

const shot = screenshots('onboarding');

const owner = newOwner('Floricultura', 'Rosa Lima');
const steps = ['connection', 'queue', 'attendant', 'conversation', 'quickReply', 'businessHours'];

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

const checklist = () => page.getByTestId('onboarding-checklist');
const step = (key: string) => page.getByTestId(`onboarding-step-${key}`);
const doneOf = (key: string) => step(key).getAttribute('data-done');

describe("a new company's first day", { timeout: 240_000 }, () => {
  it('shows the checklist, ticks a step done on its screen, and stays dismissed after a reload', async () => {
    // Prepare: a new company, its owner signed in by the sign-up
    await signUpPage(page, owner);

    // Assess: the dashboard shows every step still to do, each a link to its screen
    await page.goto('/');
    await checklist().waitFor({ timeout: 30_000 });
    expect(await checklist().getByRole('heading').textContent()).toBe('Primeiros passos');
    for (const key of steps) expect(await doneOf(key), key).toBe('false');
    expect(await step('queue').textContent()).toContain('Crie uma fila de atendimento');
    expect(await step('queue').getAttribute('href')).toBe('/queues');
    expect(await step('connection').getAttribute('href')).toBe('/connections');
    expect(await checklist().textContent()).toContain('0 de 6 concluídos');
    await shot(page, '1-new-company');

    // Act: follow "add a queue", make one there, and come back
    await step('queue').click();
    await page.waitForURL('**/queues');
    // The empty list says what to do, with the button that does it (not a bare "Nenhum registro")
    const hint = page.getByTestId('empty-hint');
    await hint.waitFor().catch(async (error) => {
      await shot(page, 'debug');
      throw error;
    });
    expect(await hint.textContent()).toContain('Nenhuma fila ainda. Crie uma para organizar as conversas por setor.');
    await shot(page, '2-queues-empty');
    await hint.getByRole('button', { name: 'Criar a primeira fila' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Nome').first().fill('Vendas');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await page.getByRole('row').filter({ hasText: 'Vendas' }).waitFor();
    await page.goBack();
    await page.waitForURL((url) => url.pathname === '/');

    // Assess: that step is ticked, the others are not
    await checklist().waitFor();
    await expect.poll(() => doneOf('queue'), { timeout: 15_000 }).toBe('true');
    for (const key of steps.filter((k) => k !== 'queue')) expect(await doneOf(key), key).toBe('false');
    expect(await checklist().textContent()).toContain('1 de 6 concluídos');
    await shot(page, '3-queue-ticked');

    // Act: in another tab, make a first quick reply from its empty screen's button
    const other = await page.context().newPage();
    await other.goto('/quick-messages');
    const emptyReplies = other.getByTestId('empty-hint');
    await emptyReplies.waitFor({ timeout: 30_000 });
    expect(await emptyReplies.textContent()).toContain('Nenhuma resposta rápida ainda.');
    await emptyReplies.getByRole('button', { name: 'Criar a primeira resposta rápida' }).click();
    const replyDialog = other.getByRole('dialog');
    await replyDialog.getByLabel('Atalho').fill('oi');
    await replyDialog.getByLabel('Resposta').fill('Olá! Como posso ajudar?');
    await replyDialog.getByRole('button', { name: 'Adicionar', exact: true }).click();
    await other.getByRole('row').filter({ hasText: 'Olá! Como posso ajudar?' }).waitFor();
    await other.close();

    // Assess: the dashboard left open ticks it live, without a reload
    await expect.poll(() => doneOf('quickReply'), { timeout: 15_000 }).toBe('true');
    expect(await checklist().textContent()).toContain('2 de 6 concluídos');
    await shot(page, '3b-quick-reply-ticked-live');

    // Act: hide the list, then reload
    await page.getByRole('button', { name: 'Ocultar a lista' }).click();
    await checklist().waitFor({ state: 'detached' });
    const answered = page.waitForResponse((res) => new URL(res.url()).pathname.endsWith('/onboarding') && res.request().method() === 'GET');
    await page.reload();
    const onboarding = (await (await answered).json()) as { dismissed: boolean };

    // Assess: the server kept the dismissal, and the dashboard shows no list
    expect(onboarding.dismissed).toBe(true);
    await page.getByTestId('counter-happening').waitFor({ timeout: 30_000 });
    expect(await checklist().count()).toBe(0);
    await shot(page, '4-dismissed-after-reload');
  });

  it('says what to do next on the empty connections and contacts screens', async () => {
    const screens = [
      {
        path: '/connections',
        text: 'Nenhuma conexão ainda. Adicione uma e leia o QR code para receber mensagens.',
        button: 'Adicionar o primeiro WhatsApp',
      },
      { path: '/contacts', text: 'Nenhum contato ainda.', button: 'Adicionar o primeiro contato' },
    ];
    for (const screen of screens) {
      await page.goto(screen.path);
      const hint = page.getByTestId('empty-hint');
      await hint.waitFor({ timeout: 30_000 });
      expect(await hint.textContent(), screen.path).toContain(screen.text);
      await shot(page, `5-empty${screen.path.replace('/', '-')}`);
      // Its button opens the screen's add dialog
      await hint.getByRole('button', { name: screen.button, exact: true }).click();
      await page.getByRole('dialog').waitFor();
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
    }
  });
});
