/**
 * Billing (SPEC 3 "Invoice", 3 "Subscription payload", 4 "Invoice", "Subscription wizard"; BEHAVIOUR
 * "Billing"): invoices issued 20 days before a company's due date, paid by PIX through the payment
 * provider (Asaas). Shared by the functions and the web app.
 */
import * as z from 'zod';
import { pageQuerySchema } from './common.ts';

/**
 * The platform's one currency: plans are priced in it and invoices charged in it (SPEC 9 "Invoices in
 * BRL"; Asaas charges reais). The screens show every amount in it (issue 25: the wizard said COP$ for
 * the price the invoice charged as R$).
 */
export const BILLING_CURRENCY = 'BRL';

/** BEHAVIOUR "Billing": an invoice is issued this many days before the company's due date. */
export const INVOICE_LEAD_DAYS = 20;
/** GET /invoices/all page size. */
export const INVOICES_PAGE_SIZE = 20;
/** SPEC 9: after a CONCLUIDA payment event the page returns home after 4 s. */
export const PAYMENT_REDIRECT_MS = 4000;

export const invoiceStatuses = ['open', 'paid'] as const;
export type InvoiceStatus = (typeof invoiceStatuses)[number];

/** SPEC 3 "Invoice": id, detail, value, dueDate, status (plus what the page and the webhook need). */
export interface Invoice {
  id: number;
  companyId: number;
  detail: string;
  /** BRL (SPEC 9 "Invoices in BRL"). */
  value: number;
  /** The company due date this invoice pays for (YYYY-MM-DD). */
  dueDate: string;
  status: InvoiceStatus;
  /** The plan it was issued for; a subscription may switch it to the plan chosen in the wizard. */
  planId: number;
  /** The provider's charge, once the wizard asked for one. */
  paymentId?: string;
  paidAt?: string;
  createdAt: string;
  updatedAt: string;
}

export const listInvoicesQuerySchema = pageQuerySchema;
export type ListInvoicesQuery = z.infer<typeof listInvoicesQuerySchema>;

export interface InvoicePage {
  records: Invoice[];
  hasMore: boolean;
  count: number;
}

/** SPEC 4 "Invoice": how a row reads; the web translates these keys. */
export type InvoiceDisplayStatus = 'paid' | 'overdue' | 'open';

export function invoiceDisplayStatus(invoice: Pick<Invoice, 'status' | 'dueDate'>, today: string): InvoiceDisplayStatus {
  if (invoice.status === 'paid') return 'paid';
  return invoice.dueDate < today ? 'overdue' : 'open';
}

const text = (max: number) => z.string().trim().max(max, 'Too Long!');
const required = (max: number) => text(max).min(1, 'Required');

/**
 * SPEC 3 "Subscription payload". The card fields are the spec's form, but payment is by PIX: they
 * are accepted and dropped, never stored or forwarded. The price is the server's (the plan's value),
 * whatever the browser sends. cpfCnpj is what Asaas needs for a PIX charge in production.
 */
export const subscriptionInputSchema = z.object({
  /** The invoice to pay; without it ("Subscribe now") the company's open invoice, made at once when it has none. */
  invoiceId: z.coerce.number().int().positive().optional(),
  plan: z.coerce.number().int().positive(),
  firstName: required(50),
  lastName: required(50),
  address2: text(200).optional().default(''),
  city: required(100),
  state: required(100),
  zipcode: required(20).regex(/^[0-9A-Za-z -]+$/, 'Invalid zip code'),
  country: z.enum(['BR', 'usa']),
  cpfCnpj: z
    .string()
    .trim()
    .regex(/^(\d{11}|\d{14})?$/, 'CPF (11 digits) or CNPJ (14 digits)')
    .optional()
    .default(''),
  useAddressForPaymentDetails: z.boolean().optional(),
  nameOnCard: z.string().max(100).optional(),
  cardNumber: z.string().max(30).optional(),
  cvv: z.string().max(4).optional(),
  price: z.unknown().optional(),
  users: z.unknown().optional(),
  connections: z.unknown().optional(),
});
export type SubscriptionInput = z.infer<typeof subscriptionInputSchema>;

/** SPEC 3 "Payment response: qrcode.qrcode and valor.original". */
export interface SubscriptionPayment {
  invoiceId: number;
  paymentId: string;
  qrcode: {
    /** The PIX copy-paste code ("copia e cola"). */
    qrcode: string;
    /** The QR image as a data: URL (PNG). */
    imagemQrcode: string;
    expirationDate?: string;
  };
  valor: { original: string };
}

/** `company-{id}-payment` payload (SPEC 7 "Realtime"). */
export interface PaymentEvent {
  action: 'CONCLUIDA';
  invoice: Invoice;
  company: { id: number; dueDate: string };
}

/** POST /subscription/webhook: the part of Asaas' event we read; the rest (customer, values, dates) is the provider's record. */
export const paymentNotificationSchema = z.object({
  event: z.string().min(1).max(100),
  payment: z.object({
    id: z.string().min(1).max(100),
    externalReference: z.string().max(200).nullish(),
  }),
});
