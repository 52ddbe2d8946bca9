/**
 * Billing (issue 12) through the handlers, against DynamoDB Local, cognito-local and the fake Asaas
 * of the local stack (infra/local/payment-provider): the invoice job issues exactly once, the admins
 * of a company see its invoices only, POST /subscription charges through the provider and records
 * nothing when the provider fails, and the webhook is verified and idempotent.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakePaymentProvider, startPaymentProvider } from '../../infra/local/payment-provider/server.ts';
import { createAsaasClient } from '../src/adapters/asaas.ts';
import { invoiceDisplayStatus } from '../src/contracts/billing.ts';
import { issueDueInvoices } from '../src/domain/billing/invoices.ts';
import { renewedDueDate } from '../src/domain/billing/payment-webhook.ts';
import { PLATFORM_COMPANY_ID } from '../src/domain/billing/subscription.ts';
import { addDays, todayIso } from '../src/domain/companies/due-date.ts';
import { handler as authHandler } from '../src/handlers/http/auth.ts';
import { handler } from '../src/handlers/http/companies.ts';
import { getCompany, updateCompany } from '../src/storage/companies/companies.ts';
import { getInvoice, listInvoices } from '../src/storage/invoices.ts';
import { putSetting } from '../src/storage/settings.ts';
import { type CognitoLocal, startCognitoLocal } from './support/cognito-local.ts';
import { type DynamoDbLocal, startDynamoDbLocal } from './support/dynamodb-local.ts';
import { type EventOptions, httpEvent, parseResponse } from './support/events.ts';
import { createTestUser, ensureCompany, ensurePlan, type TestUser } from './support/tenants.ts';

const KEY = 'test-asaas-key';
const WEBHOOK_TOKEN = 'webhook-token-of-this-deployment';
const today = todayIso();

const listCall = async (options: EventOptions) => parseResponse(await handler(httpEvent('GET /invoices/all', options)));
const subscribeCall = async (options: EventOptions) => parseResponse(await handler(httpEvent('POST /subscription', options)));
const webhookCall = async (body: unknown, token: string | undefined = WEBHOOK_TOKEN) =>
  parseResponse(await handler(httpEvent('POST /subscription/webhook', { body, headers: token ? { 'asaas-access-token': token } : {} })));

let ddb: DynamoDbLocal;
let cognito: CognitoLocal;
let provider: FakePaymentProvider;

/** A company due in `dueInDays` with an admin and a plain user, its plan worth 49.9. */
async function billedCompany(id: number, dueInDays: number | null): Promise<{ admin: TestUser; user: TestUser }> {
  await ensurePlan({ id: 7, name: 'Pro', value: 49.9 });
  await ensureCompany({ id, planId: 7, dueDate: dueInDays === null ? null : addDays(today, dueInDays) });
  const [admin, user] = await Promise.all([createTestUser({ companyId: id, profile: 'admin' }), createTestUser({ companyId: id })]);
  return { admin, user };
}

const wizard = (invoiceId: number, plan = 7) => ({
  invoiceId,
  plan,
  firstName: 'Ana',
  lastName: 'Souza',
  address2: 'Rua A, 10',
  city: 'São Paulo',
  state: 'SP',
  zipcode: '01001-000',
  country: 'BR',
  cardNumber: '4111111111111111',
});

beforeAll(async () => {
  [ddb, cognito] = await Promise.all([startDynamoDbLocal(), startCognitoLocal()]);
  provider = await startPaymentProvider({ apiKey: KEY, webhook: { url: () => 'http://127.0.0.1:9/unused', token: WEBHOOK_TOKEN } });
  process.env.ASAAS_BASE_URL = provider.apiUrl;
  process.env.ASAAS_WEBHOOK_TOKEN = WEBHOOK_TOKEN;
  process.env.WS_MANAGEMENT_URL = 'http://127.0.0.1:9';
  await ensureCompany({ id: PLATFORM_COMPANY_ID });
  await putSetting(PLATFORM_COMPANY_ID, 'asaas', KEY);
}, 60_000);
afterAll(async () => {
  await provider?.close();
  await Promise.all([ddb?.stop(), cognito?.stop()]);
});

