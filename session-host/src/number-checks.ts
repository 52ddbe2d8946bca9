/**
 * Contact list numbers checked against WhatsApp (functions/src/domain/contact-lists/number-checks.ts
 * is the other half): a `checkNumbers` command's batch, or, when a session connects, the company's
 * numbers still unchecked (the API could not ask while no session was connected). The provider asks
 * WhatsApp (Baileys' onWhatsApp; the simulator's rule for its network) and each batch's verdicts
 * leave for the inbound queue as one `numbersChecked` event, which stores them.
 */
import { type InboundEvent, NUMBER_CHECK_BATCH, type SessionCommand } from '@conversa/functions/contracts/session-events';
import { listUncheckedNumbers, type UncheckedNumber } from '@conversa/functions/storage/contact-lists/items';
import type { InboundPublisher } from './inbound-publisher.ts';
import type { SessionHandle } from './provider.ts';
import type { SessionKey } from './storage/leases.ts';

type CheckCommand = Extract<SessionCommand, { kind: 'checkNumbers' }>;
type NumbersChecked = Extract<InboundEvent, { kind: 'numbersChecked' }>;

/**
 * Numbers a connect checks at most: a company's backlog of a few big uploads; what is left (rare)
 * waits for the next connect or the next upload. Bounds the work a host restart does per session.
 */
export const MAX_NUMBERS_PER_CONNECT = 20_000;

/** Asks WhatsApp about one batch and publishes the verdicts; false when the provider cannot check numbers. */
export async function publishNumberChecks(
  key: SessionKey,
  checkId: string,
  numbers: CheckCommand['numbers'],
  handle: SessionHandle,
  inbound: InboundPublisher,
): Promise<boolean> {
  if (!handle.checkNumbers) return false;
  const registered = new Set(await handle.checkNumbers(numbers.map((entry) => entry.number)));
  const event: NumbersChecked = {
    kind: 'numbersChecked',
    companyId: key.companyId,
    connectionId: key.connectionId,
    checkId,
    results: numbers.map((entry) => ({ ...entry, valid: registered.has(entry.number) })),
  };
  await inbound.publish(event);
  return true;
}

/** On connect: every batch of the company's unchecked numbers, oldest first; returns how many were checked. */
export async function checkPendingNumbers(
  key: SessionKey,
  handle: SessionHandle,
  inbound: InboundPublisher,
  list: typeof listUncheckedNumbers = listUncheckedNumbers,
): Promise<number> {
  if (!handle.checkNumbers) return 0;
  let checked = 0;
  let after = 0;
  while (checked < MAX_NUMBERS_PER_CONNECT) {
    const batch: UncheckedNumber[] = await list(key.companyId, NUMBER_CHECK_BATCH, after);
    if (!batch.length) break;
    const last = batch.at(-1) as UncheckedNumber;
    await publishNumberChecks(key, `connect:${key.connectionId}:${batch[0]?.itemId}-${last.itemId}:${Date.now()}`, batch, handle, inbound);
    checked += batch.length;
    after = last.itemId;
    if (batch.length < NUMBER_CHECK_BATCH) break;
  }
  return checked;
}
