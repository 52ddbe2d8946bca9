/**
 * Every page of the menu as a new user meets it (issue 14 "Layout", "Done means"): at 390 px in pt, en
 * and es, nothing is wider than the screen and no label, tab, button or placeholder is cut; at 1440 px
 * axe-core finds no serious or critical accessibility violation. The main forms' dialogs are opened
 * too, since that is where the cut labels were. Screenshots of each page at 390 px in English go to
 * tests/artifacts/first-use-*.png.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../../infra/local/lambda-runtime.ts';
import { client, createTenant, firstPlanId, superLogin, type Tenant } from '../integration/tenants.ts';
import { type LaunchedBrowser, launchBrowser, signInPage } from '../support/browser.ts';

const artifacts = join(repoRoot, 'tests', 'artifacts');
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The admin's menu (the super-only announcements page aside), each with a landmark to wait for. */
const pages = [
  '/tickets',
  '/quick-messages',
  '/kanban',
  '/contacts',
  '/schedules',
  '/tags',
  '/chats',
  '/todolist',
  '/helps',
  '/campaigns',
  '/contact-lists',
  '/campaigns-config',
  '/connections',
  '/files',
  '/queues',
  '/users',
  '/messages-api',
  '/prompts',
  '/financeiro',
  '/settings',
] as const;

/** Pages whose Add button (the page header's button with the Add icon) opens a form where labels were cut. */
const withAddDialog = ['/queues', '/connections', '/users', '/contacts', '/prompts'];

let tenant: Tenant;
let launched: LaunchedBrowser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  const call = client(inject('apiUrl'));
  tenant = await createTenant(call, await superLogin(call, inject('admin')), await firstPlanId(call), 'first-use');
  launched = await launchBrowser();
  context = await launched.browser.newContext({ baseURL: inject('webUrl'), viewport: { width: 390, height: 844 }, locale: 'en-US' });
  page = await context.newPage();
  await signInPage(page, tenant.admin.email, tenant.admin.password);
});

afterAll(async () => {
  await context?.close();
  await launched?.close();
});

