/**
 * The ticket sweeps (BEHAVIOUR "Tickets": expiresTicket, timeToTransfer) over DynamoDB Local, on
 * tickets made by the real inbound pipeline and outgoing path. The sweep's clock is moved, not the
 * tickets: each run gets `now` = the ticket's updatedAt + the connection's minutes (+/- 1 ms).
 */
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { documentClient } from '../src/commons/dynamodb.ts';
import type { SessionCommand } from '../src/contracts/session-events.ts';
import type { Effects } from '../src/domain/messages/effects.ts';
import { queueOutgoingMessage } from '../src/domain/messages/send.ts';
import { expireTicket } from '../src/domain/sweeps/expire.ts';
import { MARK_OVERLAP_MS } from '../src/domain/sweeps/mark-overlap.ts';
import { runTicketSweeps, sweepCompany } from '../src/domain/sweeps/run.ts';
import { matches } from '../src/realtime/audience.ts';
import { raiseListShards } from '../src/storage/companies/companies.ts';
import { listConnections, updateConnection } from '../src/storage/connections.ts';
import { getContactByNumber } from '../src/storage/contacts/contacts.ts';
import { table } from '../src/storage/db.ts';
import { listMessagesPage } from '../src/storage/messages/messages.ts';
import { lastMessageIsOurs } from '../src/storage/sweeps/candidates.ts';
import { commitIfUnchanged } from '../src/storage/sweeps/commit.ts';
import { getSweepMarks } from '../src/storage/sweeps/marks.ts';
import { listTicketHistory } from '../src/storage/tickets/history.ts';
import { ticketLists } from '../src/storage/tickets/list-keys.ts';
import { listTicketsPage } from '../src/storage/tickets/lists.ts';
import type { TicketRecord } from '../src/storage/tickets/record.ts';
import { getSlot, getTicket, updateTicketState } from '../src/storage/tickets/tickets.ts';
import type { ConnectionRecord as SocketRecord } from '../src/storage/ws-connections.ts';
import { deliver, tenant, waMessage } from './inbound-harness.ts';
import { type DynamoDbLocal, startDynamoDbLocal } from './support/dynamodb-local.ts';

let ddb: DynamoDbLocal;
beforeAll(async () => {
  ddb = await startDynamoDbLocal();
}, 60_000);
afterAll(async () => {
  vi.restoreAllMocks();
  await ddb?.stop();
});

const MINUTE = 60_000;
const GOODBYE = 'Closed after 30 minutes without a reply';

interface Recorded extends Effects {
  commands: SessionCommand[];
  // biome-ignore lint/suspicious/noExplicitAny: tests read event payloads and targets by shape
  events: { event: string; data: any; target: any }[];
  sent(): string[];
}

function effects(): Recorded {
  const commands: SessionCommand[] = [];
  const events: Recorded['events'] = [];
  return {
    commands,
    events,
    sendCommand: async (command) => void commands.push(command),
    publish: async (_companyId, event, data, target) => void events.push({ event, data, target }),
    now: () => new Date(),
    sent: () => commands.flatMap((c) => (c.kind === 'send' ? [c.body] : [])),
  };
}

let numbers = 0;
const nextNumber = () => `55119${String(70000000 + numbers++)}`;

/** A contact writes; the pipeline makes (or finds) the ticket. Returns it as stored. */
async function contactWrites(companyId: number, connectionId: number, number: string, body = 'hi'): Promise<TicketRecord> {
  const out = await deliver(effects(), {
    kind: 'message',
    companyId,
    connectionId,
    message: waMessage({ number, body, timestamp: Date.now() }),
  });
  expect(out.batchItemFailures).toEqual([]);
  const contact = await getContactByNumber(companyId, number);
  const slot = await getSlot(companyId, contact!.id, connectionId);
  return (await getTicket(companyId, slot!.ticketId))!;
}

