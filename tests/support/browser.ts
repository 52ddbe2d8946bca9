/**
 * Headless Chromium for browser tests: Debian's /usr/bin/chromium (installed by .ci/run) driven by
 * playwright-core, so no browser download is needed. Each launch gets a fresh profile: playwright
 * refuses --user-data-dir in launch() and creates a temp profile per launch itself.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { repoRoot } from '../../infra/local/lambda-runtime.ts';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface LaunchedBrowser {
  browser: Browser;
  /** A context with the given base URL (relative page.goto works). */
  newContext(baseURL?: string): Promise<BrowserContext>;
  close(): Promise<void>;
}

/** `args`: Chromium flags beside the usual ones (a fake microphone, say). */
export async function launchBrowser(options: { args?: string[] } = {}): Promise<LaunchedBrowser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...(options.args ?? []),
    ],
  });
  // Every context asks for reduced motion unless its options say otherwise (Playwright's own default
  // overrides Chromium's --force-prefers-reduced-motion). The app honours it (web/src/theme/
  // reduced-motion.ts): no spinner, pulse or slide keeps the renderer and compositor busy between
  // steps, and Playwright finds elements stable at once. About a third less Chromium CPU a file
  // (directory-pages: 48 -> 33 CPU-s), on CI's two cores.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = (options) => newContext({ reducedMotion: 'reduce', ...options });
  return {
    browser,
    newContext: (baseURL) => browser.newContext(baseURL ? { baseURL } : {}),
    async close() {
      await browser.close().catch(() => undefined);
    },
  };
}

/**
 * Types a day (and time) into one of the app's date fields (web/src/components/date-fields.tsx:
 * MUI X pickers, a section per part) the way a person does: a click on its first section, then the
 * digits in the interface language's order (day first in pt and es, month first in en), each
 * section moving on by itself once full. `field` is the field's hidden input (input[name=...]).
 */
export async function typeDate(
  page: Page,
  field: Locator,
  at: Date,
  { language = 'pt', time = false }: { language?: 'pt' | 'en' | 'es'; time?: boolean } = {},
): Promise<void> {
  const two = (n: number) => String(n).padStart(2, '0');
  const [day, month] = [two(at.getDate()), two(at.getMonth() + 1)];
  const digits = [...(language === 'en' ? [month, day] : [day, month]), String(at.getFullYear())];
  if (time) digits.push(two(at.getHours()), two(at.getMinutes()));
  await field.locator('xpath=..').getByRole('spinbutton').first().click();
  await page.keyboard.type(digits.join(''));
}

/** dd/MM/yyyy, as the app writes a day (yyyy-MM-dd) in pt. */
export const ptDay = (day: string) => day.split('-').reverse().join('/');

/** Where the browser tests leave their screenshots. */
export const ARTIFACTS = join(repoRoot, 'tests', 'artifacts');

/**
 * A test's screenshot taker: `shot(page, name)` writes tests/artifacts/<prefix>-<name>.png, the
 * whole page unless `fullPage: false`.
 */
export function screenshots(prefix: string) {
  mkdirSync(ARTIFACTS, { recursive: true });
  return (page: Page, name: string, { fullPage = true }: { fullPage?: boolean } = {}) =>
    page.screenshot({ path: join(ARTIFACTS, `${prefix}-${name}.png`), fullPage });
}

export interface PageOptions {
  /** The web app's URL (inject('webUrl')). */
  baseURL: string;
  locale?: string;
  viewport?: { width: number; height: number };
  /** Playwright's default wait: the machine is shared (2 cores) and a lazy page's first load is slow. */
  timeout?: number;
}

/** A page in a fresh context (no session), light, pt-BR at 1366x860 unless told otherwise. */
export async function openPage(
  launched: LaunchedBrowser,
  { baseURL, locale = 'pt-BR', viewport = { width: 1366, height: 860 }, timeout = 60_000 }: PageOptions,
): Promise<Page> {
  const context = await launched.browser.newContext({ baseURL, locale, colorScheme: 'light', viewport });
  context.setDefaultTimeout(timeout);
  return context.newPage();
}

