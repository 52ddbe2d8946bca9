/**
 * Billing over the local stack (issue 12), as a client sees it: an expired company's admin reaches
 * billing and nothing else, pays a PIX charge through the local fake Asaas (which calls our webhook as
 * Asaas would), receives `company-{id}-payment` CONCLUIDA and is back in; the webhook refuses a wrong
 * token and changes nothing on a replay; the invoice job issues exactly once however often it runs.
 */
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { connectSocket } from '../support/socket.ts';
import { type Call, client, createTenant, superLogin, type Tenant } from './tenants.ts';

let call: Call;
let superToken: string;
let tenant: Tenant;
let providerUrl: string;
let runInvoiceJob: () => Promise<void>;
const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

const wizard = (invoiceId: number, plan: number) => ({
  invoiceId,
  plan,
  firstName: 'Ana',
  lastName: 'Souza',
  address2: 'Rua A, 10',
  city: 'São Paulo',
  state: 'SP',
  zipcode: '01001-000',
  country: 'BR',
});

let planId: number;

beforeAll(async () => {
  call = client(inject('apiUrl'));
  const env = inject('env');
  providerUrl = (env.ASAAS_BASE_URL as string).replace(/\/v3$/, '');
  Object.assign(process.env, env);
  const job = await import('@conversa/functions/handlers/jobs/invoice-issue');
  runInvoiceJob = () => job.handler();
  superToken = await superLogin(call, inject('admin'));
  const plan = await call('POST', '/plans', { token: superToken, body: { name: `Pro ${Date.now()}`, value: 59.9, users: 5 } });
  expect(plan.status, plan.text).toBeLessThan(300);
  planId = (plan.body as { id: number }).id;
  tenant = await createTenant(call, superToken, planId, 'billing');
  const expired = await call('PUT', `/companies/${tenant.companyId}`, {
    token: superToken,
    body: { name: tenant.companyName, email: tenant.admin.email, planId, dueDate: yesterday },
  });
  expect(expired.status, expired.text).toBe(200);
});

describe('billing over the local stack', () => {
  it('issues the invoice once, lets the expired admin pay it and only that, and lets the company back in', async () => {
    // Prepare: the job runs twice (and overlapping) over an expired company
    await Promise.all([runInvoiceJob(), runInvoiceJob()]);
    await runInvoiceJob();
    const socket = await connectSocket(inject('wsUrl'), tenant.admin.token);

    // Act + Assess: expired, so the API is 402 except billing
    expect((await call('GET', '/users', { token: tenant.admin.token })).status).toBe(402);
    const invoices = await call('GET', '/invoices/all', { token: tenant.admin.token });
    expect(invoices.status, invoices.text).toBe(200);
    const records = (invoices.body as { records: { id: number; dueDate: string; status: string; value: number }[] }).records;
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ dueDate: yesterday, status: 'open', value: 59.9 });
    const invoiceId = records[0]?.id as number;
    // A plain user of the company may not see or pay its invoices.
    expect((await call('GET', '/invoices/all', { token: tenant.user.token })).status).toBe(403);

    const subscription = await call('POST', '/subscription', { token: tenant.admin.token, body: wizard(invoiceId, planId) });
    expect(subscription.status, subscription.text).toBe(200);
    const payment = subscription.body as {
      paymentId: string;
      qrcode: { qrcode: string; imagemQrcode: string };
      valor: { original: string };
    };
    expect(payment.valor.original).toBe('59.90');
    expect(payment.qrcode.qrcode.length).toBeGreaterThan(20);

    // The customer pays: the fake provider calls our webhook as Asaas would.
    const paid = await fetch(`${providerUrl}/api/payments/${payment.paymentId}/pay`, { method: 'POST' });
    expect(await paid.json()).toEqual({ webhookStatus: 200 });
    const event = await socket.waitFor((frame) => frame.event === `company-${tenant.companyId}-payment`);
    socket.close();
    const data = event.data as { action: string; company: { dueDate: string }; invoice: { id: number; status: string } };
    expect(data).toMatchObject({ action: 'CONCLUIDA', invoice: { id: invoiceId, status: 'paid' } });
    expect(data.company.dueDate > yesterday).toBe(true);

    // Back in
    expect((await call('GET', '/users', { token: tenant.admin.token })).status).toBe(200);
    const after = await call('GET', `/companies/${tenant.companyId}`, { token: tenant.admin.token });
    expect((after.body as { dueDate: string }).dueDate).toBe(data.company.dueDate);
    const listed = await call('GET', '/invoices/all', { token: tenant.admin.token });
    expect((listed.body as { records: { status: string }[] }).records.map((r) => r.status)).toEqual(['paid']);

    // Replayed webhook: nothing changes; a wrong token is refused
    const notification = {
      id: 'evt_replay',
      event: 'PAYMENT_RECEIVED',
      payment: { id: payment.paymentId, externalReference: `conversa:${tenant.companyId}:${invoiceId}` },
    };
    const webhook = (token: string) =>
      fetch(`${inject('apiUrl').replace(/\/$/, '')}/subscription/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'asaas-access-token': token },
        body: JSON.stringify(notification),
      });
    const replay = await webhook(process.env.ASAAS_WEBHOOK_TOKEN as string);
    expect(await replay.json()).toEqual({ received: true, outcome: 'duplicate' });
    const forged = await webhook('not-the-token');
    expect(forged.status).toBe(401);
    const again = await call('GET', `/companies/${tenant.companyId}`, { token: tenant.admin.token });
    expect((again.body as { dueDate: string }).dueDate).toBe(data.company.dueDate);

    // Paid: no second charge; the renewed due date is more than 20 days away, so the job issues nothing new.
    expect(await call('POST', '/subscription', { token: tenant.admin.token, body: wizard(invoiceId, planId) })).toMatchObject({
      status: 409,
      body: { error: 'ERR_INVOICE_ALREADY_PAID' },
    });
    await runInvoiceJob();
    expect(((await call('GET', '/invoices/all', { token: tenant.admin.token })).body as { count: number }).count).toBe(1);
  });

  it('refuses forged tokens and garbage on every billing route with a 4xx', async () => {
    const forged = `${tenant.admin.token.slice(0, -4)}AAAA`;
    expect((await call('GET', '/invoices/all', { token: forged })).status).toBe(401);
    expect((await call('POST', '/subscription', { token: forged, body: wizard(1, planId) })).status).toBe(401);
    const garbage: Record<string, string>[] = [{ pageNumber: '-1' }, { pageNumber: 'abc' }, { searchParam: 'x'.repeat(500) }];
    for (const query of garbage) {
      expect((await call('GET', '/invoices/all', { token: tenant.admin.token, query })).status).toBe(400);
    }
    for (const body of [{}, 'x', [], { ...wizard(1, planId), firstName: '' }, { ...wizard(1, planId), plan: 'pro' }]) {
      const res = await call('POST', '/subscription', { token: tenant.admin.token, body });
      expect(res.status, res.text).toBeGreaterThanOrEqual(400);
      expect(res.status, res.text).toBeLessThan(500);
    }
    for (const rawBody of ['{', 'null', '{"event":1}', JSON.stringify({ event: 'PAYMENT_RECEIVED', payment: { id: '' } })]) {
      const res = await fetch(`${inject('apiUrl').replace(/\/$/, '')}/subscription/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'asaas-access-token': process.env.ASAAS_WEBHOOK_TOKEN as string },
        body: rawBody,
      });
      expect(res.status, rawBody).toBe(400);
    }
  });
});