/** An attendant accepted the contact's ticket and answered: open, last message ours. */
async function answeredTicket(companyId: number, connectionId: number, number = nextNumber()): Promise<TicketRecord> {
  const pending = await contactWrites(companyId, connectionId, number);
  const open = await updateTicketState(pending, { status: 'open', userId: 1 });
  await queueOutgoingMessage({ companyId, ticket: open, body: 'Anything else?', userId: 1 }, effects());
  return (await getTicket(companyId, open.id))!;
}

const at = (ticket: TicketRecord, minutes: number, deltaMs = 0) => new Date(Date.parse(ticket.updatedAt) + minutes * MINUTE + deltaMs);

async function messagesOf(ticket: TicketRecord) {
  return (await listMessagesPage(ticket.companyId, ticket.id, { limit: 50 })).messages;
}

const socket = (overrides: Partial<SocketRecord>): SocketRecord =>
  ({ profile: 'user', super: false, userId: 99, queueIds: [], allTicket: 'desabled', ...overrides }) as SocketRecord;

describe('expiresTicket', () => {
  it('closes an open ticket whose last message is ours at the threshold, not a millisecond before, and sends expiresInactiveMessage once', async () => {
    const { companyId, connectionId } = await tenant({ expiresTicket: 30, expiresInactiveMessage: GOODBYE });
    const ticket = await answeredTicket(companyId, connectionId);

    const early = effects();
    expect(await sweepCompany(companyId, at(ticket, 30, -1), early)).toMatchObject({ closed: 0, failures: 0 });
    expect((await getTicket(companyId, ticket.id))!.status).toBe('open');
    expect(early.commands).toEqual([]);

    const due = effects();
    expect(await sweepCompany(companyId, at(ticket, 30), due)).toMatchObject({ closed: 1, failures: 0 });
    const closed = (await getTicket(companyId, ticket.id))!;
    expect(closed).toMatchObject({ status: 'closed', userId: 1, lastMessage: GOODBYE, revision: ticket.revision + 1 });
    expect(due.sent()).toEqual([GOODBYE]);
    expect(await getSlot(companyId, ticket.contactId, connectionId)).toMatchObject({ ticketId: ticket.id, active: false });
    const [newest] = await messagesOf(ticket);
    expect(newest).toMatchObject({ body: GOODBYE, fromMe: true, bot: true, pending: true });
    expect(due.commands[0]).toMatchObject({ kind: 'send', messageId: newest!.id, ticketId: ticket.id });
    // Lists move it: the update carries the closed ticket.
    expect(due.events.some((e) => e.data.action === 'update' && e.data.ticket?.id === ticket.id && e.data.ticket.status === 'closed')).toBe(
      true,
    );
    expect(await listTicketsPage('gsi3', ticketLists.byStatus(companyId, 'open'), { limit: 10 })).toMatchObject({ tickets: [] });
    // The dashboard's "finished at", by the system.
    expect((await listTicketHistory(companyId, ticket.id)).filter((e) => e.kind === 'finished')).toEqual([
      expect.objectContaining({ actorUserId: null, status: 'closed', fromStatus: 'open', at: at(ticket, 30).toISOString() }),
    ]);

    // Later runs leave it alone.
    const again = effects();
    expect(await sweepCompany(companyId, at(ticket, 90), again)).toMatchObject({ closed: 0 });
    expect(again.commands).toEqual([]);
  });

  it('leaves an open ticket whose last message is the contact’s', async () => {
    const { companyId, connectionId } = await tenant({ expiresTicket: 30, expiresInactiveMessage: GOODBYE });
    const number = nextNumber();
    await answeredTicket(companyId, connectionId, number);
    const replied = await contactWrites(companyId, connectionId, number, 'still there?');
    expect(replied.status).toBe('open');

    const run = effects();
    expect(await sweepCompany(companyId, at(replied, 300), run)).toMatchObject({ closed: 0, failures: 0 });
    expect((await getTicket(companyId, replied.id))!.status).toBe('open');
    expect(run.commands).toEqual([]);
  });

  it('closes without a message when expiresInactiveMessage is empty, and does nothing when expiresTicket is 0', async () => {
    const silent = await tenant({ expiresTicket: 5, expiresInactiveMessage: '' });
    const ticket = await answeredTicket(silent.companyId, silent.connectionId);
    const run = effects();
    expect(await sweepCompany(silent.companyId, at(ticket, 5), run)).toMatchObject({ closed: 1 });
    expect((await getTicket(silent.companyId, ticket.id))!.status).toBe('closed');
    expect(run.commands).toEqual([]);
    expect(run.events.filter((e) => e.data.action === 'update').map((e) => e.data.ticket.status)).toEqual(['closed']);

    const off = await tenant({ expiresTicket: 0, expiresInactiveMessage: GOODBYE });
    const kept = await answeredTicket(off.companyId, off.connectionId);
    expect(await sweepCompany(off.companyId, at(kept, 10_000), effects())).toMatchObject({ closed: 0 });
    expect((await getTicket(off.companyId, kept.id))!.status).toBe('open');
  });

  it('two runs at once close the ticket once and send the message once', async () => {
    const { companyId, connectionId } = await tenant({ expiresTicket: 30, expiresInactiveMessage: GOODBYE });
    const tickets = await Promise.all([answeredTicket(companyId, connectionId), answeredTicket(companyId, connectionId)]);
    const latest = tickets.reduce((a, b) => (a.updatedAt > b.updatedAt ? a : b));
    const [one, two] = [effects(), effects()];

    // Different clocks too, so the runs do not even build the same message id.
    const reports = await Promise.all([sweepCompany(companyId, at(latest, 30), one), sweepCompany(companyId, at(latest, 30, 500), two)]);

    expect(reports[0]!.closed + reports[1]!.closed).toBe(2);
    expect([...one.sent(), ...two.sent()]).toEqual([GOODBYE, GOODBYE]);
    for (const ticket of tickets) {
      expect((await getTicket(companyId, ticket.id))!).toMatchObject({ status: 'closed', revision: ticket.revision + 1 });
      expect((await messagesOf(ticket)).filter((m) => m.body === GOODBYE)).toHaveLength(1);
      expect((await listTicketHistory(companyId, ticket.id)).filter((e) => e.kind === 'finished')).toHaveLength(1);
      expect([...one.commands, ...two.commands].filter((c) => c.kind === 'send' && c.ticketId === ticket.id)).toHaveLength(1);
    }
  });

  it('does not close a ticket the contact wrote to after the sweep judged it', async () => {
    const { companyId, connectionId } = await tenant({ expiresTicket: 30, expiresInactiveMessage: GOODBYE });
    const number = nextNumber();
    const judged = await answeredTicket(companyId, connectionId, number);
    expect(await lastMessageIsOurs(judged)).toBe(true);
    // The contact's message lands between the sweep's checks and its write. Message activity moves
    // updatedAt without bumping the revision, so only the updatedAt condition stops the close.
    const replied = await contactWrites(companyId, connectionId, number, 'wait!');
    expect(replied.revision).toBe(judged.revision);
    expect(await commitIfUnchanged(judged, { status: 'closed' }, [], at(judged, 30))).toBeUndefined();
    expect((await getTicket(companyId, judged.id))!.status).toBe('open');
    // And the rule itself, reading again, keeps it.
    const [connection] = await listConnections(companyId);
    const run = effects();
    expect(await expireTicket(replied, connection!, at(replied, 30), run)).toBe(false);
    expect(run.commands).toEqual([]);
    expect((await messagesOf(judged)).some((m) => m.body === GOODBYE)).toBe(false);
  });
});

