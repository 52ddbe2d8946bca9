/**
 * Issue 22 §5: a snoozed ticket whose contact writes comes back at once, through the real inbound
 * pipeline over DynamoDB Local: the message wakes it (snoozedUntil cleared, back in Pending's list,
 * an `unsnoozed` history line by the system, a ticket update published), its due item goes with the
 * snooze, so the job's later run wakes nothing; an attendant's own message does not wake it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Viewer } from '../src/domain/tickets/access.ts';
import { setTicketSnooze, wakeDueSnoozes } from '../src/domain/tickets/snooze.ts';
import { getContactByNumber } from '../src/storage/contacts/contacts.ts';
import { listTicketHistory } from '../src/storage/tickets/history.ts';
import { ticketLists } from '../src/storage/tickets/list-keys.ts';
import { listTicketsPage } from '../src/storage/tickets/lists.ts';
import type { TicketRecord } from '../src/storage/tickets/record.ts';
import { getSlot, getTicket } from '../src/storage/tickets/tickets.ts';
import { deliver, recorder, tenant, waMessage } from './inbound-harness.ts';
import { type DynamoDbLocal, startDynamoDbLocal } from './support/dynamodb-local.ts';

let ddb: DynamoDbLocal;
beforeAll(async () => {
  ddb = await startDynamoDbLocal();
}, 60_000);
afterAll(async () => {
  await ddb?.stop();
});

const HOUR = 3_600_000;
const viewer = (companyId: number): Viewer => ({
  userId: 1,
  companyId,
  profile: 'admin',
  super: false,
  user: { queueIds: [], allTicket: 'enabled', name: 'Ana' },
});

async function contactWrites(companyId: number, connectionId: number, number: string, body: string, fromMe = false): Promise<TicketRecord> {
  const out = await deliver(recorder(), {
    kind: 'message',
    companyId,
    connectionId,
    message: waMessage({ number, body, fromMe, timestamp: Date.now() }),
  });
  expect(out.batchItemFailures).toEqual([]);
  const contact = await getContactByNumber(companyId, number);
  const slot = await getSlot(companyId, contact!.id, connectionId);
  return (await getTicket(companyId, slot!.ticketId))!;
}

const pendingIds = async (companyId: number) =>
  (await listTicketsPage('gsi1', ticketLists.byStatusAndQueue(companyId, 'pending', null), { limit: 50 })).tickets.map((t) => t.id);

describe('a message to a snoozed ticket', () => {
  it('wakes it at once: back in Pending, one unsnoozed line, nothing left for the job', async () => {
    const { companyId, connectionId } = await tenant();
    const number = '5511987650001';
    const ticket = await contactWrites(companyId, connectionId, number, 'Olá');
    const until = new Date(Date.now() + 5 * HOUR).toISOString();
    await setTicketSnooze(viewer(companyId), ticket, until, recorder());
    expect(await pendingIds(companyId)).not.toContain(ticket.id);

    // Our own message (sent from the phone) leaves it asleep.
    await contactWrites(companyId, connectionId, number, 'Te respondo amanhã', true);
    expect((await getTicket(companyId, ticket.id))!.snoozedUntil).toBe(until);

    const effects = recorder();
    const out = await deliver(effects, {
      kind: 'message',
      companyId,
      connectionId,
      message: waMessage({ number, body: 'Ainda está aí?', timestamp: Date.now() }),
    });
    expect(out.batchItemFailures).toEqual([]);
    const woken = (await getTicket(companyId, ticket.id))!;
    expect(woken).toMatchObject({ status: 'pending', snoozedUntil: null, lastMessage: 'Ainda está aí?' });
    expect(await pendingIds(companyId)).toContain(ticket.id);
    const history = await listTicketHistory(companyId, ticket.id);
    expect(history.filter((e) => e.kind === 'unsnoozed')).toEqual([expect.objectContaining({ actorUserId: null })]);
    expect(
      effects.events.some((e) => e.data.action === 'update' && e.data.ticket?.id === ticket.id && e.data.ticket.snoozedUntil === null),
    ).toBe(true);
    // Its due item went with the snooze: the job's run after its time wakes nothing.
    expect(await wakeDueSnoozes({ ...recorder(), now: () => new Date(Date.parse(until) + HOUR) })).toEqual({ woken: 0, failures: 0 });
  });
});
