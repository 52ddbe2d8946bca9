/**
 * Whether a contact list item's number is on WhatsApp (`isWhatsappValid`, SPEC 2 "List contacts":
 * the green or grey indicator; BEHAVIOUR "Campaigns": only valid numbers are shipped), checked
 * through one of the company's connected sessions, asynchronously:
 *
 * 1. A list's new numbers (an added item, an upload, an edited number) are stored unchecked (null)
 *    and `requestNumberChecks` sends `checkNumbers` session commands, NUMBER_CHECK_BATCH numbers
 *    each, to the company's default connection when it is CONNECTED, else to any CONNECTED one.
 *    With none connected nothing is sent: the numbers stay unchecked (null) until a session connects.
 * 2. The session-host asks WhatsApp (Baileys' `onWhatsApp`; the simulator's rule for its network)
 *    and answers with `numbersChecked` on the inbound queue; when a session connects the host also
 *    checks the company's numbers still unchecked (storage's sparse index of them) by itself.
 * 3. `applyNumberChecks` (inbound pipeline) stores each verdict, only while the item still has the
 *    number checked, and tells each list's page to reload (`company-{id}-ContactListItem-{listId}`).
 *
 * 4. On demand (POST /contact-lists/{id}/check-numbers): the list's numbers still unchecked are
 *    asked again, e.g. after a check dropped because its session disconnected for too long.
 *
 * A command delivered twice or an event replayed writes the same verdicts again: idempotent.
 */
import { randomUUID } from 'node:crypto';
import { ConflictError } from '#commons/errors';
import { logger } from '#commons/logger';
import { type ContactListReloadEvent, channels } from '#contracts/channels';
import { type InboundEvent, NUMBER_CHECK_BATCH, type SessionCommand } from '#contracts/session-events';
import { type AudienceFilter, audience } from '#realtime/audience';
import { type ConnectionRecord, listConnections } from '#storage/connections';
import { listUncheckedNumbers, setWhatsappValid } from '#storage/contact-lists/items';

export interface NumberToCheck {
  itemId: number;
  contactListId: number;
  number: string;
}

export interface NumberCheckEffects {
  sendCommand(command: SessionCommand): Promise<unknown>;
  publish(companyId: number, event: string, data: unknown, target: AudienceFilter): Promise<unknown>;
}

/** The session that checks: the default connection when connected, else the first connected one. */
export function checkingConnection(connections: ConnectionRecord[]): ConnectionRecord | undefined {
  const connected = connections.filter((connection) => connection.status === 'CONNECTED').sort((a, b) => a.id - b.id);
  return connected.find((connection) => connection.isDefault) ?? connected[0];
}

/** Sends the numbers to a connected session in batches; 0 when none is connected (they stay unchecked). */
export async function requestNumberChecks(companyId: number, numbers: NumberToCheck[], effects: NumberCheckEffects): Promise<number> {
  if (!numbers.length) return 0;
  const connection = checkingConnection(await listConnections(companyId));
  if (!connection) return 0;
  let sent = 0;
  for (let start = 0; start < numbers.length; start += NUMBER_CHECK_BATCH) {
    await effects.sendCommand({
      kind: 'checkNumbers',
      companyId,
      connectionId: connection.id,
      commandId: randomUUID(),
      numbers: numbers.slice(start, start + NUMBER_CHECK_BATCH),
    });
    sent++;
  }
  return sent;
}

/**
 * After an item write: ask for its numbers' check. The items are stored already, so a queue that
 * fails here fails no request: the numbers stay unchecked until a session connects and checks them.
 */
export async function checkNewNumbers(companyId: number, numbers: NumberToCheck[], effects: NumberCheckEffects): Promise<void> {
  try {
    await requestNumberChecks(companyId, numbers, effects);
  } catch (error) {
    logger.warn('number check not requested', { companyId, count: numbers.length, error: String(error) });
  }
}

/** Unchecked numbers read per Query, and at most per request (the rest: the next request or connect). */
const UNCHECKED_PAGE = 500;
const MAX_ON_DEMAND = 20_000;

/**
 * The list's numbers not checked yet, asked again. 409 ERR_WAPP_NOT_INITIALIZED without a connected
 * session (nothing could answer); `requested` counts the numbers sent.
 */
export async function checkListNumbers(
  companyId: number,
  contactListId: number,
  effects: NumberCheckEffects,
): Promise<{ requested: number }> {
  if (!checkingConnection(await listConnections(companyId))) throw new ConflictError('ERR_WAPP_NOT_INITIALIZED');
  const numbers: NumberToCheck[] = [];
  let after = 0;
  for (let read = 0; read < MAX_ON_DEMAND; read += UNCHECKED_PAGE) {
    const page = await listUncheckedNumbers(companyId, UNCHECKED_PAGE, after);
    numbers.push(...page.filter((entry) => entry.contactListId === contactListId));
    if (page.length < UNCHECKED_PAGE) break;
    after = (page.at(-1) as NumberToCheck).itemId;
  }
  await requestNumberChecks(companyId, numbers, effects);
  return { requested: numbers.length };
}

/** The inbound pipeline's part: store the verdicts, then one reload per list touched. */
export async function applyNumberChecks(
  event: Extract<InboundEvent, { kind: 'numbersChecked' }>,
  effects: Pick<NumberCheckEffects, 'publish'>,
): Promise<string> {
  const { companyId } = event;
  const touched = new Set<number>();
  let stored = 0;
  for (const result of event.results) {
    if (await setWhatsappValid(companyId, result.itemId, result.valid, result.number)) {
      stored++;
      touched.add(result.contactListId);
    }
  }
  for (const contactListId of touched) {
    const reload: ContactListReloadEvent = { action: 'reload', contactListId };
    await effects.publish(companyId, channels.contactListItems(companyId, contactListId), reload, audience.company);
  }
  return stored ? 'numbers-checked' : 'ignored';
}