describe('timeToTransfer', () => {
  it('moves a pending ticket without a queue to transferQueueId at the threshold: out of the no-queue list, into the queue’s', async () => {
    const { companyId, connectionId, queues } = await tenant({ timeToTransfer: 10, queueIds: [] }, [{ name: 'Overflow' }]);
    const queueId = queues[0]!.id;
    await updateConnection(companyId, connectionId, { transferQueueId: queueId });
    const ticket = await contactWrites(companyId, connectionId, nextNumber());
    expect(ticket).toMatchObject({ status: 'pending', queueId: null });
    const noQueue = ticketLists.byStatusAndQueue(companyId, 'pending', null);
    const inQueue = ticketLists.byStatusAndQueue(companyId, 'pending', queueId);
    const ids = async (partition: string) => (await listTicketsPage('gsi1', partition, { limit: 10 })).tickets.map((t) => t.id);

    expect(await sweepCompany(companyId, at(ticket, 10, -1), effects())).toMatchObject({ transferred: 0 });
    expect(await ids(noQueue)).toEqual([ticket.id]);

    const run = effects();
    expect(await sweepCompany(companyId, at(ticket, 10), run)).toMatchObject({ transferred: 1, failures: 0 });
    expect(await getTicket(companyId, ticket.id)).toMatchObject({
      status: 'pending',
      queueId,
      userId: null,
      revision: ticket.revision + 1,
    });
    expect(await ids(noQueue)).toEqual([]);
    expect(await ids(inQueue)).toEqual([ticket.id]);
    expect((await listTicketHistory(companyId, ticket.id)).filter((e) => e.actorUserId === null && e.queueId === queueId)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'transferred', fromQueueId: null }),
        expect.objectContaining({ kind: 'queued', fromQueueId: null }),
      ]),
    );

    // Realtime: the update reaches the queue's members; an allTicket user outside the queue gets a delete.
    const update = run.events.find((e) => e.data.action === 'update');
    expect(update?.data.ticket).toMatchObject({ id: ticket.id, queueId, queue: { id: queueId, name: 'Overflow' } });
    expect(matches(update!.target, socket({ queueIds: [queueId] }))).toBe(true);
    const removal = run.events.find((e) => e.data.action === 'delete');
    expect(removal?.data).toEqual({ action: 'delete', ticketId: ticket.id });
    expect(matches(removal!.target, socket({ allTicket: 'enabled' }))).toBe(true);
    expect(matches(removal!.target, socket({ allTicket: 'enabled', queueIds: [queueId] }))).toBe(false);
    expect(matches(removal!.target, socket({ profile: 'admin' }))).toBe(false);

    // Once moved, it is no longer a candidate.
    expect(await sweepCompany(companyId, at(ticket, 60), effects())).toMatchObject({ transferred: 0 });
  });

  it('does not move tickets that have a queue, or when transferQueueId is unset', async () => {
    const { companyId, connectionId, queues } = await tenant({ timeToTransfer: 10, queueIds: [] }, [{ name: 'A' }, { name: 'B' }]);
    const queued = await contactWrites(companyId, connectionId, nextNumber());
    const inA = await updateTicketState(queued, { queueId: queues[0]!.id });
    expect(await sweepCompany(companyId, at(inA, 60), effects())).toMatchObject({ transferred: 0 });

    await updateConnection(companyId, connectionId, { transferQueueId: queues[1]!.id });
    expect(await sweepCompany(companyId, at(inA, 60), effects())).toMatchObject({ transferred: 0 });
    expect((await getTicket(companyId, inA.id))!.queueId).toBe(queues[0]!.id);
  });

  it('moves the tickets of every list shard of a busy tenant (storage/list-shards.ts)', async () => {
    const { companyId, connectionId, queues } = await tenant({ timeToTransfer: 10, queueIds: [] }, [{ name: 'Overflow' }]);
    await updateConnection(companyId, connectionId, { transferQueueId: queues[0]!.id });
    expect(await raiseListShards(companyId, 4)).toBe(true);
    const tickets: TicketRecord[] = [];
    for (let i = 0; i < 6; i++) tickets.push(await contactWrites(companyId, connectionId, nextNumber()));
    const shards = new Set(tickets.map((t) => t.id % 4));
    expect(shards.size).toBeGreaterThan(1);
    for (const shard of shards) {
      const partition = ticketLists.byStatusAndQueue(companyId, 'pending', null, shard);
      expect((await listTicketsPage('gsi1', partition, { limit: 10 })).tickets.length).toBeGreaterThan(0);
    }
    const newest = tickets.reduce((a, b) => (a.updatedAt > b.updatedAt ? a : b));
    expect(await sweepCompany(companyId, at(newest, 10), effects())).toMatchObject({ transferred: 6, failures: 0 });
    for (const ticket of tickets) expect((await getTicket(companyId, ticket.id))!.queueId).toBe(queues[0]!.id);
  });
});

