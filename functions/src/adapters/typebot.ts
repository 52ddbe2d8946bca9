/**
 * Typebot's chat API v1 (https://docs.typebot.io/deploy/api/overview), the "Live" flavour: a published
 * bot is started with POST <base>/api/v1/typebots/<publicId>/startChat and answered with
 * POST <base>/api/v1/sessions/<sessionId>/continueChat `{message}`. No token: the tenant's bot is public.
 * An answer's `messages` are bubbles; the text ones carry Slate rich text (paragraphs of text leaves,
 * links and variables nesting more of them), flattened here to what WhatsApp shows. No `input` in the
 * answer means the flow ended. An unknown or expired session is Typebot's 404 (TRPC NOT_FOUND).
 */
import { ProviderError } from './provider-error.ts';
import { isRecord, MAX_BOT_REPLIES, parseJsonObject, providerFetch, withoutTrailingSlash } from './provider-http.ts';

export interface TypebotTurn {
  sessionId: string;
  /** Text bubbles in order (rich text flattened), then the choices of a buttons input as one list. */
  bubbles: string[];
  /** No input awaited: the flow is over. */
  ended: boolean;
}

/**
 * Tenants paste the viewer's URL as they see it (`https://typebot.example.com/`, sometimes with
 * `/api/v1`): the API root is the origin and path without those.
 */
function apiRoot(baseUrl: string): string {
  return `${withoutTrailingSlash(baseUrl.trim()).replace(/\/api(\/v1)?$/, '')}/api/v1`;
}

export async function startTypebotChat(o: { baseUrl: string; slug: string; message?: string; timeoutMs?: number }): Promise<TypebotTurn> {
  if (!o.slug.trim()) throw new ProviderError('typebot', 'invalid', 'no typebot slug');
  // `message` as a plain string: every version of the API takes it (newer ones also take {type, text}).
  const body = o.message === undefined || o.message === '' ? {} : { message: o.message };
  const answer = await post(`${apiRoot(o.baseUrl)}/typebots/${encodeURIComponent(o.slug.trim())}/startChat`, body, o.timeoutMs);
  if (typeof answer.sessionId !== 'string' || !answer.sessionId)
    throw new ProviderError('typebot', 'invalid', 'startChat answered no sessionId');
  return turnOf(answer.sessionId, answer);
}

export async function continueTypebotChat(o: {
  baseUrl: string;
  sessionId: string;
  message: string;
  timeoutMs?: number;
}): Promise<TypebotTurn> {
  if (!o.sessionId) throw new ProviderError('typebot', 404, 'no session to continue');
  const answer = await post(
    `${apiRoot(o.baseUrl)}/sessions/${encodeURIComponent(o.sessionId)}/continueChat`,
    { message: o.message },
    o.timeoutMs,
  );
  return turnOf(o.sessionId, answer);
}

async function post(url: string, body: unknown, timeoutMs: number | undefined): Promise<Record<string, unknown>> {
  const answer = await providerFetch('typebot', url, {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    timeoutMs,
    tenantUrl: true,
  });
  return parseJsonObject('typebot', answer.text);
}

function turnOf(sessionId: string, answer: Record<string, unknown>): TypebotTurn {
  if (answer.messages !== undefined && !Array.isArray(answer.messages))
    throw new ProviderError('typebot', 'invalid', 'the answer has no messages list');
  const bubbles: string[] = [];
  for (const message of (answer.messages as unknown[] | undefined) ?? []) {
    const text = bubbleText(message);
    if (text) bubbles.push(text);
  }
  const input = isRecord(answer.input) ? answer.input : undefined;
  const choices = input ? choicesOf(input) : '';
  if (choices) bubbles.push(choices);
  return { sessionId, bubbles: bubbles.slice(0, MAX_BOT_REPLIES), ended: !input };
}

/** A text bubble's words; other bubbles (image, video, audio, embed) are not text and are left out. */
function bubbleText(message: unknown): string {
  if (!isRecord(message) || message.type !== 'text' || !isRecord(message.content)) return '';
  const content = message.content;
  if (content.type === 'markdown' && typeof content.markdown === 'string') return content.markdown.trim();
  if (Array.isArray(content.richText)) return flattenRichText(content.richText);
  // Older viewers also sent a plain rendering beside the rich text.
  if (typeof content.plainText === 'string') return content.plainText.trim();
  return '';
}

/** Slate: top-level elements are lines (paragraphs), their leaves' text joined within a line. */
export function flattenRichText(nodes: unknown[]): string {
  return nodes
    .map(inlineText)
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function inlineText(node: unknown): string {
  if (!isRecord(node)) return '';
  if (typeof node.text === 'string') return node.text;
  if (!Array.isArray(node.children)) return '';
  // A variable's value may hold several paragraphs (a list variable): those are lines too.
  const separator = node.type === 'inline-variable' || node.type === 'variable' ? '\n' : '';
  return node.children.map(inlineText).join(separator);
}

/** A buttons input's choices, one per line, for a channel without buttons: the contact answers with one. */
function choicesOf(input: Record<string, unknown>): string {
  if (input.type !== 'choice input' || !Array.isArray(input.items)) return '';
  return input.items
    .map((item) => (isRecord(item) && typeof item.content === 'string' ? item.content.trim() : ''))
    .filter(Boolean)
    .join('\n');
}
