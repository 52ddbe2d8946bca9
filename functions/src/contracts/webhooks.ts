/**
 * Webhooks (issue 23 §2): the endpoints a company's admins register to hear what happens in their
 * inbox, and the log of what was delivered to them. Shared by the API and the web app.
 *
 * A delivery is a POST of `{id, event, companyId, createdAt, data}` (JSON) with the headers below;
 * the signature is `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the endpoint's secret>`,
 * so a receiver checks the body and that `t` is recent (a replayed old request fails).
 */
import * as z from 'zod';

export const webhookEvents = [
  'message.received',
  'message.sent',
  'message.ack',
  'ticket.created',
  'ticket.updated',
  'ticket.closed',
  'contact.created',
] as const;
export type WebhookEvent = (typeof webhookEvents)[number];
/** What "Send test event" sends; no endpoint subscribes to it, every endpoint may be sent it. */
export const WEBHOOK_PING = 'ping';
export type WebhookDeliveryEvent = WebhookEvent | typeof WEBHOOK_PING;

export const WEBHOOK_HEADERS = {
  event: 'X-Conversa-Event',
  delivery: 'X-Conversa-Delivery',
  signature: 'X-Conversa-Signature',
} as const;

/** Endpoints per company: enough for a shop, a CRM and a few bots; more is a loop or a leak. */
export const MAX_WEBHOOKS_PER_COMPANY = 10;
export const WEBHOOK_DELIVERIES_PAGE_SIZE = 20;
/** The log is read newest first, a page at a time; older entries expire (storage/webhooks/deliveries.ts). */
export const MAX_WEBHOOK_DELIVERY_PAGES = 50;

export const webhookMessages = {
  required: 'Required',
  url: 'Invalid URL',
  tooLong: 'Too Long!',
  events: 'Choose at least one event',
  privateUrl: 'The URL points at a local or private network address',
  unresolvable: 'The host name does not resolve',
} as const;

const M = webhookMessages;

/** http(s) with a host, no credentials in it (they would be sent to whoever answers a redirect's log). */
export const isWebhookUrl = (text: string): boolean => {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' && !url.username && !url.password;
  } catch {
    return false;
  }
};

const url = z
  .string({ error: M.required })
  .trim()
  .min(1, M.required)
  .max(2000, M.tooLong)
  .refine((value) => isWebhookUrl(value), M.url);
const events = z
  .array(z.enum(webhookEvents, { error: 'Unknown event' }), { error: M.events })
  .min(1, M.events)
  .max(webhookEvents.length)
  .transform((list) => webhookEvents.filter((event) => list.includes(event)));
const description = z.string().trim().max(200, M.tooLong);
const enabled = z.boolean({ error: 'Expected true or false' });

/** POST /webhooks. */
export const createWebhookSchema = z
  .object({ url, events, description: description.optional().default(''), enabled: enabled.optional().default(true) })
  .strip();
export type CreateWebhookInput = z.output<typeof createWebhookSchema>;

/** PUT /webhooks/{id}: any subset. */
export const updateWebhookSchema = z
  .object({ url: url.optional(), events: events.optional(), description: description.optional(), enabled: enabled.optional() })
  .strip();
export type UpdateWebhookInput = z.output<typeof updateWebhookSchema>;

export const webhookDeliveriesQuerySchema = z.object({
  pageNumber: z.coerce.number().int().min(1).max(MAX_WEBHOOK_DELIVERY_PAGES).optional().default(1),
});

/** `{deliveryId}` of the resend route: the ids this server gives (storage/webhooks/deliveries.ts newDeliveryId). */
export const deliveryIdSchema = z.string().regex(/^whd_[0-9a-z]{10}[0-9a-f]{16}$/, 'Invalid delivery id');

/** What GET, POST and PUT answer; `secret` only in POST's and rotate-secret's answers. */
export interface Webhook {
  id: number;
  url: string;
  events: WebhookEvent[];
  description: string;
  enabled: boolean;
  /** Why it is off when the company did not turn it off: it failed for a whole retry window. */
  disabledReason: 'failing' | null;
  disabledAt: string | null;
  /** Since when every delivery failed (null while the endpoint answers). */
  failingSince: string | null;
  createdAt: string;
  updatedAt: string;
}
export interface WebhookWithSecret extends Webhook {
  secret: string;
}

export type WebhookDeliveryStatus = 'pending' | 'succeeded' | 'failed';

/** One line of GET /webhooks/{id}/deliveries. */
export interface WebhookDelivery {
  id: string;
  event: WebhookDeliveryEvent;
  status: WebhookDeliveryStatus;
  attempts: number;
  /** The last attempt's HTTP status; null when nothing answered (timeout, refused connection). */
  responseCode: number | null;
  latencyMs: number | null;
  /** Why the last attempt failed, in a few words (a status, "timeout", "unreachable"). */
  error: string | null;
  nextRetryAt: string | null;
  createdAt: string;
  lastAttemptAt: string | null;
}

export interface WebhookDeliveryPage {
  deliveries: WebhookDelivery[];
  hasMore: boolean;
}

/** `company-{id}-webhook` (admins): a change of an endpoint, `disabled` when it was switched off for failing. */
export type WebhookChangeEvent = { action: 'create' | 'update' | 'delete' | 'disabled'; id: number };

/** The admins' realtime channel of the Webhooks page (ids only; the page refetches). */
export const webhookChannel = (companyId: number) => `company-${companyId}-webhook`;