/** Client-side navigation, as a click in the menu does (a full load per page would triple the run). */
async function visit(target: Page, path: string): Promise<void> {
  await target.evaluate((to) => {
    history.pushState({}, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await target.waitForURL(`**${path}`);
  await settle(target);
}

/** The page has painted its content: its lazy chunk and first reads are in, and no loader spins. */
async function settle(target: Page): Promise<void> {
  await target.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => {
    // Long polls aside, a page that keeps the network busy still gets its layout checked.
  });
  await target
    .waitForFunction(() => !document.querySelector('.MuiCircularProgress-root'), undefined, { timeout: 5_000 })
    .catch(() => {
      // A list that keeps a spinner (an empty page's last read) is not a layout problem.
    });
}

/**
 * What does not fit: the document wider than the screen, and text cut by its box (an ellipsis, or
 * hidden overflow) in labels, tabs, buttons, chips and table heads, or a placeholder longer than its input.
 */
function cutText(target: Page): Promise<string[]> {
  return target.evaluate(() => {
    const problems: string[] = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > window.innerWidth + 1) problems.push(`page ${doc.scrollWidth}px wide on a ${window.innerWidth}px screen`);
    const visible = (el: Element) => {
      const box = el.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== 'hidden';
    };
    const selectors =
      '.MuiInputLabel-root, .MuiFormControlLabel-label, .MuiTab-root, .MuiButton-root, .MuiChip-label, th, .MuiListItemText-primary';
    for (const el of document.querySelectorAll<HTMLElement>(selectors)) {
      if (!visible(el) || !el.textContent?.trim()) continue;
      if (el.scrollWidth > el.clientWidth + 1) problems.push(`cut: "${el.textContent.trim()}"`);
    }
    const canvas = document.createElement('canvas').getContext('2d');
    for (const input of document.querySelectorAll<HTMLInputElement>('input[placeholder], textarea[placeholder]')) {
      if (!visible(input) || !input.placeholder || input.value || !canvas) continue;
      const style = getComputedStyle(input);
      canvas.font = `${style.fontSize} ${style.fontFamily}`;
      const room = input.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
      if (canvas.measureText(input.placeholder).width > room + 1) problems.push(`placeholder cut: "${input.placeholder}"`);
    }
    return problems;
  });
}

/** The app reads the stored language when it starts: store it and start again on the inbox. */
async function setLanguage(language: 'pt' | 'en' | 'es'): Promise<void> {
  await page.evaluate((value) => localStorage.setItem('language', value), language);
  await page.goto('/tickets');
  await settle(page);
}

/** Opens the page header's Add dialog on a freshly loaded page and lists what does not fit in it. */
async function addDialogProblems(path: string): Promise<string[]> {
  await page.goto(path);
  await settle(page);
  // The header's Add is its contained button (MUI icons carry data-testid only in development builds).
  await page.locator('h1 + div .MuiButton-contained').first().click();
  const dialog = page.locator('.MuiDialog-paper').last();
  await dialog.waitFor();
  await settle(page);
  const problems = (await cutText(page)).map((problem) => `${path} dialog: ${problem}`);
  // Save stays in view without scrolling inside the dialog.
  const box = await dialog.locator('.MuiDialogActions-root').first().boundingBox();
  if (!box || box.y + box.height > 844) problems.push(`${path} dialog: actions not in view`);
  await page.screenshot({ path: join(artifacts, `first-use-${path.slice(1)}-dialog.png`) });
  return problems;
}

describe('first use: every page of the menu fits a phone and reads well', { timeout: 600_000 }, () => {
  it.each(['en', 'pt', 'es'] as const)('at 390 px in %s nothing is cut or wider than the screen', async (language) => {
    await setLanguage(language);
    const problems: string[] = [];
    for (const path of pages) {
      await visit(page, path);
      for (const problem of await cutText(page)) problems.push(`${path}: ${problem}`);
      if (language === 'en') await page.screenshot({ path: join(artifacts, `first-use-${path.slice(1)}.png`) });
    }
    expect(problems).toEqual([]);
  });

  it('at 390 px in pt, the longest of the three, the forms where labels were cut fit with Save in view', async () => {
    await setLanguage('pt');
    const problems: string[] = [];
    for (const path of withAddDialog) problems.push(...(await addDialogProblems(path)));
    expect(problems).toEqual([]);
  });

  it('at 1440 px axe finds no serious or critical violation on any page', async () => {
    await setLanguage('pt');
    await page.setViewportSize({ width: 1440, height: 900 });
    const found: string[] = [];
    await page.addScriptTag({ content: axeSource });
    for (const path of pages) {
      await visit(page, path);
      // Scalar's viewer renders its sections after its chunk and the document arrive; a page left
      // before it finished was seen holding its nodes three pages later (/settings, a run of session
      // 23). Its page is checked once it has rendered, and every other page once none of it is left:
      // a viewer that outlives its page is a leak, said as such.
      const viewerRendered = path === '/messages-api';
      const settled = await page
        .waitForFunction(
          (rendered) =>
            rendered
              ? Boolean(document.querySelector('[data-testid=api-reference] [id^=headlessui-disclosure-button-scalar]'))
              : !document.querySelector('.scalar-app, [id^=headlessui-disclosure-button-scalar]'),
          viewerRendered,
          { timeout: 15_000 },
        )
        .then(() => true)
        .catch(() => false);
      if (!settled) found.push(`${path}: ${viewerRendered ? 'the API reference never rendered' : "Scalar's viewer left in the page"}`);
      const violations = await page.evaluate(async () => {
        const axe = (
          window as unknown as {
            axe: {
              run: (
                context: Document,
                options: object,
              ) => Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }>;
            };
          }
        ).axe;
        const result = await axe.run(document, { resultTypes: ['violations'] });
        // Scalar's API reference (the messages-API page) nests its sections' links in their disclosure
        // buttons; that markup is the viewer's own, named in the note, not ours to change.
        const insideViewer = (target: string[]) =>
          Boolean(document.querySelector(target[0] ?? ':not(*)')?.closest('[data-testid=api-reference]'));
        for (const v of result.violations) if (v.id === 'nested-interactive') v.nodes = v.nodes.filter((n) => !insideViewer(n.target));
        return result.violations
          .filter((v) => v.nodes.length > 0)
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map(
            (v) =>
              `${v.id} (${v.impact}): ${v.nodes
                .slice(0, 3)
                .map((n) => n.target.join(' '))
                .join(' | ')}`,
          );
      });
      for (const violation of violations) found.push(`${path}: ${violation}`);
    }
    expect(found).toEqual([]);
  });

  it("at 1366 px in es and pt the super admin's settings tabs cut no label", async () => {
    const desk = await launched.browser.newContext({ baseURL: inject('webUrl'), viewport: { width: 1366, height: 800 }, locale: 'es-ES' });
    const superPage = await desk.newPage();
    await signInPage(superPage, inject('admin').email, inject('admin').password);
    const problems: string[] = [];
    for (const language of ['es', 'pt'] as const) {
      await superPage.evaluate((value) => localStorage.setItem('language', value), language);
      await superPage.goto('/settings');
      await settle(superPage);
      for (const tab of ['options', 'companies', 'plans', 'helps']) {
        await superPage.getByTestId(`settings-tab-${tab}`).click();
        await settle(superPage);
        for (const problem of await cutText(superPage)) problems.push(`${language} ${tab}: ${problem}`);
        // The plans table shows every limit the form sets, and a limit of 0 as no limit (the seeded plan's campaigns).
        if (tab === 'plans') {
          const heads = await superPage.locator('th').allTextContents();
          expect(heads).toEqual(expect.arrayContaining(language === 'es' ? ['Campañas', 'Agendamientos'] : ['Campanhas', 'Agendamentos']));
          await superPage
            .locator('tbody')
            .getByText(language === 'es' ? 'Sin límite' : 'Sem limite')
            .first()
            .waitFor();
        }
        await superPage.screenshot({ path: join(artifacts, `first-use-settings-${tab}-${language}-1366.png`) });
      }
    }
    await desk.close();
    expect(problems).toEqual([]);
  });
});
