/**
 * Internal chat in headless Chromium over the local stack (SPEC 2 "Internal chat", the top bar's
 * chat popover, the side menu's chat dot; 4 "Badges"): an admin opens a chat with a colleague, the
 * two talk live in two browsers (own messages on the right, the sending marker replaced by the
 * stored message, send on Enter), the colleague's menu dot and popover dot appear when a message
 * arrives and clear once the chat is opened. Screenshots at 1440 and 390 px go to tests/artifacts/.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../../infra/local/lambda-runtime.ts';
import { client, createTenant, firstPlanId, superLogin, type Tenant } from '../integration/tenants.ts';
import { launchBrowser, signInPage } from '../support/browser.ts';

const artifacts = join(repoRoot, 'tests', 'artifacts');
const shot = (page: Page, name: string) => page.screenshot({ path: join(artifacts, `chat-${name}.png`) });

let tenant: Tenant;
let browser: Browser;
const contexts: BrowserContext[] = [];

async function signedIn(email: string, password: string, viewport = { width: 1440, height: 900 }): Promise<Page> {
  const context = await browser.newContext({ baseURL: inject('webUrl'), locale: 'pt-BR', colorScheme: 'light', viewport });
  contexts.push(context);
  const page = await context.newPage();
  await signInPage(page, email, password);
  return page;
}

/** Each step waits on what the page shows, up to what a send or an event takes on a loaded machine. */
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000, interval: 100 });

/** The side menu's chat entry's dot: MUI marks an invisible badge with a class. */
const menuDot = (page: Page) => page.getByTestId('menu-chats').locator('.MuiBadge-dot');

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  const call = client(inject('apiUrl'));
  const superToken = await superLogin(call, inject('admin'));
  tenant = await createTenant(call, superToken, await firstPlanId(call), 'chat-web');
  browser = (await launchBrowser()).browser;
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close().catch(() => undefined);
});

describe('internal chat in the browser', () => {
  it('two users chat live; the unread dot appears and clears', async () => {
    const [admin, colleague] = await Promise.all([
      signedIn(tenant.admin.email, tenant.admin.password),
      signedIn(tenant.user.email, tenant.user.password),
    ]);
    await poll(() => menuDot(colleague).getAttribute('class')).toContain('MuiBadge-invisible');

    // The admin starts a chat with the colleague from the Chats screen.
    await admin.getByTestId('menu-chats').click();
    await admin.waitForURL('**/chats');
    await admin.getByTestId('chat-add').click();
    await admin.getByTestId('chat-title').fill('Plantão de sábado');
    await admin.getByTestId('chat-members').click();
    await admin.getByRole('option', { name: `User ${tenant.marker}` }).click();
    await admin.getByTestId('chat-save').click();
    await admin.waitForURL(/\/chats\/\d+$/);
    const input = admin.getByTestId('chat-input');
    await input.fill('Quem cobre o turno da manhã?');
    await input.press('Enter');
    // The message shows at once (with the sending marker until stored), on the right: it is the admin's own.
    const sent = admin.getByTestId('chat-message').filter({ hasText: 'Quem cobre o turno da manhã?' });
    await poll(() => sent.getAttribute('data-own')).toBe('true');
    await poll(() => admin.getByTestId('chat-message-sending').count()).toBe(0);
    await poll(() => sent.count()).toBe(1);

    // The colleague's dots light up live, with no reload.
    await poll(() => menuDot(colleague).getAttribute('class')).not.toContain('MuiBadge-invisible');
    await poll(() => colleague.getByTestId('chats-button').getAttribute('data-unread')).toBe('true');
    await colleague.getByTestId('chats-button').click();
    // The popover grows in: shoot it once its paper is fully drawn.
    await colleague.waitForFunction(() => {
      const paper = document.querySelector('[data-testid=chats-popover-list]')?.closest('.MuiPaper-root');
      return paper && getComputedStyle(paper).opacity === '1' && getComputedStyle(paper).transform === 'none';
    });
    await shot(colleague, 'popover-1440');
    await colleague.getByTestId('chats-popover-item').filter({ hasText: 'Plantão de sábado' }).click();
    await colleague.waitForURL(/\/chats\/\d+$/);
    const received = colleague.getByTestId('chat-message').filter({ hasText: 'Quem cobre o turno da manhã?' });
    await poll(() => received.getAttribute('data-own')).toBe('false');
    // Opening it marked it read: both dots clear.
    await poll(() => menuDot(colleague).getAttribute('class')).toContain('MuiBadge-invisible');
    await poll(() => colleague.getByTestId('chats-button').getAttribute('data-unread')).toBe('false');

    // The colleague answers; the admin, who has the chat open, sees it arrive on the left.
    await colleague.getByTestId('chat-input').fill('Eu cubro! 👍');
    await colleague.getByTestId('chat-input').press('Enter');
    const answer = admin.getByTestId('chat-message').filter({ hasText: 'Eu cubro! 👍' });
    await poll(() => answer.getAttribute('data-own')).toBe('false');
    await expect
      .poll(() => colleague.getByTestId('chat-message').filter({ hasText: 'Eu cubro! 👍' }).getAttribute('data-own'))
      .toBe('true');
    // The admin had it open: it is read there too, so the admin's dot stays off.
    await poll(() => menuDot(admin).getAttribute('class')).toContain('MuiBadge-invisible');
    await shot(admin, 'conversation-1440');

    // A phone-sized screen shows one pane at a time: the list, then the conversation.
    await colleague.setViewportSize({ width: 390, height: 844 });
    await shot(colleague, 'conversation-390');
    await colleague.goto('/chats');
    await poll(() => colleague.getByTestId('chat-list-item').count()).toBe(1);
    await shot(colleague, 'list-390');
  });
});
