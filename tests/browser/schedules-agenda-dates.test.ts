/**
 * Dates on one screen agree (issue 25, minors): the Schedules agenda's header wrote its range in the
 * language's short date (12/01/2026 in en) while its rows wrote the day as a fixed dd/MM ("Tue
 * 02/12" for December 2nd), so in English the same screen read day-first and month-first at once.
 * Here, in headless Chromium over the local stack, in en and pt: a schedule a few days ahead; the
 * agenda's header and the schedule's row write their days in the same order, the language's.
 */
import { randomInt } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { addDays, format, setHours, startOfHour } from 'date-fns';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../../infra/local/lambda-runtime.ts';
import { type Call, client, createTenant, firstPlanId, superLogin, type Tenant } from '../integration/tenants.ts';
import { ok } from '../integration/whatsapp-kit.ts';
import { type LaunchedBrowser, launchBrowser, signInPage } from '../support/browser.ts';

const artifacts = join(repoRoot, 'tests', 'artifacts');

let call: Call;
let tenant: Tenant;
let launched: LaunchedBrowser;
// Three days ahead at 10:00 (the browser's and this process' clock agree): day and month differ
// on most dates, and a clash would only weaken the check for that run.
const sendAt = startOfHour(setHours(addDays(new Date(), 3), 10));

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  call = client(inject('apiUrl'));
  const superToken = await superLogin(call, inject('admin'));
  tenant = await createTenant(call, superToken, await firstPlanId(call), 'schedules-agenda');
  // The company's clock (issue 25 "One time zone") is this process's, whose local times the expectations write.
  await ok(call, 'PUT', '/settings/timezone', {
    token: tenant.admin.token,
    body: { value: Intl.DateTimeFormat().resolvedOptions().timeZone },
  });
  const contact = await ok<{ id: number }>(call, 'POST', '/contacts', {
    token: tenant.admin.token,
    body: { name: 'Dora Datas', number: `55119${randomInt(10_000_000, 99_999_999)}` },
  });
  await ok(call, 'POST', '/schedules', {
    token: tenant.admin.token,
    body: { body: 'Lembrete da consulta', contactId: contact.id, sendAt: sendAt.toISOString() },
  });
  launched = await launchBrowser();
});

afterAll(async () => {
  await launched?.close();
});

async function agenda(locale: string, agendaButton: string): Promise<{ page: Page; header: string; row: string }> {
  const context = await launched.browser.newContext({ baseURL: inject('webUrl'), locale, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signInPage(page, tenant.admin.email, tenant.admin.password);
  await page.goto('/schedules');
  await page.getByTestId('schedules-calendar').getByRole('button', { name: agendaButton, exact: true }).click();
  const row = page.locator('.rbc-agenda-table tbody tr').filter({ hasText: 'Dora Datas' }).locator('.rbc-agenda-date-cell');
  await row.waitFor({ timeout: 60_000 });
  const header = (await page.locator('.rbc-toolbar-label').textContent()) ?? '';
  await page.screenshot({ path: join(artifacts, `schedules-agenda-${locale}.png`) });
  return { page, header, row: (await row.textContent()) ?? '' };
}

describe('the agenda writes its days one way', () => {
  it('en: month first in the header and in the rows', async () => {
    const { page, header, row } = await agenda('en-US', 'Agenda');
    expect(header).toContain(format(new Date(), 'MM/dd/yyyy'));
    expect(row).toBe(`${format(sendAt, 'EEE')} ${format(sendAt, 'MM/dd')}`);
    await page.context().close();
  }, 180_000);

  it('pt: day first in the header and in the rows', async () => {
    const { page, header, row } = await agenda('pt-BR', 'Agenda');
    expect(header).toContain(format(new Date(), 'dd/MM/yyyy'));
    expect(row.endsWith(` ${format(sendAt, 'dd/MM')}`)).toBe(true);
    await page.context().close();
  }, 180_000);
});
