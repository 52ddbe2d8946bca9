/**
 * The body of every message on our queues (inbound events, session commands): JSON that SQS always
 * accepts, so no message is ever refused for the text it carries. Every producer writes with
 * `encodeQueueBody` and every consumer reads with `decodeQueueBody`.
 *
 * SQS refuses a body holding anything outside #x9 | #xA | #xD | #x20-#xD7FF | #xE000-#xFFFD |
 * #x10000-#x10FFFF. In JSON text, JSON.stringify already writes the C0 controls (NUL among them) as
 * \u escapes; what is left is escaped here, inside the string literals where it can only be:
 *   - U+FFFE and U+FFFF (noncharacters, but valid text): written as \ufffe and \uffff, so they
 *     arrive exactly as sent;
 *   - lone surrogates (half of an emoji, cut): not characters at all. No UTF-8 system can carry one
 *     (WhatsApp, DynamoDB, the browser all write U+FFFD instead), so they become U+FFFD here, the
 *     same replacement, made once where we can see it. `wellFormedText` does it for text that is
 *     stored before it is queued (our outgoing messages), so what is stored is what is sent.
 * Everything else (emoji, right-to-left text, NUL, any other control) arrives exactly as written.
 */

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const NONCHARACTER = /[\uFFFE\uFFFF]/g;

/** `text` with each lone surrogate replaced by U+FFFD (String#toWellFormed, which ES2023 lacks). */
export const wellFormedText = (text: string): string => text.replace(LONE_SURROGATE, '\uFFFD');

export function encodeQueueBody(value: unknown): string {
  const json = JSON.stringify(value, (_key, field: unknown) => (typeof field === 'string' ? wellFormedText(field) : field));
  return json.replace(NONCHARACTER, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

export const decodeQueueBody = (body: string): unknown => JSON.parse(body);