describe('invoice job', () => {
  it('issues one invoice per company within 20 days of its due date, exactly once across runs', async () => {
    // Prepare: due in 10 days, due in 30 days, expired 5 days ago, no due date
    // The plan first: ensureCompany would create a plan 7 of its own (worth 0) if it got there first.
    await ensurePlan({ id: 7, name: 'Pro', value: 49.9 });
    await Promise.all([
      ensureCompany({ id: 21, planId: 7, dueDate: addDays(today, 10) }),
      ensureCompany({ id: 22, planId: 7, dueDate: addDays(today, 30) }),
      ensureCompany({ id: 23, planId: 7, dueDate: addDays(today, -5) }),
      ensureCompany({ id: 24, planId: 7, dueDate: null }),
    ]);

    // Act: two overlapping runs, then a third
    await Promise.all([issueDueInvoices(), issueDueInvoices()]);
    await issueDueInvoices();

    // Assess
    const [c21 = [], c22 = [], c23 = [], c24 = []] = await Promise.all([21, 22, 23, 24].map((id) => listInvoices(id)));
    expect(c21).toHaveLength(1);
    expect(c21[0]).toMatchObject({ companyId: 21, dueDate: addDays(today, 10), value: 49.9, detail: 'Pro', status: 'open', planId: 7 });
    expect(c22).toHaveLength(0);
    expect(c23).toHaveLength(1);
    expect(c24).toHaveLength(0);

    // A new due date (after a renewal) is a new invoice, once.
    await updateCompany(22, { dueDate: addDays(today, 20) });
    await Promise.all([issueDueInvoices(), issueDueInvoices()]);
    expect(await listInvoices(22)).toHaveLength(1);
  });

  it('reads Pago, Vencido and Aberto from status and due date', () => {
    expect(invoiceDisplayStatus({ status: 'paid', dueDate: '2020-01-01' }, today)).toBe('paid');
    expect(invoiceDisplayStatus({ status: 'open', dueDate: addDays(today, -1) }, today)).toBe('overdue');
    expect(invoiceDisplayStatus({ status: 'open', dueDate: today }, today)).toBe('open');
  });
});

describe('GET /invoices/all', () => {
  it('shows a company admin its own invoices, paged and searchable; refuses plain users and garbage', async () => {
    // Prepare
    const a = await billedCompany(31, 5);
    const b = await billedCompany(32, 5);
    await issueDueInvoices();

    // Act
    const own = await listCall({ token: a.admin.idToken });
    const other = await listCall({ token: b.admin.idToken });
    const user = await listCall({ token: a.user.idToken });
    const searched = await listCall({ token: a.admin.idToken, query: { searchParam: 'nothing-like-this' } });
    const page2 = await listCall({ token: a.admin.idToken, query: { pageNumber: '2' } });
    const garbage = await listCall({ token: a.admin.idToken, query: { pageNumber: 'x' } });

    // Assess
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ hasMore: false, count: 1, records: [{ companyId: 31, status: 'open' }] });
    expect((other.body.records as { companyId: number }[]).every((invoice) => invoice.companyId === 32)).toBe(true);
    expect(user).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
    expect(searched.body).toMatchObject({ records: [], hasMore: false });
    expect(page2.body).toMatchObject({ records: [], hasMore: false });
    expect(garbage).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION', field: 'pageNumber' } });
  });

  it('stays reachable for an expired company, whose other routes answer 402', async () => {
    const { admin } = await billedCompany(33, -3);
    await issueDueInvoices();
    const res = await listCall({ token: admin.idToken });
    expect(res.status).toBe(200);
    expect((res.body.records as unknown[]).length).toBe(1);
    const plans = parseResponse(await handler(httpEvent('GET /companies/list', { token: admin.idToken })));
    expect(plans.status).toBe(402);
  });

  it("lets an expired company's admin claim a web session (to pay), not its plain users", async () => {
    const { admin, user } = await billedCompany(34, -3);
    const claim = async (token: string) => parseResponse(await authHandler(httpEvent('POST /auth/session', { token, body: {} })));
    expect(await claim(admin.idToken)).toMatchObject({ status: 200, body: { user: { id: admin.user.id } } });
    expect(await claim(user.idToken)).toMatchObject({ status: 402, body: { error: 'ERR_COMPANY_EXPIRED' } });
  });
});

