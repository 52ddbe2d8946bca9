/**
 * Issue 25: a company that wants to pay can, at once. Invoices came only from the hourly job, so a
 * trial company's "Subscribe now" found nothing to pay and an expired company's Finance page was an
 * empty table for up to an hour. Now the wizard's POST /subscription without an invoice creates the
 * company's open invoice (or reuses it), exactly one however often it is called, and GET /invoices/all
 * issues the invoice of a company that is due (or expired) and has none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakePaymentProvider, startPaymentProvider } from '../../infra/local/payment-provider/server.ts';
import { issueDueInvoices } from '../src/domain/billing/invoices.ts';
import { renewedDueDate } from '../src/domain/billing/payment-webhook.ts';
import { PLATFORM_COMPANY_ID } from '../src/domain/billing/subscription.ts';
import { addDays, todayIso } from '../src/domain/companies/due-date.ts';
import { handler } from '../src/handlers/http/companies.ts';
import { getCompany } from '../src/storage/companies/companies.ts';
import { listInvoices } from '../src/storage/invoices.ts';
import { putSetting } from '../src/storage/settings.ts';
import { type CognitoLocal, startCognitoLocal } from './support/cognito-local.ts';
import { type DynamoDbLocal, startDynamoDbLocal } from './support/dynamodb-local.ts';
import { type EventOptions, httpEvent, parseResponse } from './support/events.ts';
import { createTestUser, ensureCompany, ensurePlan, type TestUser } from './support/tenants.ts';

const KEY = 'test-asaas-key';
const today = todayIso();
const PLAN = { id: 17, name: 'Start', value: 99.9 };
const FREE_PLAN = { id: 18, name: 'Grátis', value: 0 };

const listCall = async (options: EventOptions) => parseResponse(await handler(httpEvent('GET /invoices/all', options)));
const subscribeCall = async (options: EventOptions) => parseResponse(await handler(httpEvent('POST /subscription', options)));

/** The wizard's data with no invoice: what "Subscribe now" sends. */
const wizard = (plan = PLAN.id) => ({
  plan,
  firstName: 'Ana',
  lastName: 'Souza',
  address2: 'Rua A, 10',
  city: 'São Paulo',
  state: 'SP',
  zipcode: '01001-000',
  country: 'BR',
});

let ddb: DynamoDbLocal;
let cognito: CognitoLocal;
let provider: FakePaymentProvider;
let nextCompany = 7000 + Math.floor(Math.random() * 1000);

/** A fresh company due in `dueInDays` (3: a trial's first day; negative: expired), with no invoice yet. */
async function company(dueInDays: number, planId = PLAN.id): Promise<{ id: number; admin: TestUser; user: TestUser }> {
  const id = nextCompany++;
  await ensureCompany({ id, planId, dueDate: addDays(today, dueInDays) });
  const [admin, user] = await Promise.all([createTestUser({ companyId: id, profile: 'admin' }), createTestUser({ companyId: id })]);
  return { id, admin, user };
}

const openInvoices = async (companyId: number) => (await listInvoices(companyId)).filter((invoice) => invoice.status === 'open');

beforeAll(async () => {
  [ddb, cognito] = await Promise.all([startDynamoDbLocal(), startCognitoLocal()]);
  provider = await startPaymentProvider({ apiKey: KEY, webhook: { url: () => 'http://127.0.0.1:9/unused', token: 'unused' } });
  process.env.ASAAS_BASE_URL = provider.apiUrl;
  process.env.WS_MANAGEMENT_URL = 'http://127.0.0.1:9';
  await Promise.all([ensurePlan(PLAN), ensurePlan(FREE_PLAN)]);
  await ensureCompany({ id: PLATFORM_COMPANY_ID });
  await putSetting(PLATFORM_COMPANY_ID, 'asaas', KEY);
}, 60_000);
afterAll(async () => {
  await provider?.close();
  await Promise.all([ddb?.stop(), cognito?.stop()]);
});