/** Who signs a company up on /signup. */
export interface SignUpOwner {
  companyName: string;
  /** The person's own name ("Seu nome"). */
  ownerName: string;
  email: string;
  password: string;
  /** The plan's name as the Plano list offers it. */
  planName: string;
  phone?: string;
}

/**
 * A new customer of `company` (a word, e.g. 'Padaria'), unique to this run: the company, its owner
 * `ownerName`, an e-mail and password, and the plan name the test offers on the sign-up page.
 */
export function newOwner(company: string, ownerName: string): SignUpOwner {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const word = company.toLowerCase();
  return {
    planName: `Plano ${company} ${stamp}`,
    companyName: `${company} ${stamp}`,
    ownerName,
    email: `${ownerName.split(' ')[0]?.toLowerCase()}-${stamp}@${word}.test`,
    password: `${company}-1`,
  };
}

/** Opens the sign-up page and waits for its form (the first lazy load of a fresh build is slow). */
export async function openSignUp(page: Page): Promise<void> {
  await page.goto('/signup');
  await page.getByLabel('Nome da empresa').waitFor({ timeout: 90_000 });
}

/** Fills the sign-up form (pt) as a person does, the plan picked from its list. */
export async function fillSignUp(page: Page, owner: SignUpOwner): Promise<void> {
  await page.getByLabel('Nome da empresa').fill(owner.companyName);
  await page.getByLabel('Seu nome').fill(owner.ownerName);
  await page.getByLabel('E-mail').fill(owner.email);
  await page.getByLabel('Telefone').fill(owner.phone ?? '11987654321');
  await page.getByLabel('Senha', { exact: true }).fill(owner.password);
  await page.getByLabel('Plano').click();
  await page.getByRole('option', { name: owner.planName }).click();
  // The menu fades out before it unmounts.
  await page.locator('.MuiPopover-root').waitFor({ state: 'detached' });
}

/** Presses Cadastrar and waits for the inbox the new owner is signed in to; the new company's id. */
export async function submitSignUp(page: Page): Promise<number> {
  const created = page.waitForResponse(
    (res) => new URL(res.url()).pathname.endsWith('/companies/cadastro') && res.request().method() === 'POST',
    { timeout: 90_000 },
  );
  await page.getByRole('button', { name: 'Cadastrar' }).click();
  const company = (await (await created).json()) as { id: number };
  // The inbox's lazy page is a first load too.
  await page.waitForURL('**/tickets', { timeout: 90_000 });
  return company.id;
}

/** Signs a new company up on /signup (pt) and lands in its owner's inbox; the new company's id. */
export async function signUpPage(page: Page, owner: SignUpOwner): Promise<number> {
  await openSignUp(page);
  await fillSignUp(page, owner);
  return submitSignUp(page);
}

/** The subscription wizard's Dados step, as the billing tests fill it. */
export interface BillingAddress {
  firstName: string;
  lastName: string;
  address2: string;
  city: string;
  state: string;
  zipcode: string;
}

/** Fills the subscription wizard's Dados step (subscription-wizard). */
export async function fillWizardDados(page: Page, address: BillingAddress): Promise<void> {
  const wizard = page.getByTestId('subscription-wizard');
  for (const [name, value] of Object.entries(address)) await wizard.locator(`input[name=${name}]`).fill(value);
}

/** The wizard's Personalizar step: the card of the plan named `planName`. */
export function wizardPlanCard(page: Page, planName: string): Locator {
  return page.getByTestId('subscription-wizard').getByText(planName).locator('xpath=ancestor::div[contains(@class,"MuiCard-root")]');
}