describe('POST /subscription', () => {
  let admin: TestUser;
  let user: TestUser;
  let invoiceId: number;

  beforeEach(async () => {
    const id = 40 + Math.floor(Math.random() * 1000);
    ({ admin, user } = await billedCompany(id, -2));
    await issueDueInvoices();
    invoiceId = ((await listInvoices(id))[0] as { id: number }).id;
  });

  it('creates a PIX charge at the provider and answers its QR payload; asking again reuses it', async () => {
    const first = await subscribeCall({ token: admin.idToken, body: wizard(invoiceId) });
    const again = await subscribeCall({ token: admin.idToken, body: wizard(invoiceId) });

    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const body = first.body as { paymentId: string; qrcode: { qrcode: string; imagemQrcode: string }; valor: { original: string } };
    expect(body.valor.original).toBe('49.90');
    expect(body.qrcode.qrcode).toMatch(/^000201/);
    expect(body.qrcode.imagemQrcode).toMatch(/^data:image\/png;base64,/);
    expect(again.body).toMatchObject({ paymentId: body.paymentId });
    const charge = provider.payments.get(body.paymentId);
    expect(charge).toMatchObject({
      value: 49.9,
      billingType: 'PIX',
      dueDate: today,
      externalReference: `conversa:${admin.user.companyId}:${invoiceId}`,
    });
    expect(JSON.stringify(charge)).not.toContain('4111111111111111');
    expect(await getInvoice(admin.user.companyId, invoiceId)).toMatchObject({ paymentId: body.paymentId, status: 'open' });
  });

  it('answers 502 when the provider fails and records nothing', async () => {
    await fetch(`${provider.url}/api/outage`, { method: 'POST', body: JSON.stringify({ status: 500, count: 1 }) });
    const failed = await subscribeCall({ token: admin.idToken, body: wizard(invoiceId) });
    await fetch(`${provider.url}/api/outage`, { method: 'POST', body: JSON.stringify({ status: 0, count: 1 }) });
    const hungUp = await subscribeCall({ token: admin.idToken, body: wizard(invoiceId) });

    expect(failed).toMatchObject({ status: 502, body: { error: 'ERR_PAYMENT_PROVIDER' } });
    expect(hungUp).toMatchObject({ status: 502, body: { error: 'ERR_PAYMENT_PROVIDER' } });
    expect((await getInvoice(admin.user.companyId, invoiceId))?.paymentId).toBeUndefined();
  });

  it('times out a provider that does not answer', async () => {
    await fetch(`${provider.url}/api/outage`, { method: 'POST', body: JSON.stringify({ status: -1, count: 1 }) });
    const impatient = createAsaasClient(KEY, provider.apiUrl, 300);
    await expect(impatient.pixQrCode('pay_x')).rejects.toMatchObject({
      code: 'ERR_PAYMENT_PROVIDER',
      status: 502,
      extra: { reason: 'timeout' },
    });
  });

  it('refuses plain users, other tenants, unknown and paid invoices, plans with nothing to pay and garbage', async () => {
    const stranger = await billedCompany(2000 + Math.floor(Math.random() * 1000), 5);
    await ensurePlan({ id: 8, name: 'Free', value: 0 });

    expect(await subscribeCall({ token: user.idToken, body: wizard(invoiceId) })).toMatchObject({
      status: 403,
      body: { error: 'ERR_NO_PERMISSION' },
    });
    expect(await subscribeCall({ token: stranger.admin.idToken, body: wizard(invoiceId) })).toMatchObject({
      status: 404,
      body: { error: 'ERR_NO_INVOICE_FOUND' },
    });
    expect(await subscribeCall({ token: admin.idToken, body: wizard(999_999) })).toMatchObject({ status: 404 });
    expect(await subscribeCall({ token: admin.idToken, body: wizard(invoiceId, 8) })).toMatchObject({
      status: 400,
      body: { field: 'plan' },
    });
    expect(await subscribeCall({ token: admin.idToken, body: wizard(invoiceId, 999) })).toMatchObject({
      status: 400,
      body: { field: 'plan' },
    });
    for (const body of [
      {},
      { ...wizard(invoiceId), invoiceId: 'abc' },
      { ...wizard(invoiceId), zipcode: '<script>' },
      { ...wizard(invoiceId), country: 'XX' },
    ]) {
      expect((await subscribeCall({ token: admin.idToken, body })).status).toBe(400);
    }
    expect(await subscribeCall({ token: `${admin.idToken.slice(0, -4)}AAAA`, body: wizard(invoiceId) })).toMatchObject({ status: 401 });
    expect((await getInvoice(admin.user.companyId, invoiceId))?.paymentId).toBeUndefined();
  });

  it('answers 503 without a provider key', async () => {
    await putSetting(PLATFORM_COMPANY_ID, 'asaas', '');
    try {
      expect(await subscribeCall({ token: admin.idToken, body: wizard(invoiceId) })).toMatchObject({
        status: 503,
        body: { error: 'ERR_PAYMENT_NOT_CONFIGURED' },
      });
    } finally {
      await putSetting(PLATFORM_COMPANY_ID, 'asaas', KEY);
    }
  });
});

