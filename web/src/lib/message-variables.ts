/**
 * Variables of quick replies (SPEC 2 "Quick messages": the dialog's insert-at-cursor helper offers
 * them; the product family's message variables). The dialog inserts `{{key}}`; when the attendant
 * uses the quick reply in a conversation, each is replaced with the ticket's contact and the moment,
 * in the attendant's local time, before the text reaches the input (or the caption of a file).
 * Unknown `{{...}}` stay as written.
 */

/** What the variables are filled from. */
export interface MessageVariableContext {
  contactName: string;
  ticketId: number;
  /** The attendant's clock (local time). */
  now: Date;
}

/** The variables the dialog offers, in its menu's order (each `{{key}}`). */
export const MESSAGE_VARIABLES = ['name', 'firstName', 'greeting', 'protocol', 'date', 'hour'] as const;
export type MessageVariable = (typeof MESSAGE_VARIABLES)[number];

const two = (n: number) => String(n).padStart(2, '0');

/** Portuguese, like the other automatic texts the contact receives: by the attendant's local hour. */
export function greetingAt(now: Date): string {
  const hour = now.getHours();
  if (hour >= 5 && hour < 12) return 'Bom dia';
  if (hour >= 12 && hour < 18) return 'Boa tarde';
  return 'Boa noite';
}

function values(context: MessageVariableContext): Map<string, string> {
  const { now } = context;
  const name = context.contactName.trim();
  const date = `${two(now.getDate())}/${two(now.getMonth() + 1)}/${now.getFullYear()}`;
  const hour = `${two(now.getHours())}:${two(now.getMinutes())}`;
  const greeting = greetingAt(now);
  return new Map(
    Object.entries({
      name,
      firstName: name.split(/\s+/)[0] ?? '',
      greeting,
      // The moment and the ticket: unique per ticket and time, and readable back by the attendant.
      protocol: `${now.getFullYear()}${two(now.getMonth() + 1)}${two(now.getDate())}${two(now.getHours())}${two(now.getMinutes())}${two(now.getSeconds())}${context.ticketId}`,
      date,
      hour,
      // The names the product family used, so quick replies written for it keep working.
      ms: greeting,
      hora: hour,
    }),
  );
}

/** `text` with every known `{{variable}}` (spaces inside the braces allowed) replaced. */
export function fillMessageVariables(text: string, context: MessageVariableContext): string {
  const known = values(context);
  return text.replace(/\{\{\s*([A-Za-z]+)\s*\}\}/g, (whole, key: string) => known.get(key) ?? whole);
}
