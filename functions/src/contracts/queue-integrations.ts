/**
 * Queue integrations (SPEC 3 "Queue integration", 5, 7 "Prompts and integrations", 9 defaults):
 * the requests of /queueIntegration and what the API answers. Credentials never travel back: the
 * answer says only whether a Dialogflow service account is set. The signing secret of an n8n or
 * webhook integration is the tenant's own key for checking X-Conversa-Signature, so its admins see it.
 */
import * as z from 'zod';

export const integrationTypes = ['dialogflow', 'n8n', 'webhook', 'typebot'] as const;
export type IntegrationType = (typeof integrationTypes)[number];
export const integrationLanguages = ['pt-BR', 'en', 'es'] as const;

/** SPEC 9: Typebot waits 1000 ms between bubbles and a session expires after 1 (minute). */
export const TYPEBOT_DELAY_DEFAULT = 1000;
export const TYPEBOT_EXPIRES_DEFAULT = 1;

export const integrationMessages = {
  tooShort: 'Too Short!',
  tooLong: 'Too Long!',
  required: 'Required',
  url: 'Invalid URL',
  slug: 'Invalid slug',
  projectName: 'Invalid project name',
  credentials: 'Invalid service account JSON',
} as const;

const M = integrationMessages;

/** http(s) only: the server POSTs to it, so no file:, data: or other schemes. */
export const isHttpUrl = (text: string): boolean => {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
};

const text = (max: number) => z.string().trim().max(max, M.tooLong);
const name = z.string({ error: M.required }).trim().min(1, M.required).min(2, M.tooShort).max(50, M.tooLong);
const url = text(2000).refine((value) => value === '' || isHttpUrl(value), M.url);
/** Dialogflow's project and Typebot's slug end up in a provider's URL path: letters, digits and - _ . only. */
export const isPathSegment = (value: string): boolean => /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(value);
const pathSegment = (message: string) => text(100).refine((value) => value === '' || isPathSegment(value), message);
const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

const fields = {
  type: z.enum(integrationTypes, { error: M.required }),
  name,
  /**
   * Any text here: n8n, webhook and typebot take their name as project name (SPEC 5), spaces and all,
   * and clients send it so. Dialogflow's, a Google Cloud project id in the provider's URL, must be a
   * path segment: checkIntegration holds that once the type is known.
   */
  projectName: text(100),
  /** The Dialogflow service account's JSON; '' or absent on update keeps the stored one. */
  jsonContent: z.string().max(20_000, M.tooLong),
  language: z.enum(integrationLanguages),
  urlN8N: url,
  typebotSlug: pathSegment(M.slug),
  /** Minutes of silence after which a Typebot session starts over. */
  typebotExpires: int(0, 525_600),
  /** Milliseconds between two bubbles. */
  typebotDelayMessage: int(0, 60_000),
  typebotKeywordFinish: text(100),
  typebotKeywordRestart: text(100),
  typebotUnknownMessage: text(4000),
  typebotRestartMessage: text(4000),
};

/** POST /queueIntegration. n8n, webhook and typebot take their name as project name (SPEC 5). */
export const createIntegrationSchema = z
  .object({
    type: fields.type,
    name: fields.name,
    projectName: fields.projectName.optional().default(''),
    jsonContent: fields.jsonContent.optional().default(''),
    language: fields.language.optional().default('pt-BR'),
    urlN8N: fields.urlN8N.optional().default(''),
    typebotSlug: fields.typebotSlug.optional().default(''),
    typebotExpires: fields.typebotExpires.optional().default(TYPEBOT_EXPIRES_DEFAULT),
    typebotDelayMessage: fields.typebotDelayMessage.optional().default(TYPEBOT_DELAY_DEFAULT),
    typebotKeywordFinish: fields.typebotKeywordFinish.optional().default(''),
    typebotKeywordRestart: fields.typebotKeywordRestart.optional().default(''),
    typebotUnknownMessage: fields.typebotUnknownMessage.optional().default(''),
    typebotRestartMessage: fields.typebotRestartMessage.optional().default(''),
  })
  .strip();
export type CreateIntegrationInput = z.output<typeof createIntegrationSchema>;