describe('POST /subscription/webhook', () => {
  it('is refused without the deployment token, marks the invoice paid once and renews the company once', async () => {
    // Prepare: an expired company with a charge
    const { admin } = await billedCompany(60, -2);
    await issueDueInvoices();
    const [invoice] = await listInvoices(60);
    const paid = await subscribeCall({ token: admin.idToken, body: wizard(invoice?.id as number) });
    const paymentId = (paid.body as { paymentId: string }).paymentId;
    const event = {
      id: 'evt_1',
      event: 'PAYMENT_RECEIVED',
      payment: { id: paymentId, externalReference: `conversa:60:${invoice?.id}`, value: 49.9 },
    };

    // Act + Assess: wrong, missing or garbage
    expect(await webhookCall(event, 'wrong-token')).toMatchObject({ status: 401 });
    expect(await webhookCall(event, '')).toMatchObject({ status: 401 });
    expect(await webhookCall({ event: 'PAYMENT_RECEIVED', payment: 'x' })).toMatchObject({ status: 400 });
    expect((await getInvoice(60, invoice?.id as number))?.status).toBe('open');
    // Another charge's event (not the invoice's current one) changes nothing.
    expect(await webhookCall({ ...event, payment: { ...event.payment, id: 'pay_other' } })).toMatchObject({
      status: 200,
      body: { outcome: 'ignored' },
    });

    const first = await webhookCall(event);
    const renewed = (await getCompany(60))?.dueDate;
    const replay = await webhookCall(event);
    const sibling = await webhookCall({ ...event, id: 'evt_2', event: 'PAYMENT_CONFIRMED' });

    expect(first).toMatchObject({ status: 200, body: { outcome: 'paid' } });
    expect(renewed).toBe(renewedDueDate(addDays(today, -2), 1, today));
    expect(replay).toMatchObject({ status: 200, body: { outcome: 'duplicate' } });
    expect(sibling).toMatchObject({ status: 200, body: { outcome: 'duplicate' } });
    expect((await getCompany(60))?.dueDate).toBe(renewed);
    expect(await getInvoice(60, invoice?.id as number)).toMatchObject({ status: 'paid' });
    // Back in: the company's routes work again, and a paid invoice is not charged again.
    expect(await subscribeCall({ token: admin.idToken, body: wizard(invoice?.id as number) })).toMatchObject({
      status: 409,
      body: { error: 'ERR_INVOICE_ALREADY_PAID' },
    });
  });

  it('renews from the due date when paid early, from today when paid after a lapse', () => {
    expect(renewedDueDate('2030-01-31', 1, '2030-01-10')).toBe('2030-02-28');
    expect(renewedDueDate('2020-01-15', 1, '2030-01-10')).toBe('2030-02-10');
    expect(renewedDueDate(null, 12, '2030-01-10')).toBe('2031-01-10');
  });
});
