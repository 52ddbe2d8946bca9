/**
 * The AI prompts' model: an OpenAI-compatible chat completions API (POST <base>/chat/completions,
 * Bearer key, `{model, messages, max_tokens, temperature}` -> `choices[0].message.content`), base URL
 * OPENAI_BASE_URL (OpenAI unless set), model OPENAI_MODEL. Audio is transcribed with the same key at
 * TRANSCRIPTION_BASE_URL (POST <base>/audio/transcriptions, multipart, whisper-1) when that is set.
 * The key is the prompt's own (the tenant's), sent only to the configured base URL.
 */
import { env } from '#commons/env';
import { ProviderError } from './provider-error.ts';
import { isRecord, parseJsonObject, providerFetch, withoutTrailingSlash } from './provider-http.ts';

export interface ChatTurn {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export const TRANSCRIPTION_MODEL = 'whisper-1';

export async function chatCompletion(o: {
  apiKey: string;
  messages: ChatTurn[];
  maxTokens: number;
  temperature: number;
  timeoutMs?: number;
}): Promise<string> {
  const body: Record<string, unknown> = {
    model: env.openAiModel,
    messages: o.messages.map(({ role, content }) => ({ role, content })),
    temperature: o.temperature,
  };
  if (o.maxTokens > 0) body.max_tokens = o.maxTokens;
  const answer = await providerFetch('openai', `${withoutTrailingSlash(env.openAiBaseUrl)}/chat/completions`, {
    headers: { authorization: `Bearer ${o.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    timeoutMs: o.timeoutMs,
  });
  const parsed = parseJsonObject('openai', answer.text);
  const choices = parsed.choices;
  const message = Array.isArray(choices) && isRecord(choices[0]) ? choices[0].message : undefined;
  if (!isRecord(message)) throw new ProviderError('openai', 'invalid', 'the answer has no choices[0].message');
  const content = textOf(message.content);
  if (content !== undefined) return content.trim();
  // A model that declines answers `refusal` instead of content: that is its answer to the contact.
  if (typeof message.refusal === 'string' && message.refusal) return message.refusal.trim();
  throw new ProviderError('openai', 'invalid', 'the answer has no text content');
}

/** `content` is a string, or (some compatible servers) an array of parts of which the text ones count. */
function textOf(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const texts = content.filter((part) => isRecord(part) && typeof part.text === 'string').map((part) => (part as { text: string }).text);
  return texts.length > 0 ? texts.join('') : undefined;
}

/** Whether this deployment transcribes audio at all (TRANSCRIPTION_BASE_URL set). */
export const transcriptionConfigured = (): boolean => Boolean(env.transcriptionBaseUrl);

export async function transcribeAudio(o: {
  apiKey: string;
  audio: Uint8Array;
  filename: string;
  mimetype: string;
  timeoutMs?: number;
}): Promise<string> {
  const base = env.transcriptionBaseUrl;
  if (!base) throw new ProviderError('openai', 'invalid', 'transcription is not configured (TRANSCRIPTION_BASE_URL)');
  const form = new FormData();
  form.append('file', new Blob([o.audio], { type: o.mimetype || 'application/octet-stream' }), o.filename || 'audio');
  form.append('model', TRANSCRIPTION_MODEL);
  const answer = await providerFetch('openai', `${withoutTrailingSlash(base)}/audio/transcriptions`, {
    headers: { authorization: `Bearer ${o.apiKey}` },
    body: form,
    timeoutMs: o.timeoutMs,
  });
  const parsed = parseJsonObject('openai', answer.text);
  if (typeof parsed.text !== 'string') throw new ProviderError('openai', 'invalid', 'the transcription has no text');
  return parsed.text.trim();
}