/** PUT /queueIntegration/{id}: any subset; the result is checked as a whole (checkIntegration). */
export const updateIntegrationSchema = z
  .object(
    Object.fromEntries(Object.entries(fields).map(([key, schema]) => [key, schema.optional()])) as {
      [K in keyof typeof fields]: z.ZodOptional<(typeof fields)[K]>;
    },
  )
  .strip();
export type UpdateIntegrationInput = z.output<typeof updateIntegrationSchema>;

export const listIntegrationsQuerySchema = z.object({
  searchParam: z.string().trim().max(100).optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(10_000).optional().default(1),
});

/**
 * POST /queueIntegration/testSession: the dialog's current projectName, jsonContent and language.
 * When editing, the browser does not have the stored credentials: `id` names the integration whose
 * stored JSON is used when jsonContent is empty.
 */
export const testSessionSchema = z
  .object({
    projectName: z.string({ error: M.required }).trim().min(1, M.required).pipe(pathSegment(M.projectName)),
    jsonContent: fields.jsonContent.optional().default(''),
    language: fields.language.optional().default('pt-BR'),
    id: z.coerce.number().int().positive().optional(),
  })
  .strip();
export type TestSessionInput = z.output<typeof testSessionSchema>;

/** A Dialogflow service account as Google issues it: the three fields the token exchange needs. */
export interface ServiceAccount {
  client_email: string;
  private_key: string;
  token_uri: string;
}

/** The service account in `json`, or the reason it is not one (the message shown on the field). */
export function parseServiceAccount(json: string): ServiceAccount | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  const { client_email, private_key, token_uri } = parsed as Record<string, unknown>;
  if (typeof client_email !== 'string' || !client_email.includes('@') || client_email.length > 320) return undefined;
  if (typeof private_key !== 'string' || !private_key.includes('PRIVATE KEY')) return undefined;
  if (typeof token_uri !== 'string' || !isHttpUrl(token_uri)) return undefined;
  return { client_email, private_key, token_uri };
}

/** The stored shape the type rules look at (a create, or an update merged over the record). */
export interface IntegrationShape {
  type: IntegrationType;
  name: string;
  urlN8N: string;
  typebotSlug: string;
  projectName: string;
  /** Dialogflow credentials set (stored, or given now). */
  hasCredentials: boolean;
}

/** SPEC 5 per type: the offending field and its message, or undefined when the shape is whole. */
export function checkIntegration(shape: IntegrationShape): { field: string; message: string } | undefined {
  if (shape.type === 'dialogflow') {
    if (!shape.projectName) return { field: 'projectName', message: M.required };
    // An n8n/webhook/typebot turned into Dialogflow carries its name as project name: it must be one.
    if (!isPathSegment(shape.projectName)) return { field: 'projectName', message: M.projectName };
    if (!shape.hasCredentials) return { field: 'jsonContent', message: M.required };
    return undefined;
  }
  if (!shape.urlN8N) return { field: 'urlN8N', message: M.required };
  if (shape.type === 'typebot' && !shape.typebotSlug) return { field: 'typebotSlug', message: M.required };
  return undefined;
}

/** What GET, POST and PUT answer. */
export interface QueueIntegration {
  id: number;
  companyId: number;
  type: IntegrationType;
  name: string;
  projectName: string;
  /** Whether a Dialogflow service account is stored (the JSON itself never comes back). */
  jsonContentSet: boolean;
  language: string;
  urlN8N: string;
  typebotSlug: string;
  typebotExpires: number;
  typebotDelayMessage: number;
  typebotKeywordFinish: string;
  typebotKeywordRestart: string;
  typebotUnknownMessage: string;
  typebotRestartMessage: string;
  /** n8n and webhook: the HMAC key of X-Conversa-Signature ('' for the other types). */
  signingSecret: string;
  createdAt: string;
  updatedAt: string;
}

/** `company-{id}-queueIntegration`: ids only; the page refetches (admins only read the records). */
export type QueueIntegrationEvent = { action: 'create' | 'update' | 'delete'; id: number };

/** POST /queueIntegration/testSession's answer when Dialogflow answered. */
export interface TestSessionResult {
  ok: true;
  replies: string[];
}
