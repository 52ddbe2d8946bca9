/**
 * What billing needs from a payment provider (Asaas, SPEC 3 "asaas (payment key)"): a customer, a PIX
 * charge and its QR code. The adapter (adapters/asaas.ts) speaks the provider's HTTP API; use cases
 * get a provider for the configured key and never see HTTP.
 */
export interface PixCharge {
  id: string;
  value: number;
  status: string;
}

export interface PixQrCode {
  /** The copy-paste ("copia e cola") code. */
  payload: string;
  /** PNG, base64 without the data: prefix (as Asaas sends it). */
  encodedImage: string;
  expirationDate?: string;
}

export interface CustomerInput {
  /** Ours, to find the customer again instead of creating one per subscription. */
  externalReference: string;
  name: string;
  email: string;
  cpfCnpj?: string;
  postalCode: string;
  address: string;
  province: string;
  city: string;
  state: string;
}

export interface ChargeInput {
  customer: string;
  value: number;
  /** YYYY-MM-DD, today or later. */
  dueDate: string;
  description: string;
  /** `conversa:<companyId>:<invoiceId>`: how the webhook finds the invoice. */
  externalReference: string;
}

export interface PaymentProvider {
  findOrCreateCustomer(input: CustomerInput): Promise<string>;
  createPixCharge(input: ChargeInput): Promise<PixCharge>;
  pixQrCode(paymentId: string): Promise<PixQrCode>;
  /** Removes a charge nobody will pay (a subscription that lost a race, or a replaced one). */
  cancelCharge(paymentId: string): Promise<void>;
}

/** Builds a provider for an API key (the platform's `asaas` setting). */
export type PaymentProviderFactory = (apiKey: string) => PaymentProvider;

const REFERENCE = /^conversa:(\d{1,10}):(\d{1,10})$/;

export const chargeReference = (companyId: number, invoiceId: number): string => `conversa:${companyId}:${invoiceId}`;

export function parseChargeReference(reference: string | null | undefined): { companyId: number; invoiceId: number } | undefined {
  const match = reference ? REFERENCE.exec(reference) : null;
  return match ? { companyId: Number(match[1]), invoiceId: Number(match[2]) } : undefined;
}
