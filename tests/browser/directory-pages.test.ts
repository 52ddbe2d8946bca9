/**
 * The Contacts, Tags and Quick messages screens in headless Chromium over the local stack, as the
 * seeded admin: a contact is created (after the SPEC 5 messages on bad input), searched, edited and
 * refused when its number is taken; the CSV export downloads contatos.csv with `;`; an .xlsx built
 * here is imported and its rows show; a tag is created with its ticket count; a tag made elsewhere
 * appears live; a quick message is saved with an attachment whose name shows in the table. In a
 * tenant of its own, an attendant opens a ticket from a contact (and is told who already attends
 * another one, ERR_OTHER_OPEN_TICKET).
 * Screenshots go to tests/artifacts/.
 */
import { randomInt } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { utils, write } from '@e965/xlsx';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../../infra/local/lambda-runtime.ts';
import { type Call, client, createTenant, firstPlanId, superLogin } from '../integration/tenants.ts';
import { ok } from '../integration/whatsapp-kit.ts';
import { type LaunchedBrowser, launchBrowser, signInPage } from '../support/browser.ts';

const artifacts = join(repoRoot, 'tests', 'artifacts');
const shot = (page: Page, name: string) => page.screenshot({ path: join(artifacts, `directory-${name}.png`) });

/** The seeded company is shared with other tests: everything made here carries this run's marker. */
const run = randomInt(100_000, 999_999);
const contactName = `Dirtest ${run} Ana`;
const editedName = `Dirtest ${run} Ana Paula`;
const contactNumber = `55119${randomInt(10_000_000, 99_999_999)}`;
const importNames = [`Dirimport ${run} Bruno`, `Dirimport ${run} Carla`];
const tagName = `Dirtag ${run}`;
const shortcode = `dir${run}`;

let call: Call;
let launched: LaunchedBrowser;
let context: BrowserContext;
let page: Page;

const dialog = (testId: string) => page.getByTestId(testId);
/**
 * The browser session's own ID token (Amplify keeps it in localStorage): a second sign-in of the
 * same account would end the browser's session (SPEC 4), so "another session" writes with this one.
 */
const browserToken = () =>
  page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => k.startsWith('CognitoIdentityServiceProvider.') && k.endsWith('.idToken'));
    return key ? (localStorage.getItem(key) ?? '') : '';
  });
const tableRow = (table: string, text: string): Locator => page.getByTestId(table).locator('tbody tr', { hasText: text });

/**
 * What the page's sockets and its GET /tags did, with times: the "created elsewhere" tag check has
 * failed twice in many runs (sessions 20 and 23) with no error on the server, so a failure now says
 * whether the tag's frame reached the page and whether the page asked for the tags again.
 */
const traffic: string[] = [];
const started = Date.now();
const note = (line: string) => traffic.push(`${Date.now() - started} ms ${line}`);

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  call = client(inject('apiUrl'));
  launched = await launchBrowser();
  context = await launched.browser.newContext({
    baseURL: inject('webUrl'),
    locale: 'en-US',
    colorScheme: 'light',
    viewport: { width: 1366, height: 800 },
    acceptDownloads: true,
  });
  page = await context.newPage();
  page.on('websocket', (socket) => {
    note(`socket opened ${socket.url().replace(/token=[^&]+/, 'token=…')}`);
    socket.on('framereceived', ({ payload }) => note(`frame ${String(payload).slice(0, 160)}`));
    socket.on('close', () => note('socket closed'));
  });
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.endsWith('/tags')) note(`GET ${new URL(response.url()).search} ${response.status()}`);
  });
  const admin = inject('admin');
  await signInPage(page, admin.email, admin.password);
});

afterAll(async () => {
  await context?.close();
  await launched?.close();
});

