/**
 * The pure parts of shipping a campaign (BEHAVIOUR "Campaigns", SPEC 9): which message a contact
 * gets, its placeholders filled, the ids of its sends, and the pace of a connection's sends.
 * No storage, no clock: unit-tested in functions/test/campaigns-compose.test.ts.
 */
import { type CampaignSettings, type CampaignVariable, campaignConfirmationFields, campaignMessageFields } from '#contracts/campaigns';

type Messages = Partial<Record<(typeof campaignMessageFields)[number] | (typeof campaignConfirmationFields)[number], string | null>>;

/** Index of one of the filled fields at random (`random` in [0, 1)), or undefined when none is. */
function pickIndex(fields: readonly string[], values: Messages, random: number): number | undefined {
  const filled = fields.map((_, index) => index).filter((index) => values[fields[index] as keyof Messages]?.trim());
  if (!filled.length) return undefined;
  return filled[Math.min(filled.length - 1, Math.floor(random * filled.length))];
}

/**
 * message1..5 at random among the filled ones, and with confirmation on, the confirmation message of
 * the same tab when it is filled (else one of the filled confirmation messages at random).
 */
export function pickMessages(
  campaign: Messages & { confirmation: boolean },
  random: () => number,
): { message: string; confirmation?: string } | undefined {
  const index = pickIndex(campaignMessageFields, campaign, random());
  if (index === undefined) return undefined;
  const message = campaign[campaignMessageFields[index] as (typeof campaignMessageFields)[number]] ?? '';
  if (!campaign.confirmation) return { message };
  const confirmationAt = (i: number) => campaign[campaignConfirmationFields[i] as (typeof campaignConfirmationFields)[number]];
  const same = confirmationAt(index);
  const other = pickIndex(campaignConfirmationFields, campaign, random());
  const confirmation = same?.trim() ? same : other === undefined ? undefined : (confirmationAt(other) ?? undefined);
  return confirmation ? { message, confirmation } : { message };
}

export interface Recipient {
  name: string;
  number: string;
  email: string;
}

/**
 * `{nome}`, `{numero}`, `{email}` and the company's variables (`{key}`), case-insensitive on the key
 * as people type it. Unknown `{...}` stay as written: a brace in a message is not always a placeholder.
 */
export function fillPlaceholders(text: string, recipient: Recipient, variables: readonly CampaignVariable[]): string {
  const values = new Map<string, string>([
    ['nome', recipient.name],
    ['numero', recipient.number],
    ['email', recipient.email],
  ]);
  for (const variable of variables) if (!values.has(variable.key.toLowerCase())) values.set(variable.key.toLowerCase(), variable.value);
  return text.replace(/\{([\p{L}\p{N}_]{1,30})\}/gu, (whole, key: string) => values.get(key.toLowerCase()) ?? whole);
}

/** What a send is of a contact's shipping: the confirmation request, the message, a file, the campaign's media. */
export type ShipPart = 'c' | 'm' | `f${number}` | 'a';

/**
 * Our message id of one send: fixed per (campaign, list item, part), so every retry, redelivery or
 * restart sends under the same id and the session-host sends it once (its send record, WASEND#<id>).
 */
export const shipMessageId = (campaignId: number, itemId: number, part: ShipPart): string => `cmp-${campaignId}-${itemId}-${part}`;

export function parseShipMessageId(messageId: string): { campaignId: number; itemId: number; part: ShipPart } | undefined {
  const match = /^cmp-(\d{1,15})-(\d{1,15})-(c|m|a|f\d{1,4})$/.exec(messageId);
  if (!match) return undefined;
  return { campaignId: Number(match[1]), itemId: Number(match[2]), part: match[3] as ShipPart };
}

export type Pace = Pick<CampaignSettings, 'messageInterval' | 'longerIntervalAfter' | 'greaterInterval'>;

/** Contacts one tick ships: many when there is no interval between sends, else one. */
export const MAX_TICK_BATCH = 20;

/**
 * How many contacts the next tick may ship, given how many were sent since the last long pause:
 * never more than remain before the next pause, so a pause falls exactly after every
 * `longerIntervalAfter` sends.
 */
export function tickBatchSize(pace: Pace, sinceLongPause: number): number {
  if (pace.messageInterval > 0) return 1;
  if (pace.longerIntervalAfter > 0 && pace.greaterInterval > 0)
    return Math.max(1, Math.min(MAX_TICK_BATCH, pace.longerIntervalAfter - sinceLongPause));
  return MAX_TICK_BATCH;
}

/**
 * After a tick shipped `sent` contacts: the wait before the next send and the new count since the
 * last long pause. A pause of `greaterInterval` replaces the interval after every
 * `longerIntervalAfter` sends (seconds: the peers compared seconds with milliseconds and never paused).
 */
export function nextPace(pace: Pace, sinceLongPause: number, sent: number): { waitSeconds: number; sinceLongPause: number } {
  const since = sinceLongPause + sent;
  if (sent > 0 && pace.longerIntervalAfter > 0 && pace.greaterInterval > 0 && since >= pace.longerIntervalAfter)
    return { waitSeconds: Math.max(pace.greaterInterval, pace.messageInterval), sinceLongPause: 0 };
  return { waitSeconds: sent > 0 ? pace.messageInterval : 0, sinceLongPause: since };
}

/**
 * The SQS delay (whole seconds, at most 900) that lands a tick at `targetMs`: rounded to the
 * nearest second, so the error of each gap stays within half a second of the configured one and
 * does not add up over a run (the target, not the previous delay, is what moves on).
 */
export const delayToward = (targetMs: number, nowMs: number): number => Math.max(0, Math.min(900, Math.round((targetMs - nowMs) / 1000)));
