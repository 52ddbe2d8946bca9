/**
 * What crosses the queues between the session-host (which owns WhatsApp sessions) and the Lambdas.
 *
 * inbound queue (FIFO, session-host -> inbound Lambda): WhatsApp events and send results.
 *   MessageGroupId = `${companyId}:${connectionId}:${contactNumber}` keeps per-contact order;
 *   MessageDeduplicationId = `inboundDedupeId(event)`; the pipeline dedupes again in DynamoDB on
 *   (connection, WhatsApp message id) for replays older than SQS's 5-minute window.
 * session-commands queue (FIFO, Lambdas -> the host that owns the session):
 *   MessageGroupId = `sessionCommandGroupId(command)`;
 *   MessageDeduplicationId = `sessionCommandDedupeId(command)` (the command id within its connection:
 *   campaign sends have ids such as `cmp-1-1-m`, which every tenant's first campaign shares).
 * Connection ids are per tenant, so every id starts with the company: without it, tenants' connection
 * 1 would share one FIFO group (one tenant's stuck command holding another's) and SQS would drop one
 * tenant's event as a duplicate of another's.
 */
import * as z from 'zod';

export const PHONE_CONTACTS_BATCH = 100;
export const PHONE_CONTACT_NAME_MAX = 200;
/**
 * Numbers per `checkNumbers` command and `numbersChecked` event: one WhatsApp query (Baileys'
 * onWhatsApp takes many numbers per call) and a message far below SQS's 256 KB.
 */
export const NUMBER_CHECK_BATCH = 50;

/** A contact list item's number to check (`itemId` is the item's id in its list's tenant). */
const numberToCheck = z.object({
  itemId: z.number().int().positive(),
  contactListId: z.number().int().positive(),
  number: z.string().regex(/^\d{1,50}$/),
});

export const mediaTypes = ['image', 'audio', 'video', 'application', 'stickerMessage', 'locationMessage', 'vcard', 'call_log'] as const;
export type MediaType = (typeof mediaTypes)[number];

const base = {
  companyId: z.number().int().positive(),
  connectionId: z.number().int().positive(),
};

const media = z.object({
  /** Object key in the media bucket, already uploaded by the session-host. */
  key: z.string().min(1),
  mimetype: z.string().min(1),
  filename: z.string().optional(),
  size: z.number().int().nonnegative().optional(),
});
export type InboundMedia = z.infer<typeof media>;

export const waMessageSchema = z.object({
  /** WhatsApp message id. */
  id: z.string().min(1),
  fromMe: z.boolean(),
  /** Digits of the contact's phone number (resolved from @lid), or the group id for groups. */
  number: z.string().min(1),
  isGroup: z.boolean(),
  /** In groups: digits of the member who wrote. */
  participantNumber: z.string().optional(),
  pushName: z.string().optional(),
  /** Epoch milliseconds. */
  timestamp: z.number().int().nonnegative(),
  body: z.string(),
  mediaType: z.enum(mediaTypes).optional(),
  media: media.optional(),
  /** Id of the WhatsApp message this one replies to. */
  quotedId: z.string().optional(),
  location: z.object({ latitude: z.number(), longitude: z.number(), description: z.string().optional() }).optional(),
  /** Delivered as offline/`append` history after a reconnect: processed like any other. */
  history: z.boolean().optional(),
});
export type WaMessage = z.infer<typeof waMessageSchema>;

/** A contact of the connection's phone (its address book, or a chat it had). */
export const phoneContactSchema = z.object({
  /** Digits of the phone number. */
  number: z.string().regex(/^\d{8,20}$/),
  /** The address-book name, else the contact's own WhatsApp name; absent when neither is known. */
  name: z.string().max(PHONE_CONTACT_NAME_MAX).optional(),
});
export type PhoneContact = z.infer<typeof phoneContactSchema>;

export const ackValues = [0, 1, 2, 3, 4, 5] as const;

/**
 * A retry of a failed send is a new attempt of the same message: 1, 2, ... (absent: the first send).
 * Its command, its send record on the host and its result are the attempt's own, so a retry is sent
 * once (however often its command is delivered) and a late result of an earlier attempt is ignored.
 */
