/**
 * Campaigns and their settings (SPEC 3 "Campaign", "Campaign settings", 4 "Campaign", 5, 7, 9): what
 * the API takes and answers, shared by the functions and the web app.
 */
import * as z from 'zod';
import { messages } from './common.ts';

/** SPEC 4: new campaigns are INATIVA; a scheduledAt makes them PROGRAMADA; the engine moves the rest. */
export const campaignStatuses = ['INATIVA', 'PROGRAMADA', 'EM_ANDAMENTO', 'CANCELADA', 'FINALIZADA'] as const;
export type CampaignStatus = (typeof campaignStatuses)[number];

/** SPEC 4 and 9: a PROGRAMADA campaign stays editable while its start is more than an hour away. */
export const CAMPAIGN_EDIT_LEAD_MS = 60 * 60 * 1000;

/** SPEC 4: editable only if INATIVA, or PROGRAMADA with scheduledAt more than 1 hour ahead. */
export function isCampaignEditable(campaign: { status: CampaignStatus; scheduledAt: string | null }, now = new Date()): boolean {
  if (campaign.status === 'INATIVA') return true;
  if (campaign.status !== 'PROGRAMADA' || !campaign.scheduledAt) return false;
  return Date.parse(campaign.scheduledAt) - now.getTime() > CAMPAIGN_EDIT_LEAD_MS;
}

/** SPEC 3 "tagListId (default "Nenhuma")": no tag as the audience. */
export const NO_TAG_LIST = 'Nenhuma';

export const campaignMessageFields = ['message1', 'message2', 'message3', 'message4', 'message5'] as const;
export const campaignConfirmationFields = [
  'confirmationMessage1',
  'confirmationMessage2',
  'confirmationMessage3',
  'confirmationMessage4',
  'confirmationMessage5',
] as const;
export type CampaignMessageField = (typeof campaignMessageFields)[number] | (typeof campaignConfirmationFields)[number];

export const CAMPAIGN_MESSAGE_MAX = 4096;
export const CAMPAIGNS_PAGE_SIZE = 20;

/** SPEC 5 "Empty strings become null". */
const blankToNull = (value: unknown) => (value === '' || (typeof value === 'string' && value.trim() === '') ? null : value);

const text = z.preprocess(blankToNull, z.string().max(CAMPAIGN_MESSAGE_MAX, messages.tooLong).nullable()).optional();

/** A number, or its digits as text (form values); nothing else is coerced (`[1]` is not an id). */
const toId = (value: unknown) => (typeof value === 'string' && /^\d{1,15}$/.test(value.trim()) ? Number(value) : value);
const id = z.number({ error: 'Invalid id' }).int('Invalid id').positive('Invalid id');

const optionalId = z.preprocess((value) => toId(blankToNull(value)), id.nullable()).optional();

/**
 * An instant with its zone (`toISOString()`, or `2030-01-02T10:00:00-03:00`), stored in UTC. A time
 * without a zone would be read in the server's zone, not the user's: refused rather than guessed.
 */
const instant = z
  .string()
  .trim()
  .refine(
    (value) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i.test(value) && !Number.isNaN(Date.parse(value)),
    'Invalid date: an ISO date-time with its zone',
  )
  .transform((value) => new Date(value).toISOString());

const scheduledAt = z.preprocess(blankToNull, instant.nullable()).optional();

/** A tag id, or "Nenhuma" (also '' or null) for none. */
const tagListId = z
  .preprocess(
    (value) => (value === null || value === '' || value === NO_TAG_LIST ? NO_TAG_LIST : toId(value)),
    z.union([z.literal(NO_TAG_LIST), id], { error: 'Invalid id' }),
  )
  .optional();

const campaignName = z
  .string({ error: messages.required })
  .trim()
  .min(1, messages.required)
  .min(2, messages.tooShort)
  .max(50, messages.tooLong);

const campaignFields = {
  confirmation: z.boolean({ error: 'Expected true or false' }).optional(),
  scheduledAt,
  whatsappId: optionalId,
  contactListId: optionalId,
  tagListId,
  fileListId: optionalId,
  message1: text,
  message2: text,
  message3: text,
  message4: text,
  message5: text,
  confirmationMessage1: text,
  confirmationMessage2: text,
  confirmationMessage3: text,
  confirmationMessage4: text,
  confirmationMessage5: text,
};

/**
 * The body's companyId is ignored (the token names the tenant) and so is its status, except
 * `EM_ANDAMENTO` on a campaign without scheduledAt: "start it now" (SPEC 4's server-made move).
 */
const startNow = z
  .unknown()
  .transform((value) => value === 'EM_ANDAMENTO')
  .optional();

export const createCampaignSchema = z.object({ name: campaignName, ...campaignFields, status: startNow }).strip();
export type CreateCampaignInput = z.output<typeof createCampaignSchema>;

export const updateCampaignSchema = z.object({ name: campaignName.optional(), ...campaignFields, status: startNow }).strip();
export type UpdateCampaignInput = z.output<typeof updateCampaignSchema>;

export const listCampaignsQuerySchema = z.object({
  searchParam: z.string().trim().max(100).optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(10_000).optional().default(1),
});
export type ListCampaignsQuery = z.output<typeof listCampaignsQuerySchema>;