/**
 * From /subscription, Subscribe now through the wizard (Dados, Personalizar, Revisar) to the PIX QR,
 * as a person does: the address typed, the plan `planName` chosen, priced `amount` (e.g. 'R$ 99,90')
 * on its card, the review and the QR, never in another currency. `shot` sees each step
 * (wizard-dados, wizard-personalizar, wizard-revisar, pix-qr). The PIX code shown.
 */
export async function subscribeToPix(
  page: Page,
  {
    planName,
    amount,
    address,
    shot,
  }: { planName: string; amount: string; address: BillingAddress; shot?: (page: Page, name: string) => Promise<unknown> },
): Promise<string> {
  await page.getByTestId('subscribe-now').click();
  const wizard = page.getByTestId('subscription-wizard');
  await wizard.waitFor();
  for (const step of ['Dados', 'Personalizar', 'Revisar']) await wizard.getByText(step, { exact: true }).waitFor();
  await fillWizardDados(page, address);
  await shot?.(page, 'wizard-dados');
  await wizard.getByRole('button', { name: 'Próximo' }).click();
  const card = wizardPlanCard(page, planName);
  await card.waitFor();
  // One currency through the wizard: the Customise step prices the plan as the invoice will.
  await card.getByText(amount, { exact: false }).waitFor();
  if ((await wizard.textContent())?.includes('COP$')) throw new Error('the wizard prices a plan in COP$');
  await shot?.(page, 'wizard-personalizar');
  await card.getByRole('button', { name: 'Escolher' }).click();
  await page.getByTestId('subscription-review').getByText(amount, { exact: false }).waitFor();
  await shot?.(page, 'wizard-revisar');
  await page.getByTestId('subscription-pay').click();
  // The PIX QR, for the charge the wizard created (with its invoice)
  const pix = page.getByTestId('pix-payment');
  await pix.waitFor();
  await pix.getByText(amount, { exact: false }).waitFor();
  await page.waitForFunction(() => {
    const img = document.querySelector<HTMLImageElement>('[data-testid="pix-payment"] img');
    return Boolean(img?.complete && img.naturalWidth > 0);
  });
  await shot?.(page, 'pix-qr');
  return page.getByTestId('pix-code').inputValue();
}

/**
 * Pays a company's pending charge on the local fake Asaas' page (what the README tells people to
 * pay with) with its Pay button, and waits for our webhook's 200. `shot` sees the page before and
 * after paying.
 */
export async function payOnProviderPage(
  from: Page,
  providerUrl: string,
  { companyName, amount, shot }: { companyName: string; amount: string; shot?: (page: Page, name: string) => Promise<unknown> },
): Promise<void> {
  const provider = await from.context().newPage();
  await provider.goto(providerUrl);
  const row = provider.locator('tr', { hasText: companyName });
  await row.waitFor({ timeout: 30_000 });
  const table = (await provider.locator('table').textContent()) ?? '';
  if (table.includes('undefined')) throw new Error(`the provider's page shows "undefined": ${table}`);
  await row.getByText(amount).waitFor();
  await row.getByText('PENDING').waitFor();
  await shot?.(provider, 'provider-page');
  await row.getByRole('button', { name: 'Pay' }).click();
  await provider.getByRole('status').getByText('the webhook answered 200').waitFor();
  await row.getByText('RECEIVED').waitFor();
  await shot?.(provider, 'provider-paid');
  await provider.close();
}

/**
 * Signs in through the login page as a person does, and waits for the page it lands on (the inbox
 * unless told). The login form gets 90 s to show: a first lazy load of a fresh build is slow on a
 * busy machine.
 */
export async function signInPage(page: Page, email: string, password: string, landsOn = '**/tickets'): Promise<void> {
  await page.goto('/login');
  await page.locator('input[name=email]').waitFor({ timeout: 90_000 });
  await page.fill('input[name=email]', email);
  await page.fill('input[name=password]', password);
  await page.click('button[type=submit]');
  await page.waitForURL(landsOn);
}
