/**
 * The web app's password reset in headless Chromium (issue 21, finding 2b; SPEC 4 "Password reset"):
 * the page goes through the API's routes (SPEC 7), which mail a code of our own in the browser's
 * language, so a wrong code is counted and answered in the interface language, and a phone signed in
 * before the reset loses its session and its socket.
 * Nothing is sent straight to Cognito. Screenshots go to tests/artifacts/reset-*.png.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../../infra/local/lambda-runtime.ts';
import { type Api, createApi } from '../support/api.ts';
import { type LaunchedBrowser, launchBrowser } from '../support/browser.ts';
import { lastResetCode, mailsTo } from '../support/mail.ts';
import { connectSocket } from '../support/socket.ts';

const artifacts = join(repoRoot, 'tests', 'artifacts');
const shot = (page: Page, name: string) => page.screenshot({ path: join(artifacts, `reset-${name}.png`) });

let api: Api;
let launched: LaunchedBrowser;
let adminToken: string;

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  api = createApi();
  const admin = inject('admin');
  const superToken = (await api.login(admin.email, admin.password)).token;
  adminToken = (await api.createCompanyWithAdmin(superToken, { label: 'reset-web' })).admin.token;
  launched = await launchBrowser();
});

afterAll(async () => {
  await launched?.close();
});

describe('the reset page', { timeout: 180_000 }, () => {
  it('resets through the API: a wrong code is refused in Portuguese, then the phone signed in before is signed out', async () => {
    // Prepare: the "phone", signed in with the old password, with its socket open
    const user = await api.createUser(adminToken);
    const phone = await api.login(user.email, user.password);
    const socket = await connectSocket(inject('wsUrl'), phone.token);
    const context = await launched.browser.newContext({
      baseURL: inject('webUrl'),
      locale: 'pt-BR',
      viewport: { width: 1280, height: 800 },
    });
    const page = await context.newPage();
    const cognitoCalls: string[] = [];
    page.on('request', (request) => {
      if (request.url().startsWith(inject('cognito').endpoint)) cognitoCalls.push(String(request.headers()['x-amz-target']));
    });
    try {
      // Act: step one
      const since = Date.now();
      await page.goto('/forgetpsw');
      await page.getByLabel('E-mail', { exact: true }).waitFor({ timeout: 90_000 });
      await page.getByLabel('E-mail', { exact: true }).fill(user.email);
      await page.click('button[type=submit]');
      await page.getByText('E-mail enviado com sucesso!').waitFor();
      const code = await lastResetCode(user.email, { since });
      // Mailed by our API (not Cognito), in the page's language: the browser's Accept-Language
      expect((await mailsTo(user.email)).at(-1)?.subject).toBe('Seu código para redefinir a senha do Conversa');
      // A wrong code first: the API's ERR_INVALID_RESET_CODE, in the interface's language
      await page.getByLabel('Código de verificação', { exact: true }).fill(code === '00000000' ? '11111111' : '00000000');
      await page.getByLabel('Nova senha', { exact: true }).fill('Changed123');
      await page.getByLabel('Confirmar senha', { exact: true }).fill('Changed123');
      await page.click('button[type=submit]');
      await page.getByText('Código de verificação inválido ou expirado.').waitFor();
      await shot(page, 'wrong-code');
      // Step two with the right code
      await page.getByLabel('Código de verificação', { exact: true }).fill(code ?? '');
      await page.click('button[type=submit]');
      await page.waitForURL('**/login');
      await shot(page, 'done');
      // Assess: the phone is out everywhere; the browser never called Cognito itself
      expect(await api.call('GET', '/tickets', { token: phone.token })).toMatchObject({ status: 401 });
      await socket.closed();
      expect(cognitoCalls).toEqual([]);
      expect((await api.login(user.email, 'Changed123')).token).toBeTruthy();
    } finally {
      socket.close();
      await context.close();
    }
  });
});