describe('contacts', { timeout: 120_000 }, () => {
  it('shows the SPEC 5 messages on bad input, then creates the contact', async () => {
    // Prepare
    await page.goto('/contacts');
    await page.getByRole('heading', { name: 'Contacts' }).waitFor();
    await page.getByRole('button', { name: 'Add contact' }).click();
    const form = dialog('contact-dialog');
    // Act: nothing filled, then too short and a bad email.
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    // Assess
    await expect.poll(() => form.textContent()).toContain('Required');
    await form.locator('input[name=name]').fill('A');
    await form.locator('input[name=number]').fill('1234');
    await form.locator('input[name=email]').fill('not-an-email');
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    await expect.poll(() => form.textContent()).toContain('Too Short!');
    await expect(form.textContent()).resolves.toContain('Invalid email');
    await shot(page, '1-contact-validation');

    // Act: valid input with one extra information row.
    await form.locator('input[name=name]').fill(contactName);
    await form.locator('input[name=number]').fill(contactNumber);
    await form.locator('input[name=email]').fill(`ana${run}@example.com`);
    await form.getByRole('button', { name: 'Add information' }).click();
    await form.getByLabel('Field name').fill('CPF');
    await form.getByLabel('Value').fill('123.456.789-00');
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    // Assess
    await form.waitFor({ state: 'hidden' });
    await page.getByText('Contact saved successfully.').first().waitFor();
  });

  it('finds the contact with the search and edits it', async () => {
    // Act
    await page.getByPlaceholder('Search (3+ characters)').fill(`Dirtest ${run}`);
    // Assess: the server's search leaves only this run's contact.
    const row = tableRow('contacts-table', contactName);
    await row.waitFor();
    await expect.poll(() => page.getByTestId('contacts-table').locator('tbody tr').count()).toBe(1);
    // Shown as people write it (country code, area code, groups), not as stored.
    await expect(row.textContent()).resolves.toContain(`+55 11 ${contactNumber.slice(4, 9)} ${contactNumber.slice(9)}`);

    // Act: edit; the dialog loads the contact with its extra information.
    await row.getByRole('button', { name: 'Edit' }).click();
    const form = dialog('contact-dialog');
    await expect.poll(() => form.locator('input[name=name]').inputValue()).toBe(contactName);
    await expect(form.getByLabel('Value').inputValue()).resolves.toBe('123.456.789-00');
    await form.locator('input[name=name]').fill(editedName);
    await form.getByRole('button', { name: 'Save' }).click();
    // Assess
    await form.waitFor({ state: 'hidden' });
    await tableRow('contacts-table', editedName).waitFor();
    await shot(page, '2-contact-searched-edited');
  });

  it('refuses a second contact with the same number (ERR_DUPLICATED_CONTACT)', async () => {
    await page.getByRole('button', { name: 'Add contact' }).click();
    const form = dialog('contact-dialog');
    await form.locator('input[name=name]').fill(`Dirtest ${run} Copy`);
    await form.locator('input[name=number]').fill(`+${contactNumber}`);
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    await expect.poll(() => form.textContent()).toContain('A contact with this number already exists.');
    await shot(page, '3-contact-duplicated');
    await form.getByRole('button', { name: 'Cancel' }).click();
    await form.waitFor({ state: 'hidden' });
  });

  it('exports contatos.csv separated by ;', async () => {
    // Act
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    // Assess
    expect(download.suggestedFilename()).toBe('contatos.csv');
    const text = readFileSync((await download.path()) as string, 'utf8').replace(/^\uFEFF/, '');
    const lines = text.split('\r\n');
    expect(lines[0]).toBe('name;number;email');
    expect(lines).toContain(`${editedName};${contactNumber};ana${run}@example.com`);
  });

  it('imports an .xlsx after a confirmation and shows the imported rows', async () => {
    // Prepare: two good rows and one with a too short number.
    const book = utils.book_new();
    utils.book_append_sheet(
      book,
      utils.aoa_to_sheet([
        ['Nome', 'Numero', 'Email'],
        [importNames[0], `55218${randomInt(10_000_000, 99_999_999)}`, ''],
        [importNames[1], `55218${randomInt(10_000_000, 99_999_999)}`, `carla${run}@example.com`],
        [`Dirimport ${run} Bad`, '123', ''],
      ]),
      'Contatos',
    );
    const buffer = write(book, { bookType: 'xlsx', type: 'buffer' }) as Buffer;
    // Act
    await page.getByTestId('contacts-import-input').setInputFiles({
      name: 'contatos.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer,
    });
    const confirm = page.getByRole('dialog', { name: 'Import contacts?' });
    await expect.poll(() => confirm.textContent()).toContain('contatos.xlsx: 3 rows');
    await shot(page, '4-import-confirm');
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    // Assess
    const result = page.getByTestId('contacts-import-result');
    await expect.poll(() => result.textContent()).toContain('2 imported, 0 already existing, 1 with errors.');
    await expect(result.textContent()).resolves.toContain('Row 4, number: Too Short!');
    await shot(page, '5-import-result');
    await result.getByRole('button', { name: 'Close' }).click();
    await page.getByPlaceholder('Search (3+ characters)').fill(`Dirimport ${run}`);
    for (const name of importNames) await tableRow('contacts-table', name).waitFor();
    await expect.poll(() => page.getByTestId('contacts-table').locator('tbody tr').count()).toBe(2);
    await shot(page, '6-imported-rows');
  });

  it('imports a legacy .xls too (read in the browser: the server takes .xlsx only)', async () => {
    // Prepare
    const book = utils.book_new();
    utils.book_append_sheet(
      book,
      utils.aoa_to_sheet([
        ['name', 'number'],
        [`Dirimport ${run} Xavier`, `55218${randomInt(10_000_000, 99_999_999)}`],
      ]),
      'Plan1',
    );
    const buffer = write(book, { bookType: 'biff8', type: 'buffer' }) as Buffer;
    // Act
    await page.getByTestId('contacts-import-input').setInputFiles({ name: 'legado.xls', mimeType: 'application/vnd.ms-excel', buffer });
    const confirm = page.getByRole('dialog', { name: 'Import contacts?' });
    await expect.poll(() => confirm.textContent()).toContain('legado.xls: 1 row with the columns name, number');
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    // Assess
    const result = page.getByTestId('contacts-import-result');
    await expect.poll(() => result.textContent()).toContain('1 imported, 0 already existing, 0 with errors.');
    await result.getByRole('button', { name: 'Close' }).click();
    await tableRow('contacts-table', `Dirimport ${run} Xavier`).waitFor();
  });

  it('shows a contact created elsewhere without a reload (company-{id}-contact)', async () => {
    const created = await call('POST', '/contacts', {
      token: await browserToken(),
      body: { name: `Dirimport ${run} Zoe`, number: `55218${randomInt(10_000_000, 99_999_999)}` },
    });
    expect(created.status).toBe(201);
    await tableRow('contacts-table', `Dirimport ${run} Zoe`).waitFor({ timeout: 20_000 });
  });

  it('deletes a contact after a confirmation', async () => {
    // Act
    await tableRow('contacts-table', importNames[0] as string)
      .getByRole('button', { name: 'Delete' })
      .click();
    const confirm = page.getByRole('dialog', { name: `Delete ${importNames[0]}?` });
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    // Assess
    await page.getByText('Contact deleted successfully.').first().waitFor();
    await tableRow('contacts-table', importNames[0] as string).waitFor({ state: 'detached' });
    await expect(page.getByTestId('contacts-table').textContent()).resolves.toContain(importNames[1]);
  });
});

