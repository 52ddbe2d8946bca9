/**
 * A stand-in for Asaas (the payment provider SPEC 3 names), speaking the subset of its v3 API that
 * functions/src/adapters/asaas.ts uses, and paying a charge on request by calling our webhook as Asaas
 * would (`asaas-access-token` header, a PAYMENT_RECEIVED event). `npm start` runs it and the tests use it.
 *
 *   Asaas' API (header access_token = the key it was started with):
 *   GET    /v3/customers?externalReference=   POST /v3/customers
 *   POST   /v3/payments                       GET  /v3/payments/{id}   DELETE /v3/payments/{id}
 *   GET    /v3/payments/{id}/pixQrCode
 *   Control (tests, and the page at / for a person):
 *   GET    /api/payments                      every charge, newest first, with the last webhook answer
 *   POST   /api/payments/{id}/pay             mark it received and call the webhook (answers its status,
 *                                             0 when unreachable); again on a received one resends the event
 *   POST   /api/outage  {status, count}       the next `count` API calls answer `status` (0: hang up, -1: never answer)
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import QRCode from 'qrcode';
import { paymentProviderPage } from './page.ts';

export interface FakePayment {
  id: string;
  customer: string;
  value: number;
  dueDate: string;
  description: string;
  externalReference: string;
  billingType: 'PIX';
  status: 'PENDING' | 'RECEIVED';
  deleted: boolean;
  payload: string;
  dateCreated: string;
}

export interface PaymentProviderOptions {
  port?: number;
  /** The key our `asaas` setting must hold. */
  apiKey: string;
  /** Where Asaas would post its events (our POST /subscription/webhook) and the token it sends. */
  webhook: { url: () => string; token: string };
  log?: (line: string) => void;
}

export interface FakePaymentProvider {
  /** The API root to configure as ASAAS_BASE_URL (`.../v3`). */
  apiUrl: string;
  /** The page and control API. */
  url: string;
  payments: Map<string, FakePayment>;
  pay(id: string): Promise<{ webhookStatus: number }>;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 64 * 1024;

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(String(status));
  }
}

const asaasError = (status: number, code: string, description: string) => new HttpError(status, { errors: [{ code, description }] });

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw asaasError(413, 'too_large', 'Body too large');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return {};
  try {
    const value = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    /* below */
  }
  throw asaasError(400, 'invalid_json', 'Invalid JSON');
}

/** A payload shaped like a BR Code (EMV), enough to copy and paste; nobody's bank will read it. */
function pixPayload(value: number): string {
  const amount = value.toFixed(2);
  return `00020126580014br.gov.bcb.pix0136${randomUUID()}52040000530398654${String(amount.length).padStart(2, '0')}${amount}5802BR5914CONVERSA LOCAL6009SAO PAULO62070503***6304${randomBytes(2).toString('hex').toUpperCase()}`;
}