const sendAttempt = z.number().int().positive().optional();

export const inboundEventSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('message'), ...base, message: waMessageSchema }),
  z.object({ kind: z.literal('ack'), ...base, waMessageId: z.string().min(1), number: z.string(), ack: z.number().int().min(0).max(5) }),
  z.object({ kind: z.literal('revoke'), ...base, waMessageId: z.string().min(1), number: z.string() }),
  z.object({ kind: z.literal('edit'), ...base, waMessageId: z.string().min(1), number: z.string(), body: z.string() }),
  z.object({
    kind: z.literal('call'),
    ...base,
    callId: z.string().min(1),
    number: z.string().min(1),
    timestamp: z.number().int().nonnegative(),
    rejected: z.boolean(),
  }),
  /** Result of a `send` command: the stored pending message gets its WhatsApp id, or its error. */
  z.object({
    kind: z.literal('sent'),
    ...base,
    messageId: z.string().min(1),
    ticketId: z.number().int().positive(),
    waMessageId: z.string().min(1),
    number: z.string(),
    timestamp: z.number(),
    /** The send command's `attempt` (absent: the first). */
    attempt: sendAttempt,
  }),
  z.object({
    kind: z.literal('sendFailed'),
    ...base,
    messageId: z.string().min(1),
    ticketId: z.number().int().positive(),
    number: z.string(),
    error: z.string(),
    attempt: sendAttempt,
  }),
  /**
   * Result of a campaign's `send` (one with `campaignId` and no ticket): the campaign engine marks
   * its shipping record (domain/campaigns/results.ts). `error` is absent when it was sent.
   */
  z.object({
    kind: z.literal('campaignResult'),
    ...base,
    campaignId: z.number().int().positive(),
    messageId: z.string().min(1),
    number: z.string(),
    waMessageId: z.string().optional(),
    timestamp: z.number().optional(),
    error: z.string().optional(),
    /** What was sent (the command's text and media): the contact's conversation stores it (campaigns/thread.ts). */
    body: z.string().optional(),
    media: media.optional(),
  }),
  /**
   * One batch of the phone's contacts, answering an `importContacts` command (`importId` is its
   * commandId). Individuals only, numbers already resolved from @lid. At most PHONE_CONTACTS_BATCH
   * entries keeps a message far below SQS's 256 KB.
   */
  z.object({
    kind: z.literal('contacts'),
    ...base,
    importId: z.string().min(1),
    batch: z.number().int().nonnegative(),
    contacts: z.array(phoneContactSchema).max(PHONE_CONTACTS_BATCH),
  }),
  /**
   * WhatsApp's answer for a batch of contact list numbers (a `checkNumbers` command's, or the host's
   * own check when a session connects): `valid` is whether the number has a WhatsApp account.
   * `checkId` names the batch (its command id).
   */
  z.object({
    kind: z.literal('numbersChecked'),
    ...base,
    checkId: z.string().min(1),
    results: z.array(numberToCheck.extend({ valid: z.boolean() })).max(NUMBER_CHECK_BATCH),
  }),
]);
export type InboundEvent = z.infer<typeof inboundEventSchema>;

export function inboundDedupeId(event: InboundEvent): string {
  const connection = `${event.companyId}:${event.connectionId}`;
  switch (event.kind) {
    case 'message':
      return `${connection}:m:${event.message.id}`;
    case 'ack':
      return `${connection}:a:${event.waMessageId}:${event.ack}`;
    case 'revoke':
      return `${connection}:r:${event.waMessageId}`;
    case 'edit':
      return `${connection}:e:${event.waMessageId}:${event.body.length}`;
    case 'call':
      return `${connection}:c:${event.callId}`;
    case 'sent':
    case 'sendFailed':
      return `${connection}:s:${event.messageId}${event.attempt ? `#${event.attempt}` : ''}`;
    case 'campaignResult':
      return `${connection}:s:${event.messageId}`;
    case 'contacts':
      return `${connection}:k:${event.importId}:${event.batch}`;
    case 'numbersChecked':
      return `${connection}:w:${event.checkId}`;
  }
}

