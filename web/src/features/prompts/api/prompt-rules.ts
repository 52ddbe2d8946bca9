/**
 * The prompt dialog's pure rules (SPEC 3 "AI prompt", 5, 9): the form's starting values (the SPEC 9
 * defaults; the API and voice key fields empty, as the stored keys never come back), what a save sends
 * (an untouched key field sends no apiKey / voiceKey, so the server keeps the stored key), the contract's messages
 * as translation keys, and the voices' labels.
 */
import { createPromptSchema, PROMPT_DEFAULTS, type Prompt, promptMessages } from '@conversa/functions/contracts/prompts';

export interface PromptFormValues {
  name: string;
  prompt: string;
  queueId: string;
  voice: string;
  voiceKey: string;
  voiceRegion: string;
  maxTokens: string;
  temperature: string;
  maxMessages: string;
  apiKey: string;
}
export type PromptField = keyof PromptFormValues;

export const initialPromptValues = (prompt: Prompt | undefined): PromptFormValues => ({
  name: prompt?.name ?? '',
  prompt: prompt?.prompt ?? '',
  queueId: prompt?.queueId ? String(prompt.queueId) : '',
  voice: prompt?.voice ?? PROMPT_DEFAULTS.voice,
  voiceKey: '',
  voiceRegion: prompt?.voiceRegion ?? '',
  maxTokens: String(prompt?.maxTokens ?? PROMPT_DEFAULTS.maxTokens),
  temperature: String(prompt?.temperature ?? PROMPT_DEFAULTS.temperature),
  maxMessages: String(prompt?.maxMessages ?? PROMPT_DEFAULTS.maxMessages),
  apiKey: '',
});

/** What travels: the form's fields, less an untouched API or voice key (the server keeps the stored one). */
export function promptInput(values: PromptFormValues): Record<string, unknown> {
  const { apiKey, voiceKey, queueId, ...rest } = values;
  return {
    ...rest,
    queueId: queueId === '' ? undefined : queueId,
    ...(apiKey.trim() ? { apiKey: apiKey.trim() } : {}),
    ...(voiceKey.trim() ? { voiceKey: voiceKey.trim() } : {}),
  };
}

/** The contract's words (SPEC 5: 'Informe o setor') as translation keys. */
export const promptMessageKeys: Record<string, string> = {
  [promptMessages.queue]: 'prompts.validation.queue',
  [promptMessages.required]: 'prompts.validation.required',
  [promptMessages.tooLong]: 'prompts.validation.tooLong',
  [promptMessages.range]: 'prompts.validation.range',
  [promptMessages.apiKey]: 'prompts.validation.apiKey',
};

/** The first problem per field, as translation keys (or the contract's text when it has none). */
export function promptProblems(values: PromptFormValues): Partial<Record<PromptField, string>> | undefined {
  const parsed = createPromptSchema.safeParse(promptInput(values));
  if (parsed.success) return undefined;
  const problems: Partial<Record<PromptField, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? '') as PromptField;
    problems[field] ??= promptMessageKeys[issue.message] ?? issue.message;
  }
  return problems;
}

/** 'pt-BR-FranciscaNeural' -> 'Francisca (pt-BR)'; 'texto' has a translated label. */
export const voiceName = (voice: string): string | undefined =>
  voice === 'texto' ? undefined : `${voice.replace(/^pt-BR-/, '').replace(/Neural$/, '')} (pt-BR)`;