describe('tags', { timeout: 120_000 }, () => {
  it('validates, creates a tag and lists it with its ticket count', async () => {
    // Prepare
    await page.goto('/tags');
    await page.getByRole('heading', { name: 'Tags' }).waitFor();
    await page.getByRole('button', { name: 'Add tag' }).click();
    const form = dialog('tag-dialog');
    // Act
    await form.locator('input[name=name]').fill('ab');
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    await expect.poll(() => form.textContent()).toContain('Message too short');
    await form.locator('input[name=name]').fill(tagName);
    await form.getByRole('button', { name: '#1273DE' }).click();
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    // Assess: name, 0 tickets, and the colour on the chip.
    await form.waitFor({ state: 'hidden' });
    await page.getByRole('searchbox', { name: 'Search' }).fill(tagName);
    const row = tableRow('tags-table', tagName);
    await row.waitFor();
    await expect(row.locator('td').nth(1).textContent()).resolves.toBe('0');
    const chipColour = await row.locator('.MuiChip-root').evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(chipColour).toBe('rgb(18, 115, 222)');
    await shot(page, '7-tag-created');
  });

  it('shows a tag created elsewhere without a reload (company-{id}-tag)', async () => {
    // Act: another session creates a tag matching the current search.
    note('creating the tag');
    const created = await call('POST', '/tags', { token: await browserToken(), body: { name: `${tagName} live`, color: '#008B02' } });
    expect(created.status).toBe(201);
    note(`created tag ${(created.body as { id?: number }).id}`);
    // Assess
    await tableRow('tags-table', `${tagName} live`)
      .waitFor({ timeout: 20_000 })
      .catch((error: Error) => {
        throw new Error(`${error.message}\nthe page's sockets and tag reads:\n${traffic.slice(-40).join('\n')}`);
      });
  });
});

