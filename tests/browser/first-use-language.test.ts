/**
 * Issue 14's language group ("Done means": a browser test per group): a user who picked pt, en or es
 * meets that language and only it, from a failed sign-in's toast to the inbox, a dialog and a toast
 * after a save. The expected texts come from the locale files themselves; the page must show no raw
 * i18n key and none of the other two languages' texts for what it shows. The Settings save also
 * checks its success toast is shown once (issue 14: "Settings changes show their success toast twice"),
 * and the greeting's date is in the language's order (issue 14: "Two date formats on one screen").
 */
import { format, startOfMonth } from 'date-fns';
import { enUS, ptBR } from 'date-fns/locale';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import en from '../../web/src/i18n/locales/en.ts';
import es from '../../web/src/i18n/locales/es.ts';
import pt from '../../web/src/i18n/locales/pt.ts';
import { client, createTenant, firstPlanId, superLogin, type Tenant } from '../integration/tenants.ts';
import { type LaunchedBrowser, launchBrowser, signInPage, typeDate } from '../support/browser.ts';

const locales = { pt, en, es } as const;
type Language = keyof typeof locales;

/** A locale's text by its dotted key ('inbox.subTabs.pending'). */
function text(language: Language, key: string): string {
  const value = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], locales[language]);
  if (typeof value !== 'string') throw new Error(`no ${language} text for ${key}`);
  return value;
}

/** What the test looks at on each screen. */
const shown = [
  'auth.login.wrongCredentials',
  'inbox.subTabs.assigned',
  'inbox.subTabs.pending',
  'inbox.newTicket',
  'inbox.newTicketDialog.title',
  'settings.updated',
];
/** The tenant's due date (2099-12-31, tests/integration/tenants.ts) in the greeting of an admin. */
const dueDateShown: Record<Language, string> = { pt: '31/12/2099', en: '12/31/2099', es: '31/12/2099' };
/** A raw key of one of the app's namespaces, as i18next prints a missing one. */
const RAW_KEY = /\b(auth|common|conversation|errors|inbox|layout|menu|settings|tickets)\.[a-zA-Z]+(\.[a-zA-Z]+)*\b/;

let tenant: Tenant;
let launched: LaunchedBrowser;

beforeAll(async () => {
  const call = client(inject('apiUrl'));
  tenant = await createTenant(call, await superLogin(call, inject('admin')), await firstPlanId(call), 'first-lang');
  launched = await launchBrowser();
});

afterAll(async () => {
  await launched?.close();
});

/** The page's visible text holds no raw key and no other language's text for the keys shown. */
async function onlyLanguage(page: Page, language: Language): Promise<void> {
  // biome-ignore lint/performance/useDomNodeTextContent: the visible text only, not hidden menus or closed dialogs.
  const body = await page.evaluate(() => document.body.innerText);
  expect(body).not.toMatch(RAW_KEY);
  for (const other of Object.keys(locales) as Language[]) {
    if (other === language) continue;
    for (const key of shown) {
      const foreign = text(other, key);
      if (foreign !== text(language, key)) expect(body, `${other} "${foreign}" on the ${language} page`).not.toContain(foreign);
    }
  }
}

