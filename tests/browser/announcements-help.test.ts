/**
 * Issue 12's screens in headless Chromium over the local stack, in two browsers at once: the super
 * user creates an announcement with an image on /announcements and a company's admin, already signed
 * in, sees the top bar's dot come back live and opens the viewer (image and text); the help video
 * modal opens from its card and Escape closes it; the Messages API page shows this stack's real
 * endpoint, and its text and media forms send with a connection's token what reaches the simulated
 * phone; the to-do list adds, completes, edits and deletes, and keeps its tasks across a reload.
 * Screenshots (1440 and 390 px, light and dark) go to tests/artifacts/.
 */
import { randomInt } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../../infra/local/lambda-runtime.ts';
import { client, createTenant, firstPlanId, superLogin, type Tenant } from '../integration/tenants.ts';
import { type ConnectionSetup, connectedConnection, ok, type Simulator, simulator, waitUntil } from '../integration/whatsapp-kit.ts';
import { launchBrowser, signInPage } from '../support/browser.ts';

const artifacts = join(repoRoot, 'tests', 'artifacts');
const shot = (page: Page, name: string) => page.screenshot({ path: join(artifacts, `announcements-help-${name}.png`) });
/** A real picture (a 480x240 two-colour PNG) as a super user's image would arrive, big enough to see in the screenshots. */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) rows.set(y < height / 2 ? [13, 124, 120] : [245, 166, 35], y * (width * 3 + 1) + 1 + x * 3);
  const signature = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}
const PNG = png(480, 240);
const CONNECTION_TOKEN = `api-test-token-${randomInt(1e9)}`;
const YOUTUBE_ID = 'dQw4w9WgXcQ';
const HELP_TITLE = `Primeiros passos ${randomInt(1e6)}`;

let sim: Simulator;
let tenant: Tenant;
let setup: ConnectionSetup;
let browser: Browser;
const contexts: BrowserContext[] = [];
let company: Page;
let admin: Page;

async function signIn(email: string, password: string, width = 1440): Promise<Page> {
  const context = await browser.newContext({
    baseURL: inject('webUrl'),
    locale: 'en-US',
    colorScheme: 'light',
    viewport: { width, height: 900 },
  });
  contexts.push(context);
  const page = await context.newPage();
  // A full page load boots the whole app (session, user, socket); on the shared 2-core machine under
  // other test runs that has taken over 30 s, Playwright's default.
  page.setDefaultTimeout(90_000);
  await signInPage(page, email, password);
  return page;
}

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  const call = client(inject('apiUrl'));
  sim = simulator(inject('simulatorUrl'));
  // Everything the super user does over the API comes first: their browser sign-in ends this session.
  const superToken = await superLogin(call, inject('admin'));
  tenant = await createTenant(call, superToken, await firstPlanId(call), 'announce-web');
  await ok(call, 'POST', '/helps', {
    token: superToken,
    body: { title: HELP_TITLE, description: 'Como atender', video: `https://youtu.be/${YOUTUBE_ID}` },
  });
  await ok(call, 'POST', '/announcements', { token: superToken, body: { title: 'Bem-vindos', text: 'Anúncio anterior', priority: 3 } });
  setup = await connectedConnection(call, sim, {
    token: tenant.admin.token,
    companyId: tenant.companyId,
    queues: ['API'],
    connection: { token: CONNECTION_TOKEN },
  });
  browser = (await launchBrowser()).browser;
  company = await signIn(tenant.admin.email, tenant.admin.password);
  admin = await signIn(inject('admin').email, inject('admin').password);
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close().catch(() => undefined);
});

const dotShown = (page: Page) => page.getByTestId('announcements-button').getAttribute('data-dot');