describe('quick messages', { timeout: 120_000 }, () => {
  it('requires a shortcode, inserts a variable at the cursor and saves an attachment', async () => {
    // Prepare
    await page.goto('/quick-messages');
    await page.getByRole('heading', { name: 'Quick replies' }).waitFor();
    // The header's Add (an empty list's hint has one too, c177d2d).
    await page.getByRole('button', { name: 'Add', exact: true }).first().click();
    const form = dialog('quick-message-dialog');
    // Act: no shortcode.
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    await expect.poll(() => form.textContent()).toContain('Required');
    // Act: fill, insert {nome} (the campaigns' placeholder, issue 25) between "Hello " and "!", attach a file with spaces in its name.
    await form.locator('input[name=shortcode]').fill(shortcode);
    const message = form.locator('textarea[name=message]');
    await message.fill('Hello !');
    await message.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(6, 6));
    await form.getByRole('button', { name: 'Insert at the cursor' }).click();
    await page.getByRole('menuitem', { name: /Contact name/ }).click();
    await expect.poll(() => message.inputValue()).toBe('Hello {nome}!');
    await form.getByTestId('quick-message-file').setInputFiles({
      name: 'price list.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4 price list'),
    });
    await expect(form.getByTestId('quick-message-attachment').textContent()).resolves.toBe('price list.pdf');
    await shot(page, '8-quick-message-dialog');
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    // Assess: the server stores the name with underscores (SPEC 5) and the table shows it.
    await form.waitFor({ state: 'hidden' });
    await page.getByRole('searchbox', { name: 'Search' }).fill(shortcode);
    const row = tableRow('quick-messages-table', shortcode);
    await row.waitFor();
    await expect.poll(() => row.textContent()).toContain('price_list.pdf');
    // The list shows what the reply says, not only its shortcode.
    await expect(row.locator('td').nth(1).textContent()).resolves.toContain('Hello {nome}!');
    await shot(page, '9-quick-message-listed');
  });

  it('edits a quick message and removes its attachment', async () => {
    // Act
    await tableRow('quick-messages-table', shortcode).getByRole('button', { name: 'Edit' }).click();
    const form = dialog('quick-message-dialog');
    await expect.poll(() => form.locator('textarea[name=message]').inputValue()).toBe('Hello {nome}!');
    await expect(form.getByTestId('quick-message-attachment').textContent()).resolves.toBe('price_list.pdf');
    await form.getByLabel('Remove attachment').click();
    await form.getByRole('button', { name: 'Save' }).click();
    // Assess
    await form.waitFor({ state: 'hidden' });
    // Columns: shortcode, reply text, attachment, actions.
    await expect.poll(() => tableRow('quick-messages-table', shortcode).locator('td').nth(2).textContent()).toBe('-');
  });

  it('shows a quick message made elsewhere without a reload (company-{id}-quickmessage)', async () => {
    const created = await call('POST', '/quick-messages', {
      token: await browserToken(),
      body: { shortcode: `${shortcode}live`, message: 'x' },
    });
    expect(created.status).toBe(201);
    await tableRow('quick-messages-table', `${shortcode}live`).waitFor({ timeout: 20_000 });
  });
});

describe('users page on the shared list scaffold', { timeout: 60_000 }, () => {
  it('lists and searches users with the same search box and table', async () => {
    await page.goto('/users');
    await page.getByRole('heading', { name: 'Users' }).waitFor();
    await page.getByRole('searchbox', { name: 'Search' }).fill(inject('admin').email);
    const rows = page.locator('tbody tr', { hasText: inject('admin').email });
    await rows.first().waitFor();
    await expect(rows.first().getByRole('button', { name: 'Edit' }).isVisible()).resolves.toBe(true);
  });
});

