/**
 * AI prompts (SPEC 3 "AI prompt", 5, 7 "Prompts and integrations", 9 defaults): the requests of
 * /prompt and what the API answers. The API key never travels back: `apiKey` in an answer is its hint
 * ("sk-…a1b2"), and a PUT that sends the hint back (or no apiKey) keeps the stored key.
 */
import * as z from 'zod';

/** SPEC 9. */
export const PROMPT_DEFAULTS = { maxTokens: 100, temperature: 1, maxMessages: 10, voice: 'texto' } as const;

/** Server-side bounds (SPEC 5 applies none in the browser; these keep a provider call sane). */
export const PROMPT_LIMITS = {
  name: 100,
  prompt: 20_000,
  maxTokens: 4096,
  temperature: 2,
  maxMessages: 50,
  apiKey: 500,
} as const;

/** 'texto' answers in text; the others are Azure's Brazilian Portuguese neural voices (SPEC 9: 15). */
export const PROMPT_VOICES = [
  'texto',
  'pt-BR-FranciscaNeural',
  'pt-BR-AntonioNeural',
  'pt-BR-BrendaNeural',
  'pt-BR-DonatoNeural',
  'pt-BR-ElzaNeural',
  'pt-BR-FabioNeural',
  'pt-BR-GiovannaNeural',
  'pt-BR-HumbertoNeural',
  'pt-BR-JulioNeural',
  'pt-BR-LeilaNeural',
  'pt-BR-LeticiaNeural',
  'pt-BR-ManuelaNeural',
  'pt-BR-NicolauNeural',
  'pt-BR-ValerioNeural',
  'pt-BR-YaraNeural',
] as const;
export type PromptVoice = (typeof PROMPT_VOICES)[number];

export const promptMessages = {
  /** SPEC 5: the one rule the original applies. */
  queue: 'Informe o setor',
  required: 'Obrigatório',
  tooLong: 'Too Long!',
  range: 'Fora do intervalo',
  apiKey: 'Chave inválida',
} as const;
const M = promptMessages;

/** A number, or the text of one (form fields); never a boolean, '' or null silently read as 0. */
const numeric = z.union(
  [
    z.number(),
    z
      .string()
      .trim()
      .regex(/^-?\d+(\.\d+)?$/, M.range)
      .transform(Number),
  ],
  { error: M.range },
);
const bounded = (min: number, max: number, int: boolean) =>
  numeric.pipe(int ? z.number().int(M.range).min(min, M.range).max(max, M.range) : z.number().min(min, M.range).max(max, M.range));

/** The hint an answer carried: contains "…", which no real key does. */
export const looksLikeHint = (value: string): boolean => value.includes('…');

/** Printable ASCII without spaces: it becomes an HTTP Authorization header. The hint passes (it means "keep"). */
const apiKey = z
  .string({ error: M.apiKey })
  .trim()
  .max(PROMPT_LIMITS.apiKey, M.tooLong)
  .refine((value) => looksLikeHint(value) || /^[\x21-\x7e]*$/.test(value), M.apiKey);

const fields = {
  name: z.string({ error: M.required }).trim().min(1, M.required).max(PROMPT_LIMITS.name, M.tooLong),
  prompt: z.string({ error: M.required }).max(PROMPT_LIMITS.prompt, M.tooLong),
  voice: z.enum(PROMPT_VOICES, { error: M.required }),
  voiceKey: z.string().trim().max(200, M.tooLong),
  voiceRegion: z
    .string()
    .trim()
    .max(50, M.tooLong)
    .regex(/^[A-Za-z0-9-]*$/, M.range),
  maxTokens: bounded(1, PROMPT_LIMITS.maxTokens, true),
  temperature: bounded(0, PROMPT_LIMITS.temperature, false),
  maxMessages: bounded(1, PROMPT_LIMITS.maxMessages, true),
  apiKey,
  queueId: z
    .union([z.number(), z.string().trim().regex(/^\d+$/, M.queue).transform(Number)], { error: M.queue })
    .pipe(z.number().int(M.queue).positive(M.queue).max(Number.MAX_SAFE_INTEGER, M.queue)),
};

/** POST /prompt. */
export const createPromptSchema = z
  .object({
    name: fields.name,
    prompt: fields.prompt.optional().default(''),
    voice: fields.voice.optional().default(PROMPT_DEFAULTS.voice),
    voiceKey: fields.voiceKey.optional().default(''),
    voiceRegion: fields.voiceRegion.optional().default(''),
    maxTokens: fields.maxTokens.optional().default(PROMPT_DEFAULTS.maxTokens),
    temperature: fields.temperature.optional().default(PROMPT_DEFAULTS.temperature),
    maxMessages: fields.maxMessages.optional().default(PROMPT_DEFAULTS.maxMessages),
    apiKey: fields.apiKey.optional().default(''),
    queueId: fields.queueId,
  })
  .strip();
export type CreatePromptInput = z.output<typeof createPromptSchema>;

/** PUT /prompt/{id}: any subset. */
export const updatePromptSchema = z
  .object(
    Object.fromEntries(Object.entries(fields).map(([key, schema]) => [key, schema.optional()])) as {
      [K in keyof typeof fields]: z.ZodOptional<(typeof fields)[K]>;
    },
  )
  .strip();
export type UpdatePromptInput = z.output<typeof updatePromptSchema>;

/** GET /prompt: the admins' page lists all (a handful per company); searchParam narrows by name. */
export const listPromptsQuerySchema = z.object({
  searchParam: z.string().trim().max(100, M.tooLong).optional().default(''),
});

/** What the API answers: the stored prompt with the key as its hint and the queue's name. */
export interface Prompt {
  id: number;
  companyId: number;
  name: string;
  prompt: string;
  voice: string;
  voiceKey: string;
  voiceRegion: string;
  maxTokens: number;
  temperature: number;
  maxMessages: number;
  /** The stored key's hint ("sk-…a1b2"), '' when none is set. Never the key. */
  apiKey: string;
  queueId: number;
  queue: { id: number; name: string } | null;
  createdAt: string;
  updatedAt: string;
}

/** `company-{id}-prompt` payload: ids only (the admins' page refetches). */
export type PromptEvent = { action: 'create' | 'update' | 'delete'; id: number };