describe('announcements, help, messages API and to-do', { timeout: 300_000 }, () => {
  it('the super user creates an announcement; a signed-in company admin sees the dot live and opens the viewer', async () => {
    // Prepare: an announcement from before shows the dot; the company's admin opens the popover and the
    // dot goes, for good (SPEC 4 "Badges").
    await waitUntil('the dot for the earlier announcement', async () => (await dotShown(company)) === 'true');
    await company.getByTestId('announcements-button').click();
    await company.keyboard.press('Escape');
    await waitUntil('the dot is hidden once opened', async () => (await dotShown(company)) === 'false');
    await company.reload();
    await waitUntil(
      'the list is loaded again',
      async () => Number(await company.getByTestId('announcements-button').getAttribute('data-count')) > 0,
    );
    expect(await dotShown(company), 'still hidden after a reload').toBe('false');
    const title = `Manutenção programada ${randomInt(1e6)}`;
    // Act: the super user writes it, high priority, with an image.
    await admin.goto('/announcements');
    await admin.getByTestId('announcements-table').waitFor();
    await admin.getByRole('button', { name: 'New announcement' }).click();
    const dialog = admin.getByTestId('announcement-dialog');
    await dialog.locator('input[name=title]').fill(title);
    await dialog.locator('textarea[name=text]').first().fill('Sábado das 22h às 23h o sistema ficará fora do ar.');
    await dialog.getByTestId('announcement-priority').click();
    await admin.getByRole('option', { name: 'High' }).click();
    await dialog.getByTestId('announcement-file').setInputFiles({ name: 'aviso.png', mimeType: 'image/png', buffer: PNG });
    await dialog.getByTestId('announcement-attachment').waitFor();
    await shot(admin, 'dialog-1440');
    await dialog.getByRole('button', { name: 'Add' }).click();
    await dialog.waitFor({ state: 'detached' });
    await admin.getByTestId('announcements-table').getByText(title).waitFor();
    await admin.getByTestId('announcements-table').getByText('aviso.png').waitFor();
    await shot(admin, 'page-1440');
    // Assess: live on the company's screen, no reload.
    await waitUntil('the dot is back', async () => (await dotShown(company)) === 'true');
    await shot(company, 'dot-1440');
    await company.getByTestId('announcements-button').click();
    const item = company.getByTestId('announcement-item').filter({ hasText: title });
    await item.waitFor();
    expect(await item.getAttribute('data-priority')).toBe('1');
    await shot(company, 'popover-1440');
    await item.click();
    const viewer = company.getByTestId('announcement-viewer');
    await viewer.getByText('Sábado das 22h às 23h o sistema ficará fora do ar.').waitFor();
    const image = viewer.getByTestId('announcement-image');
    await image.waitFor();
    await waitUntil('the image is decoded', () => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth === 480));
    expect(await dotShown(company)).toBe('false');
    await shot(company, 'viewer-1440');
    await company.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });
  });

  it('opens a help video in its sandboxed embed and closes it with Escape', async () => {
    await company.goto('/helps');
    const card = company.getByTestId('help-card').filter({ hasText: HELP_TITLE });
    await card.waitFor();
    await shot(company, 'helps-1440');
    await card.click();
    const modal = company.getByTestId('video-modal');
    const frame = modal.getByTestId('video-frame');
    await frame.waitFor();
    expect(await frame.getAttribute('src')).toBe(`https://www.youtube-nocookie.com/embed/${YOUTUBE_ID}`);
    expect(await frame.getAttribute('sandbox')).toBe('allow-scripts allow-same-origin allow-presentation');
    await shot(company, 'video-modal-1440');
    await company.keyboard.press('Escape');
    await modal.waitFor({ state: 'detached' });
  });

  it("documents the stack's real endpoint and its text and media forms send with the connection's token to the phone", async () => {
    await company.goto('/messages-api');
    const endpoint = company.getByTestId('messages-api-endpoint');
    await endpoint.waitFor();
    expect(await endpoint.textContent()).toBe(`POST ${inject('apiUrl').replace(/\/$/, '')}/api/messages/send`);
    const form = company.getByTestId('messages-api-text-form');
    await form.getByTestId('messages-api-text-connection').click();
    await company.getByRole('option', { name: `Phone ${setup.connectionId}` }).click();
    expect(await form.locator('input[name=token]').inputValue()).toBe(CONNECTION_TOKEN);
    const number = `55119${randomInt(10_000_000, 99_999_999)}`;
    const body = `Teste da API ${randomInt(1e6)}`;
    await form.locator('input[name=number]').fill(`+55 (11) 9${number.slice(5, 9)}-${number.slice(9)}`);
    await form.locator('textarea[name=body]').first().fill(body);
    await shot(company, 'messages-api-1440');
    await form.getByRole('button', { name: 'Send' }).click();
    await company.getByText('Message sent successfully').waitFor();
    await waitUntil('the message reaches the phone', async () =>
      (await sim.chat(setup.simId, number)).some((m) => m.from === 'us' && m.body === body),
    );
    await company.getByText('Message sent successfully').waitFor({ state: 'detached' });
    // The media form: multipart with the file in `medias`, as documented.
    const media = company.getByTestId('messages-api-media-form');
    await media.getByTestId('messages-api-media-connection').click();
    await company.getByRole('option', { name: `Phone ${setup.connectionId}` }).click();
    await media.locator('input[name=number]').fill(number);
    await media.getByTestId('messages-api-file').setInputFiles({ name: 'foto.png', mimeType: 'image/png', buffer: PNG });
    await media.getByRole('button', { name: 'Send' }).click();
    await company.getByText('Message sent successfully').waitFor();
    await waitUntil('the picture reaches the phone', async () =>
      (await sim.chat(setup.simId, number)).some(
        (m) => m.from === 'us' && (m as { media?: { base64: string } }).media?.base64 === PNG.toString('base64'),
      ),
    );
  });

  it('keeps a local to-do list: add, complete, edit, delete, and it survives a reload', async () => {
    await company.goto('/todolist');
    const input = company.getByTestId('todo-input');
    await input.fill('   ');
    await input.press('Enter');
    await input.fill('Ligar para o cliente');
    await input.press('Enter');
    await input.fill('Revisar tickets');
    await input.press('Enter');
    const items = company.getByTestId('todo-item');
    await waitUntil('two tasks, the blank one ignored', async () => (await items.count()) === 2);
    await items.first().getByRole('checkbox').check();
    await items.nth(1).getByRole('button', { name: 'Edit' }).click();
    await company.getByTestId('todo-edit-input').fill('Revisar tickets pendentes');
    await company.getByTestId('todo-edit-input').press('Enter');
    await company.reload();
    await items.first().waitFor();
    expect(await items.first().getAttribute('data-done')).toBe('true');
    await items.nth(1).getByText('Revisar tickets pendentes').waitFor();
    await shot(company, 'todo-1440');
    await items.first().getByRole('button', { name: 'Delete' }).click();
    await waitUntil('one task left', async () => (await items.count()) === 1);
  });

  it('fits 390 px and the dark theme (screenshots)', async () => {
    await company.setViewportSize({ width: 390, height: 844 });
    await company.emulateMedia({ colorScheme: 'dark' });
    for (const path of ['/helps', '/messages-api', '/todolist']) {
      await company.goto(path);
      // The page's own title, first: on /messages-api the API reference adds an h1 of its own once it has loaded.
      await company.getByRole('heading', { level: 1 }).first().waitFor();
      expect(await company.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), path).toBe(true);
      await shot(company, `${path.slice(1)}-390-dark`);
    }
    await company.getByTestId('announcements-button').click();
    await company.getByTestId('announcement-item').first().waitFor();
    await shot(company, 'popover-390-dark');
    await company.keyboard.press('Escape');
    await admin.setViewportSize({ width: 390, height: 844 });
    await admin.emulateMedia({ colorScheme: 'dark' });
    await admin.reload();
    await admin.getByTestId('announcements-table').waitFor();
    await shot(admin, 'page-390-dark');
  });
});