export async function startPaymentProvider(opts: PaymentProviderOptions): Promise<FakePaymentProvider> {
  const log = opts.log ?? (() => undefined);
  const customers = new Map<string, { id: string; name: string; externalReference: string }>();
  const payments = new Map<string, FakePayment>();
  /** What our webhook answered for each paid charge: Asaas would retry a refused event, the page offers it again. */
  const webhookAnswers = new Map<string, number>();
  let outage: { status: number; count: number } | undefined;

  async function pay(id: string): Promise<{ webhookStatus: number }> {
    const payment = payments.get(id);
    if (!payment || payment.deleted) throw new HttpError(404, { error: 'no such payment' });
    payment.status = 'RECEIVED';
    const event = {
      id: `evt_${randomBytes(8).toString('hex')}`,
      event: 'PAYMENT_RECEIVED',
      dateCreated: new Date().toISOString(),
      payment: { object: 'payment', ...payment, paymentDate: new Date().toISOString().slice(0, 10) },
    };
    const webhookStatus = await fetch(opts.webhook.url(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'asaas-access-token': opts.webhook.token },
      body: JSON.stringify(event),
    }).then(
      (res) => res.status,
      () => 0,
    );
    webhookAnswers.set(id, webhookStatus);
    log(`[payment-provider] ${id} paid, webhook answered ${webhookStatus || 'nothing (unreachable)'}`);
    return { webhookStatus };
  }

  async function asaas(req: IncomingMessage, url: URL, res: ServerResponse): Promise<void> {
    if (outage && outage.count > 0) {
      outage.count--;
      if (outage.status === 0) {
        req.socket.destroy();
        return;
      }
      // Never answers: the client's timeout must end the call.
      if (outage.status === -1) return;
      throw asaasError(outage.status, 'outage', 'Simulated outage');
    }
    if (req.headers.access_token !== opts.apiKey) throw asaasError(401, 'invalid_access_token', 'Invalid access token');
    const path = url.pathname.replace(/^\/v3/, '');
    const method = req.method ?? 'GET';
    if (method === 'GET' && path === '/customers') {
      const ref = url.searchParams.get('externalReference');
      const data = [...customers.values()].filter((c) => !ref || c.externalReference === ref);
      return json(res, 200, { object: 'list', hasMore: false, totalCount: data.length, data });
    }
    if (method === 'POST' && path === '/customers') {
      const body = await readJson(req);
      if (typeof body.name !== 'string' || !body.name.trim()) throw asaasError(400, 'invalid_name', 'O nome do cliente é obrigatório.');
      const customer = {
        id: `cus_${randomBytes(6).toString('hex')}`,
        name: body.name,
        externalReference: String(body.externalReference ?? ''),
      };
      customers.set(customer.id, customer);
      return json(res, 200, { object: 'customer', ...customer });
    }
    if (method === 'POST' && path === '/payments') {
      const body = await readJson(req);
      if (typeof body.customer !== 'string' || !customers.has(body.customer))
        throw asaasError(400, 'invalid_customer', 'Cliente inválido.');
      if (body.billingType !== 'PIX') throw asaasError(400, 'invalid_billingType', 'Forma de pagamento inválida.');
      const value = Number(body.value);
      if (!(value > 0)) throw asaasError(400, 'invalid_value', 'Valor inválido.');
      const dueDate = String(body.dueDate ?? '');
      if (!/^\d{4}-\d{2}-\d{2}$/.test(dueDate) || dueDate < new Date().toISOString().slice(0, 10))
        throw asaasError(400, 'invalid_dueDate', 'Data de vencimento inválida.');
      const payment: FakePayment = {
        id: `pay_${randomBytes(8).toString('hex')}`,
        customer: body.customer,
        value,
        dueDate,
        description: String(body.description ?? ''),
        externalReference: String(body.externalReference ?? ''),
        billingType: 'PIX',
        status: 'PENDING',
        deleted: false,
        payload: pixPayload(value),
        dateCreated: new Date().toISOString(),
      };
      payments.set(payment.id, payment);
      const { payload: _payload, ...shown } = payment;
      return json(res, 200, { object: 'payment', ...shown });
    }
    const one = /^\/payments\/([^/]+)(\/pixQrCode)?$/.exec(path);
    const payment = one ? payments.get(decodeURIComponent(one[1] as string)) : undefined;
    if (one && (!payment || payment.deleted)) throw asaasError(404, 'not_found', 'Cobrança não encontrada.');
    if (payment && method === 'GET' && one?.[2]) {
      const encodedImage = (await QRCode.toDataURL(payment.payload, { margin: 1, width: 256 })).replace(/^data:image\/png;base64,/, '');
      const expirationDate = `${payment.dueDate} 23:59:59`;
      return json(res, 200, { encodedImage, payload: payment.payload, expirationDate });
    }
    if (payment && method === 'GET') return json(res, 200, { object: 'payment', ...payment });
    if (payment && method === 'DELETE') {
      if (payment.status === 'RECEIVED') throw asaasError(400, 'invalid_action', 'Cobrança recebida não pode ser removida.');
      payment.deleted = true;
      return json(res, 200, { deleted: true, id: payment.id });
    }
    throw asaasError(404, 'not_found', 'Not found');
  }

  async function control(req: IncomingMessage, url: URL, res: ServerResponse): Promise<void> {
    if (req.method === 'GET' && url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(paymentProviderPage());
      return;
    }
    if (req.method === 'GET' && url.pathname === '/api/payments') {
      return json(
        res,
        200,
        [...payments.values()].reverse().map((payment) => ({ ...payment, webhookStatus: webhookAnswers.get(payment.id) ?? null })),
      );
    }
    const payMatch = /^\/api\/payments\/([^/]+)\/pay$/.exec(url.pathname);
    if (req.method === 'POST' && payMatch) return json(res, 200, await pay(decodeURIComponent(payMatch[1] as string)));
    if (req.method === 'POST' && url.pathname === '/api/outage') {
      const body = await readJson(req);
      outage = { status: Number(body.status ?? 500), count: Number(body.count ?? 1) };
      return json(res, 200, outage);
    }
    throw new HttpError(404, { error: 'not found' });
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const route = url.pathname.startsWith('/v3/') ? asaas : control;
    route(req, url, res).catch((error: unknown) => {
      if (error instanceof HttpError) return json(res, error.status, error.body);
      json(res, 500, { error: error instanceof Error ? error.message : String(error) });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    apiUrl: `${url}/v3`,
    url,
    payments,
    pay,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