export function inboundGroupId(event: InboundEvent): string {
  // A phone import's batches share one group of their own: they never hold up a contact's messages.
  if (event.kind === 'contacts') return `${event.companyId}:${event.connectionId}:contacts`;
  // Number checks likewise: a list of 10,000 numbers never delays a conversation.
  if (event.kind === 'numbersChecked') return `${event.companyId}:${event.connectionId}:numbers`;
  const number = event.kind === 'message' ? event.message.number : event.number;
  return `${event.companyId}:${event.connectionId}:${number}`;
}

/** One FIFO group per connection: a connection's commands in order (start before logout). */
export const sessionCommandGroupId = (command: { companyId: number; connectionId: number }): string =>
  `${command.companyId}:${command.connectionId}`;

export const sessionCommandDedupeId = (command: { companyId: number; connectionId: number; commandId: string }): string =>
  dedupeIdForSqs(`${sessionCommandGroupId(command)}:${command.commandId}`);

/** SQS dedupe ids: at most 128 characters from a fixed set. Longer or odd ids are hashed, stably. */
export function dedupeIdForSqs(id: string): string {
  if (id.length <= 128 && /^[\w!"#$%&'()*+,\-./:;<=>?@[\\\]^`{|}~]+$/.test(id)) return id;
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (let i = 0; i < id.length; i++) {
    h1 = Math.imul(h1 ^ id.charCodeAt(i), 16777619) >>> 0;
    h2 = Math.imul(h2 + id.charCodeAt(i), 2654435761) >>> 0;
  }
  const safe = id.replace(/[^\w:.-]/g, '_').slice(0, 100);
  return `${safe}#${h1.toString(16)}${h2.toString(16)}`;
}

const commandBase = { ...base, commandId: z.string().min(1) };

export const sessionCommandSchema = z.discriminatedUnion('kind', [
  /** Start (or restart) the session: connect with stored credentials or show a QR. */
  z.object({ kind: z.literal('start'), ...commandBase, usePairingCode: z.string().optional() }),
  /** Drop the credentials and show a fresh QR. */
  z.object({ kind: z.literal('newQr'), ...commandBase }),
  /** Log out on WhatsApp and stop. */
  z.object({ kind: z.literal('logout'), ...commandBase }),
  z.object({
    kind: z.literal('send'),
    ...commandBase,
    /** Our message id: the idempotency key of the send (a retry never sends twice). */
    messageId: z.string().min(1),
    attempt: sendAttempt,
    /** The ticket the message is stored on; absent for a campaign's send, which has none. */
    ticketId: z.number().int().positive().optional(),
    /** A campaign's send: its result comes back as `campaignResult`, not `sent`/`sendFailed`. */
    campaignId: z.number().int().positive().optional(),
    number: z.string().min(1),
    isGroup: z.boolean(),
    body: z.string(),
    media: media.extend({ asVoice: z.boolean().optional() }).optional(),
    quotedWaId: z.string().optional(),
    quotedFromMe: z.boolean().optional(),
  }),
  z.object({
    kind: z.literal('delete'),
    ...commandBase,
    waMessageId: z.string().min(1),
    number: z.string(),
    isGroup: z.boolean(),
    fromMe: z.boolean(),
  }),
  z.object({
    kind: z.literal('edit'),
    ...commandBase,
    waMessageId: z.string().min(1),
    number: z.string(),
    isGroup: z.boolean(),
    body: z.string(),
  }),
  /** List the phone's contacts and publish them to the inbound queue as `contacts` batches. */
  z.object({ kind: z.literal('importContacts'), ...commandBase }),
  /** Ask WhatsApp which of these contact list numbers have an account; answered by `numbersChecked`. */
  z.object({ kind: z.literal('checkNumbers'), ...commandBase, numbers: z.array(numberToCheck).min(1).max(NUMBER_CHECK_BATCH) }),
]);
export type SessionCommand = z.infer<typeof sessionCommandSchema>;