describe('cost and independence', () => {
  it('reads a kept ticket only until the mark (less its overlap) has passed it, not on every run forever', async () => {
    const { companyId, connectionId } = await tenant({ expiresTicket: 30, expiresInactiveMessage: GOODBYE });
    // Open tickets the rule keeps: the contact wrote last.
    const backlog: TicketRecord[] = [];
    for (let i = 0; i < 5; i++) {
      const number = nextNumber();
      await answeredTicket(companyId, connectionId, number);
      backlog.push(await contactWrites(companyId, connectionId, number, 'and?'));
    }
    const latest = backlog.reduce((a, b) => (a.updatedAt > b.updatedAt ? a : b));
    const client = documentClient();
    const send = client.send.bind(client);
    let indexItemsRead = 0;
    // biome-ignore lint/suspicious/noExplicitAny: wraps the client's overloaded send to count index reads
    const spy = vi.spyOn(client, 'send').mockImplementation((async (command: any, ...rest: any[]) => {
      const out = await (send as (...args: unknown[]) => Promise<{ ScannedCount?: number }>)(command, ...rest);
      if (command instanceof QueryCommand && command.input.IndexName) indexItemsRead += out.ScannedCount ?? 0;
      return out;
    }) as never);
    try {
      const readAt = async (minutes: number) => {
        indexItemsRead = 0;
        expect(await sweepCompany(companyId, at(latest, minutes), effects())).toMatchObject({ closed: 0, failures: 0 });
        return indexItemsRead;
      };
      // First run: the backlog. Runs every minute after it re-read those tickets while they are
      // within MARK_OVERLAP_MS of the mark, then the mark is past them and no run reads them again,
      // however long they stay open.
      expect(await readAt(30)).toBe(5);
      const overlapRuns = MARK_OVERLAP_MS / MINUTE + 1;
      let reread = 0;
      for (let minute = 31; minute <= 30 + overlapRuns; minute++) reread += await readAt(minute);
      expect(reread).toBeLessThanOrEqual(5 * overlapRuns);
      expect(await readAt(31 + overlapRuns)).toBe(0);
      expect(await readAt(600)).toBe(0);
    } finally {
      spy.mockRestore();
    }
  });

  it('a failing company does not stop the others, and its mark stays for the next run', async () => {
    const bad = await tenant({ expiresTicket: 1 });
    const good = await tenant({ expiresTicket: 1, expiresInactiveMessage: GOODBYE });
    const ticket = await answeredTicket(good.companyId, good.connectionId);
    // A corrupt row in the bad company's open list (no id): handling it throws.
    await documentClient().send(
      new PutCommand({
        TableName: table(),
        Item: {
          pk: `C#${bad.companyId}#TK#corrupt`,
          sk: 'TICKET',
          gsi3pk: ticketLists.byStatus(bad.companyId, 'open'),
          gsi3sk: `${new Date(0).toISOString()}#corrupt`,
          companyId: bad.companyId,
          whatsappId: bad.connectionId,
          status: 'open',
        },
      }),
    );
    const run = { ...effects(), now: () => at(ticket, 1) };
    const report = await runTicketSweeps(run);
    expect(report.failures).toBeGreaterThanOrEqual(1);
    expect((await getTicket(good.companyId, ticket.id))!.status).toBe('closed');
    expect(run.sent()).toContain(GOODBYE);
    expect([...(await getSweepMarks(bad.companyId)).keys()]).toEqual([]);
    expect([...(await getSweepMarks(good.companyId)).keys()]).toEqual([`expire#W#${String(good.connectionId).padStart(10, '0')}`]);
  });
});
