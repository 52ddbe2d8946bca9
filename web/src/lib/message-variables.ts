/**
 * Placeholders of messages written ahead: campaigns' (SPEC "Campaign": {nome}, {numero}, {email})
 * and quick replies'. Since issue 25 the quick-reply dialog offers the campaigns' contact
 * placeholders, one set to learn; the older `{{key}}` variables of replies already written keep
 * working. When the attendant uses a quick reply in a conversation, each is replaced with the
 * ticket's contact and the moment, in the attendant's local time, before the text reaches the input
 * (or the caption of a file). Unknown or unfillable ones stay as written.
 */

/** The contact placeholders of campaign messages (SPEC "Campaign"), offered by the quick-reply dialog too. */
export const CONTACT_PLACEHOLDERS = ['{nome}', '{numero}', '{email}'] as const;

/** What the variables are filled from. */
export interface MessageVariableContext {
  contactName: string;
  /** The contact's number and e-mail, for {numero} and {email}; left as written when not known. */
  contactNumber?: string;
  contactEmail?: string;
  ticketId: number;
  /** The attendant's clock (local time). */
  now: Date;
}

/** The older quick-reply variables (each `{{key}}`), still filled in replies that carry them. */
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

/** Whether `text` carries a campaign placeholder that needs the contact's full record ({numero}, {email}). */
export const needsContactRecord = (text: string): boolean => /(?<!\{)\{(numero|email)\}(?!\})/.test(text);

/** `text` with every known `{{variable}}` (spaces inside the braces allowed) and `{placeholder}` replaced. */
export function fillMessageVariables(text: string, context: MessageVariableContext): string {
  const known = values(context);
  const contact = new Map(
    Object.entries({ nome: context.contactName.trim(), numero: context.contactNumber, email: context.contactEmail }).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
  );
  return text
    .replace(/\{\{\s*([A-Za-z]+)\s*\}\}/g, (whole, key: string) => known.get(key) ?? whole)
    .replace(/(?<!\{)\{(nome|numero|email)\}(?!\})/g, (whole, key: string) => contact.get(key) ?? whole);
}