describe('Subscribe now on a trial company (no invoice issued yet)', () => {
  it('creates the charge and its one open invoice, and reuses both when asked again', async () => {
    const { id, admin } = await company(3);
    expect(await listInvoices(id)).toHaveLength(0);

    const first = await subscribeCall({ token: admin.idToken, body: wizard() });
    const again = await subscribeCall({ token: admin.idToken, body: wizard() });

    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const body = first.body as { invoiceId: number; paymentId: string; qrcode: { qrcode: string }; valor: { original: string } };
    expect(body.valor.original).toBe('99.90');
    expect(body.qrcode.qrcode).toMatch(/^000201/);
    expect(again).toMatchObject({ status: 200, body: { invoiceId: body.invoiceId, paymentId: body.paymentId } });
    const open = await openInvoices(id);
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({ id: body.invoiceId, dueDate: addDays(today, 3), value: 99.9, paymentId: body.paymentId });
    expect(provider.payments.get(body.paymentId)).toMatchObject({ externalReference: `conversa:${id}:${body.invoiceId}`, deleted: false });
  });

  it('leaves one open invoice with one live charge when two subscriptions race', async () => {
    const { id, admin } = await company(3);

    const [a, b] = await Promise.all([
      subscribeCall({ token: admin.idToken, body: wizard() }),
      subscribeCall({ token: admin.idToken, body: wizard() }),
    ]);

    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body).toMatchObject({ invoiceId: (b.body as { invoiceId: number }).invoiceId });
    expect(a.body).toMatchObject({ paymentId: (b.body as { paymentId: string }).paymentId });
    expect(await openInvoices(id)).toHaveLength(1);
    const live = [...provider.payments.values()].filter(
      (charge) => charge.externalReference.startsWith(`conversa:${id}:`) && !charge.deleted,
    );
    expect(live).toHaveLength(1);
  });

  it('pays the open invoice the hourly job issued instead of making another', async () => {
    const { id, admin } = await company(3);
    const listed = await listCall({ token: admin.idToken });
    const issued = (listed.body.records as { id: number }[])[0]?.id;

    const paid = await subscribeCall({ token: admin.idToken, body: wizard() });

    expect(paid).toMatchObject({ status: 200, body: { invoiceId: issued } });
    expect(await openInvoices(id)).toHaveLength(1);
  });

  it('refuses plain users, plans with nothing to pay and garbage, and creates no invoice for them', async () => {
    const { id, admin, user } = await company(3);

    expect(await subscribeCall({ token: user.idToken, body: wizard() })).toMatchObject({
      status: 403,
      body: { error: 'ERR_NO_PERMISSION' },
    });
    expect(await subscribeCall({ token: admin.idToken, body: wizard(FREE_PLAN.id) })).toMatchObject({
      status: 400,
      body: { field: 'plan' },
    });
    expect(await subscribeCall({ token: admin.idToken, body: wizard(424_242) })).toMatchObject({ status: 400, body: { field: 'plan' } });
    for (const body of [
      { ...wizard(), invoiceId: 'abc' },
      { ...wizard(), invoiceId: -1 },
      { ...wizard(), invoiceId: null },
    ]) {
      expect((await subscribeCall({ token: admin.idToken, body })).status).toBe(400);
    }
    expect(await subscribeCall({ token: `${admin.idToken.slice(0, -4)}AAAA`, body: wizard() })).toMatchObject({ status: 401 });

    expect(await listInvoices(id)).toHaveLength(0);
  });
});

describe('Finance of an expired company', () => {
  it('shows an open invoice at once, one however often it is opened', async () => {
    const { id, admin, user } = await company(-2);
    // A plain user may not see the invoices, so nor issue one by asking.
    expect(await listCall({ token: user.idToken })).toMatchObject({ status: 403 });
    expect(await listInvoices(id)).toHaveLength(0);

    const [first, second] = await Promise.all([listCall({ token: admin.idToken }), listCall({ token: admin.idToken })]);
    const third = await listCall({ token: admin.idToken });

    for (const res of [first, second, third]) {
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ count: 1, records: [{ companyId: id, status: 'open', dueDate: addDays(today, -2), value: 99.9 }] });
    }
    expect(await openInvoices(id)).toHaveLength(1);
  });

  it('issues nothing for a company far from its due date', async () => {
    const { id, admin } = await company(60);

    expect(await listCall({ token: admin.idToken })).toMatchObject({ status: 200, body: { count: 0, records: [] } });
    expect(await listInvoices(id)).toHaveLength(0);
  });
});

describe('a company on a free plan (worth 0)', () => {
  it('finds its period paid and renewed when its invoice is issued: nothing to pay, never locked out', async () => {
    // Prepare: expired two days ago on the free plan (before: an open R$ 0,00 invoice it could not pay)
    const { id, admin } = await company(-2, FREE_PLAN.id);
    const paymentsBefore = provider.payments.size;

    // Act: the admin, confined to Finance, opens it (twice at once, then again); the hourly job runs too
    const [first, second] = await Promise.all([listCall({ token: admin.idToken }), listCall({ token: admin.idToken })]);
    const third = await listCall({ token: admin.idToken });
    await issueDueInvoices();

    // Assess: one invoice, paid with no charge; a month of use from today (the lapse is not charged)
    for (const res of [first, second, third]) expect(res.status).toBe(200);
    const invoices = await listInvoices(id);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ status: 'paid', value: 0, dueDate: addDays(today, -2), paidAt: expect.any(String) });
    expect(invoices[0]?.paymentId).toBeUndefined();
    expect((await getCompany(id))?.dueDate).toBe(renewedDueDate(addDays(today, -2), 1, today));
    expect(provider.payments.size).toBe(paymentsBefore);
    // The API is open again
    expect(parseResponse(await handler(httpEvent('GET /companies/list', { token: admin.idToken }))).status).not.toBe(402);
  });

  it('can still move to a paid plan: Subscribe now charges it, and the invoice waits for the payment', async () => {
    const { id, admin } = await company(3, FREE_PLAN.id);

    const res = await subscribeCall({ token: admin.idToken, body: wizard(PLAN.id) });

    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const open = await openInvoices(id);
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({ value: PLAN.value, planId: PLAN.id, paymentId: (res.body as { paymentId: string }).paymentId });
    expect((await getCompany(id))?.dueDate).toBe(addDays(today, 3));
  });
});

describe('the local fake Asaas', () => {
  it('keeps a charge whose webhook call failed payable again, as Asaas retries a refused event', async () => {
    const { admin } = await company(3);
    const { paymentId } = (await subscribeCall({ token: admin.idToken, body: wizard() })).body as { paymentId: string };

    // This provider's webhook points at a closed port: the event does not get through.
    const paid = await fetch(`${provider.url}/api/payments/${paymentId}/pay`, { method: 'POST' });
    const listed = (await (await fetch(`${provider.url}/api/payments`)).json()) as {
      id: string;
      status: string;
      webhookStatus: number | null;
    }[];

    expect(paid.status).toBe(200);
    expect(await paid.json()).toEqual({ webhookStatus: 0 });
    expect(listed.find((charge) => charge.id === paymentId)).toMatchObject({ status: 'RECEIVED', webhookStatus: 0 });
  });
});