describe('each language shows its own strings (issue 14)', { timeout: 120_000 }, () => {
  for (const language of ['pt', 'en', 'es'] as const) {
    it(`${language}: sign-in toast, inbox, a dialog and a save's toast`, async () => {
      // Prepare: a browser whose user picked this language (stored as the language menu stores it).
      const context: BrowserContext = await launched.browser.newContext({
        baseURL: inject('webUrl'),
        viewport: { width: 1440, height: 900 },
        locale: language === 'en' ? 'en-US' : language === 'pt' ? 'pt-BR' : 'es-ES',
      });
      await context.addInitScript((stored) => localStorage.setItem('language', stored), language);
      const page = await context.newPage();
      try {
        // Act + Assess: a wrong password's toast
        await page.goto('/login');
        await page.fill('input[name=email]', tenant.admin.email);
        await page.fill('input[name=password]', 'Wrong-Password-1');
        await page.click('button[type=submit]');
        await page.getByTestId('toast').getByText(text(language, 'auth.login.wrongCredentials')).waitFor();
        await onlyLanguage(page, language);
        // The inbox
        await page.fill('input[name=password]', tenant.admin.password);
        await page.click('button[type=submit]');
        await page.waitForURL('**/tickets');
        await expect(page.getByTestId('tab-assigned').textContent()).resolves.toContain(text(language, 'inbox.subTabs.assigned'));
        await expect(page.getByTestId('tab-pending').textContent()).resolves.toContain(text(language, 'inbox.subTabs.pending'));
        // Dates in the language's order, as its browser's date inputs write them (one format per screen).
        await expect(page.getByTestId('greeting').textContent()).resolves.toContain(dueDateShown[language]);
        // A dialog
        await page.getByRole('button', { name: text(language, 'inbox.newTicket'), exact: true }).click();
        await page.getByRole('dialog').getByText(text(language, 'inbox.newTicketDialog.title')).waitFor();
        await onlyLanguage(page, language);
        await page.keyboard.press('Escape');
        await page.getByRole('dialog').waitFor({ state: 'hidden' });
        // A save's toast: Settings, one select changed
        await page.getByTestId('menu-settings').click();
        const rating = page.getByTestId('setting-userRating');
        await rating.getByRole('combobox').click();
        await page.locator('[role=option][aria-selected=false]').first().click();
        const toast = page.getByTestId('toast').getByText(text(language, 'settings.updated'));
        await toast.waitFor();
        await onlyLanguage(page, language);
        if (language === 'pt') {
          // Shown once: gone after its 3 s, and no second one queued behind it.
          await toast.waitFor({ state: 'hidden', timeout: 6_000 });
          await page.waitForTimeout(1_000);
          expect(await page.getByTestId('toast').count()).toBe(0);
        }
      } finally {
        await context.close();
      }
    });
  }
});

describe("date fields follow the app's language, not the browser's (issue 14)", { timeout: 120_000 }, () => {
  for (const [language, browserLocale] of [
    ['en', 'pt-BR'],
    ['pt', 'en-US'],
  ] as const) {
    it(`${language} on a ${browserLocale} browser: the dashboard's dates, their calendar and typing one`, async () => {
      // Prepare: a user who picked a language other than the browser's (a native date input would follow the browser).
      const context: BrowserContext = await launched.browser.newContext({
        baseURL: inject('webUrl'),
        viewport: { width: 1440, height: 900 },
        locale: browserLocale,
      });
      await context.addInitScript((stored) => localStorage.setItem('language', stored), language);
      const page = await context.newPage();
      const order = language === 'en' ? 'MM/dd/yyyy' : 'dd/MM/yyyy';
      try {
        await signInPage(page, tenant.admin.email, tenant.admin.password);
        // Act: the dashboard's date filter (from the first of the month by default)
        await page.goto('/');
        const from = page.locator('input[name=from]');
        await from.waitFor({ state: 'attached' });
        // Assess: the language's order, and its month names in the calendar
        await expect.poll(() => from.inputValue(), { timeout: 10_000 }).toBe(format(startOfMonth(new Date()), order));
        await from.locator('xpath=..').getByRole('button').click();
        const month = format(new Date(), 'LLLL', { locale: language === 'en' ? enUS : ptBR });
        await page.getByRole('dialog').getByText(new RegExp(month, 'i')).first().waitFor();
        await page.screenshot({ path: `tests/artifacts/first-use-date-${language}.png` });
        await page.keyboard.press('Escape');
        // Typing a day goes in the language's order too
        const day = new Date(2026, 1, 3);
        await typeDate(page, from, day, { language });
        await expect.poll(() => from.inputValue()).toBe(format(day, order));
      } finally {
        await context.close();
      }
    });
  }
});