export interface Campaign {
  id: number;
  companyId: number;
  name: string;
  status: CampaignStatus;
  confirmation: boolean;
  scheduledAt: string | null;
  completedAt: string | null;
  whatsappId: number | null;
  contactListId: number | null;
  tagListId: number | typeof NO_TAG_LIST;
  fileListId: number | null;
  message1: string | null;
  message2: string | null;
  message3: string | null;
  message4: string | null;
  message5: string | null;
  confirmationMessage1: string | null;
  confirmationMessage2: string | null;
  confirmationMessage3: string | null;
  confirmationMessage4: string | null;
  confirmationMessage5: string | null;
  /** The `/public/...` route of the campaign's attachment, or null. */
  mediaPath: string | null;
  mediaName: string | null;
  /** Names for the table, read when answering (a renamed list or connection shows renamed). */
  contactList: { id: number; name: string; contactsCount: number } | null;
  whatsapp: { id: number; name: string } | null;
  /** SPEC 4: whether the form may change it now (the server refuses otherwise). */
  editable: boolean;
  /** The report's counters (SPEC 2 "Campaign report"); all 0 before the campaign first starts. */
  progress: CampaignProgress;
  createdAt: string;
  updatedAt: string;
}

/**
 * SPEC 2 "Campaign report": valid contacts (the list's items not known to be off WhatsApp), invalid
 * ones (counted apart, never sent), confirmations requested and given, delivered; plus what the
 * engine has handed to the connection (`queued`) and the sends WhatsApp refused (`failed`).
 */
export interface CampaignProgress {
  valid: number;
  invalid: number;
  queued: number;
  delivered: number;
  failed: number;
  confirmationRequested: number;
  confirmed: number;
}

/**
 * Live progress on `company-{id}-campaign` (SPEC 7), besides the create/update/delete events: sent
 * as results come in, with the status (FINALIZADA once every valid contact is delivered).
 */
export interface CampaignProgressEvent {
  action: 'progress';
  id: number;
  status: CampaignStatus;
  completedAt: string | null;
  progress: CampaignProgress;
}

export interface CampaignsPage {
  records: Campaign[];
  hasMore: boolean;
}

/** SPEC 9: seconds. */
export const messageIntervals = [0, 5, 10, 15, 20] as const;
export const longerIntervals = [0, 1, 5, 10, 15, 20, 30, 40, 60, 80, 100, 120] as const;

export interface CampaignVariable {
  key: string;
  value: string;
}

export interface CampaignSettings {
  messageInterval: number;
  longerIntervalAfter: number;
  greaterInterval: number;
  variables: CampaignVariable[];
}

/** SPEC 3 "Campaign settings" defaults. */
export const defaultCampaignSettings: CampaignSettings = {
  messageInterval: 20,
  longerIntervalAfter: 20,
  greaterInterval: 60,
  variables: [],
};

/** The placeholders every message has already (SPEC 9): a variable cannot take their names. */
export const builtInPlaceholders = ['nome', 'numero', 'email'] as const;
export const MAX_CAMPAIGN_VARIABLES = 50;

const oneOf = (allowed: readonly number[]) =>
  z.coerce
    .number({ error: `One of ${allowed.join(', ')}` })
    .refine((value) => allowed.includes(value), `One of ${allowed.join(', ')}`)
    .optional();

const variable = z
  .object({
    key: z
      .string({ error: messages.required })
      .trim()
      .regex(/^[\p{L}\p{N}_]{1,30}$/u, 'Letters, digits and _ (1-30)')
      .refine((key) => !(builtInPlaceholders as readonly string[]).includes(key.toLowerCase()), 'Reserved placeholder'),
    value: z.string({ error: messages.required }).max(1000, messages.tooLong),
  })
  .strip();

/**
 * POST /campaign-settings `{ settings: {...} }` as the spec's client sends it; absent keys keep their
 * value. SPEC 5 "Variable shortcuts must be unique (duplicates silently ignored)": the first wins.
 */
export const campaignSettingsInputSchema = z
  .object({
    settings: z
      .object({
        messageInterval: oneOf(messageIntervals),
        longerIntervalAfter: oneOf(longerIntervals),
        greaterInterval: oneOf(longerIntervals),
        variables: z
          .array(variable)
          .max(MAX_CAMPAIGN_VARIABLES, `At most ${MAX_CAMPAIGN_VARIABLES}`)
          .transform((list) => list.filter((v, i) => list.findIndex((w) => w.key === v.key) === i))
          .optional(),
      })
      .strip(),
  })
  .strip();
export type CampaignSettingsInput = z.output<typeof campaignSettingsInputSchema>['settings'];

/** GET /campaign-settings: SPEC 7 "list of key and JSON value". */
export type CampaignSettingsRecords = { key: keyof CampaignSettings; value: string }[];

/**
 * GET /campaigns/{id}/recipients (issue 25): the campaign report's list of whom it reaches, each with
 * where their message is. `invalid`: off WhatsApp, never shipped; `pending`: not shipped yet; `sent`:
 * handed to the connection, no result yet; `delivered` / `failed`: the send's result; `read`: the
 * contact's phone reported the message read.
 */
export const campaignRecipientStates = ['pending', 'sent', 'delivered', 'read', 'failed', 'invalid'] as const;
export type CampaignRecipientState = (typeof campaignRecipientStates)[number];
export const CAMPAIGN_RECIPIENTS_PAGE_SIZE = 50;

export const listCampaignRecipientsQuerySchema = z.object({
  pageNumber: z.coerce.number().int().min(1).max(10_000).optional().default(1),
  state: z.enum(campaignRecipientStates).optional(),
});
export type ListCampaignRecipientsQuery = z.output<typeof listCampaignRecipientsQuerySchema>;

export interface CampaignRecipient {
  name: string;
  number: string;
  state: CampaignRecipientState;
  /** When it reached this state (ISO), null for pending and invalid. */
  at: string | null;
  /** The connection's reason of a failure. */
  error: string | null;
}

export interface CampaignRecipientsPage {
  records: CampaignRecipient[];
  count: number;
  hasMore: boolean;
}
