/**
 * The Asaas API (https://docs.asaas.com, v3), the subset billing uses: customers, PIX charges, their QR
 * code. The key is the platform's `asaas` setting; the base URL is the deployment's (ASAAS_BASE_URL:
 * production, the sandbox, or the local fake in infra/local/payment-provider). Every call has a timeout;
 * a refusal or an outage becomes PaymentProviderError (502), a refused input a 400 naming Asaas'
 * message, never an unhandled 500.
 */

import { env } from '#commons/env';
import { ValidationError } from '#commons/errors';
import { PaymentProviderError } from '#domain/billing/payment-errors';
import type {
  ChargeInput,
  CustomerInput,
  PaymentProvider,
  PaymentProviderFactory,
  PixCharge,
  PixQrCode,
} from '#domain/billing/payment-provider';

/** Well under API Gateway's 30 s: the wizard waits on two or three of these. */
export const ASAAS_TIMEOUT_MS = 8000;

interface AsaasErrorBody {
  errors?: { code?: string; description?: string }[];
}

export function createAsaasClient(apiKey: string, baseUrl: string = env.asaasBaseUrl, timeoutMs = ASAAS_TIMEOUT_MS): PaymentProvider {
  const root = baseUrl.replace(/\/+$/, '');

  async function request<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${root}${path}`, {
        method,
        headers: {
          access_token: apiKey,
          'content-type': 'application/json',
          accept: 'application/json',
          'user-agent': 'conversa',
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError';
      throw new PaymentProviderError(timedOut ? 'timeout' : 'unreachable');
    }
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      throw new PaymentProviderError('unreadable answer', res.status);
    }
    if (res.ok) return parsed as T;
    // 400: Asaas refused what the customer typed (a CPF, a postal code): theirs to fix, so a 400 too.
    const first = (parsed as AsaasErrorBody | undefined)?.errors?.[0];
    if (res.status === 400 && first?.description) throw new ValidationError('payment', first.description.slice(0, 300));
    // 401/403: our key is wrong; 404 on a charge we made; 429/5xx: theirs. None is the caller's fault.
    throw new PaymentProviderError(res.status === 401 ? 'key refused' : 'refused', res.status);
  }

  const stringField = (value: unknown, what: string): string => {
    if (typeof value !== 'string' || !value) throw new PaymentProviderError(`answer without ${what}`);
    return value;
  };

  return {
    async findOrCreateCustomer(input: CustomerInput): Promise<string> {
      const found = await request<{ data?: { id?: string }[] }>(
        'GET',
        `/customers?externalReference=${encodeURIComponent(input.externalReference)}&limit=1`,
      );
      const existing = found?.data?.[0]?.id;
      if (existing) return existing;
      const created = await request<{ id?: string }>('POST', '/customers', {
        name: input.name,
        email: input.email,
        ...(input.cpfCnpj ? { cpfCnpj: input.cpfCnpj } : {}),
        postalCode: input.postalCode,
        address: input.address,
        province: input.province,
        externalReference: input.externalReference,
        notificationDisabled: true,
      });
      return stringField(created?.id, 'customer id');
    },

    async createPixCharge(input: ChargeInput): Promise<PixCharge> {
      const created = await request<{ id?: string; value?: number; status?: string }>('POST', '/payments', {
        customer: input.customer,
        billingType: 'PIX',
        value: input.value,
        dueDate: input.dueDate,
        description: input.description,
        externalReference: input.externalReference,
      });
      return {
        id: stringField(created?.id, 'payment id'),
        value: Number(created?.value ?? input.value),
        status: String(created?.status ?? 'PENDING'),
      };
    },

    async pixQrCode(paymentId: string): Promise<PixQrCode> {
      const qr = await request<{ payload?: string; encodedImage?: string; expirationDate?: string }>(
        'GET',
        `/payments/${encodeURIComponent(paymentId)}/pixQrCode`,
      );
      return {
        payload: stringField(qr?.payload, 'PIX payload'),
        encodedImage: stringField(qr?.encodedImage, 'QR image'),
        ...(qr?.expirationDate ? { expirationDate: qr.expirationDate } : {}),
      };
    },

    async cancelCharge(paymentId: string): Promise<void> {
      await request('DELETE', `/payments/${encodeURIComponent(paymentId)}`);
    },
  };
}

export const asaasProvider: PaymentProviderFactory = (apiKey) => createAsaasClient(apiKey);