describe('opening a ticket from a contact', { timeout: 150_000 }, () => {
  let own: BrowserContext;

  afterAll(async () => {
    await own?.close();
  });

  it("opens the attendant's ticket, or says who already attends the contact", async () => {
    // Prepare: a tenant with a connection and a queue; the attendant works in that queue; the
    // admin already attends the second contact. Its admin and user never sign in in `page`.
    const tenant = await createTenant(call, await superLogin(call, inject('admin')), await firstPlanId(call), 'directory-web');
    const admin = { token: tenant.admin.token };
    const queue = await ok<{ id: number }>(call, 'POST', '/queue', { ...admin, body: { name: 'Vendas', color: '#1273DE' } });
    await ok(call, 'POST', '/whatsapp', {
      ...admin,
      body: { name: 'Phone', isDefault: true, queueIds: [queue.id], greetingMessage: 'Hi' },
    });
    await ok(call, 'PUT', `/users/${tenant.user.id}`, { ...admin, body: { queueIds: [queue.id] } });
    const free = await ok<{ id: number }>(call, 'POST', '/contacts', { ...admin, body: { name: 'Livre Lima', number: '5511911110001' } });
    const busy = await ok<{ id: number }>(call, 'POST', '/contacts', {
      ...admin,
      body: { name: 'Ocupado Orlando', number: '5511911110002' },
    });
    const ticket = await ok<{ id: number }>(call, 'POST', '/tickets', {
      ...admin,
      body: { contactId: busy.id, queueId: queue.id, status: 'open' },
    });
    const tag = await ok<{ id: number }>(call, 'POST', '/tags', { ...admin, body: { name: 'Urgente', color: '#B80000' } });
    await ok(call, 'PUT', `/ticket-tags/${ticket.id}/${tag.id}`, admin);
    expect(free.id).toBeGreaterThan(0);

    own = await launched.browser.newContext({ baseURL: inject('webUrl'), locale: 'en-US', viewport: { width: 1366, height: 800 } });
    const attendant = await own.newPage();
    await signInPage(attendant, tenant.user.email, tenant.user.password);
    await attendant.goto('/contacts');
    const row = (name: string) => attendant.getByTestId('contacts-table').locator('tbody tr', { hasText: name });

    // Act: someone else's contact.
    await row('Ocupado Orlando').getByRole('button', { name: 'Open ticket' }).click();
    // Assess
    const taken = attendant.getByRole('dialog', { name: 'This contact is already being attended' });
    await expect.poll(() => taken.textContent()).toContain('in the queue Vendas');
    await attendant.screenshot({ path: join(artifacts, 'directory-10-ticket-taken.png') });
    await taken.getByRole('button', { name: 'Close' }).click();

    // Act: a free contact.
    await row('Livre Lima').getByRole('button', { name: 'Open ticket' }).click();
    // Assess: the conversation opens by uuid.
    await attendant.waitForURL(/\/tickets\/[0-9a-f-]{36}$/);

    // Assess: the tag on the admin's ticket is counted.
    await attendant.goto('/tags');
    const tagRow = attendant.getByTestId('tags-table').locator('tbody tr', { hasText: 'Urgente' });
    await expect.poll(() => tagRow.locator('td').nth(1).textContent()).toBe('1');
    await attendant.screenshot({ path: join(artifacts, 'directory-11-tag-count.png') });

    // A phone-sized screen in Portuguese: the same page, translated, its actions wrapped.
    await attendant.setViewportSize({ width: 390, height: 800 });
    await attendant.evaluate(() => localStorage.setItem('language', 'pt'));
    await attendant.goto('/contacts');
    await attendant.getByRole('heading', { name: 'Contatos' }).waitFor();
    await attendant.getByRole('button', { name: 'Adicionar contato' }).waitFor();
    await attendant.screenshot({ path: join(artifacts, 'directory-12-contacts-narrow-pt.png') });
  });
});

describe('a tall screen', { timeout: 120_000 }, () => {
  let tall: BrowserContext | undefined;
  afterAll(async () => {
    await tall?.close();
  });

  it('shows the contacts past the first page without a scroll, which a page that fits the box cannot make', async () => {
    // Prepare: 45 contacts (pages of 20) in a tenant of their own, and a screen taller than a page.
    const tenant = await createTenant(call, await superLogin(call, inject('admin')), await firstPlanId(call), 'directory-tall');
    for (let i = 0; i < 45; i++)
      await ok(call, 'POST', '/contacts', {
        token: tenant.admin.token,
        body: { name: `Tall ${String(i).padStart(2, '0')}`, number: `55119${String(20_000_000 + i)}` },
      });
    tall = await launched.browser.newContext({ baseURL: inject('webUrl'), locale: 'en-US', viewport: { width: 1366, height: 1800 } });
    const admin = await tall.newPage();
    await signInPage(admin, tenant.admin.email, tenant.admin.password);

    // Act
    await admin.goto('/contacts');

    // Assess: pages load without a scroll until the rows pass the box's bottom (20 rows do not)...
    const rows = admin.getByTestId('contacts-table').locator('tbody tr', { hasText: 'Tall ' });
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBeGreaterThan(20);
    const box = admin.getByTestId('contacts-table');
    expect(await box.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
    await admin.screenshot({ path: join(artifacts, 'directory-13-tall-screen.png') });
    // ...and from there a scroll to the end brings the rest.
    await box.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(45);
  });
});
