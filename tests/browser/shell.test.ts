/**
 * The web shell in headless Chromium against the local stack: sign in as the seeded admin, see the
 * drawer, switch language and theme, log out. Screenshots go to tests/artifacts/ for a human look.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../../infra/local/lambda-runtime.ts';
import { type LaunchedBrowser, launchBrowser } from '../support/browser.ts';

const artifacts = join(repoRoot, 'tests', 'artifacts');
const shot = (page: Page, name: string) => page.screenshot({ path: join(artifacts, `shell-${name}.png`) });
const bodyBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

describe('web shell', () => {
  let launched: LaunchedBrowser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    launched = await launchBrowser();
    // Spanish browser and light system theme: the start state is known, whatever the machine says.
    context = await launched.browser.newContext({
      baseURL: inject('webUrl'),
      locale: 'es-ES',
      colorScheme: 'light',
      viewport: { width: 1366, height: 800 },
    });
    page = await context.newPage();
  });

  afterAll(async () => {
    await context?.close();
    await launched?.close();
  });

  it('sends a visitor of a private route to /login', async () => {
    // Prepare / Act
    await page.goto('/users');
    // Assess
    await page.waitForURL('**/login');
    await page.getByRole('button', { name: 'Entrar' }).waitFor({ state: 'visible' });
  });

  it('ends animations when the system asks for reduced motion, and keeps them when it does not (WCAG 2.3.3)', async () => {
    // Prepare: this file's context asks for reduced motion (every test context does: support/browser.ts);
    // another one says it has no preference.
    const moving = await launched.browser.newContext({ baseURL: inject('webUrl'), locale: 'es-ES', reducedMotion: 'no-preference' });
    const movingPage = await moving.newPage();
    const buttonMotion = async (on: Page) => {
      await on.goto('/login');
      const button = on.getByRole('button', { name: 'Entrar' });
      await button.waitFor();
      return button.evaluate((element) => {
        const style = getComputedStyle(element);
        return { transition: Number.parseFloat(style.transitionDuration) };
      });
    };
    try {
      // Act
      const reduced = await buttonMotion(page);
      const normal = await buttonMotion(movingPage);
      // Assess: MUI's button eases its colours over 250 ms; reduced, over nothing a person can see.
      expect(normal.transition).toBeGreaterThanOrEqual(0.2);
      expect(reduced.transition).toBeLessThan(0.001);
    } finally {
      await moving.close();
    }
  });

  it('signs the admin in and lands on /tickets with the drawer', async () => {
    // Prepare
    const admin = inject('admin');
    await page.goto('/login');
    // Act
    await page.fill('input[name=email]', admin.email);
    await page.fill('input[name=password]', admin.password);
    await page.click('button[type=submit]');
    // Assess
    await page.waitForURL('**/tickets');
    const drawer = page.getByTestId('app-drawer');
    await drawer.getByTestId('menu-tickets').waitFor();
    await expect(drawer.getByTestId('menu-settings').isVisible()).resolves.toBe(true);
    await expect(page.getByTestId('version-footer').textContent()).resolves.toContain('6.0.0');
    await page.getByTestId('tickets-page').waitFor();
    await shot(page, '1-signed-in');
  });

  it('switches the language and keeps the choice', async () => {
    // Prepare
    const tickets = page.getByTestId('menu-tickets');
    await expect(tickets.textContent()).resolves.toBe('Atenciones');
    // Act
    await page.getByTestId('language-button').click();
    await page.getByTestId('language-en').click();
    // Assess
    await expect.poll(() => tickets.textContent()).toBe('Tickets');
    await expect(page.evaluate(() => localStorage.getItem('language'))).resolves.toBe('en');
    await shot(page, '2-english');
  });

  it('switches the theme and stores it as preferredTheme', async () => {
    // Prepare
    const before = await bodyBackground(page);
    // Act
    await page.getByTestId('theme-toggle').click();
    // Assess
    await expect.poll(() => bodyBackground(page)).not.toBe(before);
    await expect(page.evaluate(() => localStorage.getItem('preferredTheme'))).resolves.toBe('dark');
    await shot(page, '3-dark');
  });

  it("keeps the payment provider's key hidden until asked, and away from the password manager", async () => {
    // Prepare: the platform's Asaas key, seeded by the local stack (a super-only setting)
    await page.goto('/settings');
    const key = page.getByTestId('setting-asaas');
    await key.waitFor();
    const seeded = await key.inputValue();
    expect(seeded).not.toBe('');
    // Assess: masked, not offered to the browser for saving
    await expect(key.getAttribute('type')).resolves.toBe('password');
    await expect(key.getAttribute('autocomplete')).resolves.toBe('off');
    // Act: the super admin asks to see it, and hides it again
    const toggle = page.getByRole('button', { name: 'Show or hide the key' });
    await toggle.click();
    await expect(key.getAttribute('type')).resolves.toBe('text');
    await shot(page, '4-secret-shown');
    await toggle.click();
    await expect(key.getAttribute('type')).resolves.toBe('password');
    expect(await key.inputValue()).toBe(seeded);
  });

  it('logs out back to /login', async () => {
    // Act
    await page.getByTestId('account-button').click();
    await page.getByTestId('menu-logout').click();
    // Assess
    await page.waitForURL('**/login');
    await page.goto('/settings');
    await page.waitForURL('**/login');
    await shot(page, '5-logged-out');
  });
});
