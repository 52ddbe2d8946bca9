/**
 * A new contact's first message (issue 11, a burst of new conversations; issue 24 §2): the number's
 * contact is read beside the dedupe link, both ids are allocated at once, and the contact, its ticket
 * and the message are written in one transaction (storage/messages/first-message.ts); the contact's event
 * still goes out before the message's.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { documentClient } from '../src/commons/dynamodb.ts';
import { channels, eventsOfFrame } from '../src/contracts/channels.ts';
import { createSnapshotPublisher } from '../src/realtime/publisher.ts';
import { getContactByNumber } from '../src/storage/contacts/contacts.ts';
import { companyTimeZone, localDayHour, readCounters } from '../src/storage/dashboard-counters.ts';
import { listMessagesPage } from '../src/storage/messages/messages.ts';
import { getWaLink } from '../src/storage/messages/wa-links.ts';
import { getSlot, getTicket } from '../src/storage/tickets/tickets.ts';
import { deliver, recorder, tenant, waMessage } from './inbound-harness.ts';
import { type DynamoDbLocal, startDynamoDbLocal } from './support/dynamodb-local.ts';
import { connectionRecord } from './support/socket-records.ts';

let ddb: DynamoDbLocal;
beforeAll(async () => {
  ddb = await startDynamoDbLocal();
}, 60_000);
afterAll(async () => {
  await ddb?.stop();
});

interface Seen {
  command: string;
  sk: string;
  /** The keys a BatchGetItem reads or a TransactWriteItems writes ("pk sk"). */
  keys: string[];
  /** Other requests in flight when this one started. */
  alongside: string[];
}

type KeyHolder = { Key?: { pk: string; sk: string }; Item?: { pk: string; sk: string } };

function keysOf(input: Record<string, unknown>): string[] {
  const transact = (input.TransactItems as Record<string, KeyHolder>[] | undefined)?.map((item) => {
    const op = Object.values(item)[0] as KeyHolder;
    const key = op.Key ?? op.Item;
    return `${key?.pk} ${key?.sk}`;
  });
  const batch = Object.values((input.RequestItems as Record<string, { Keys: { pk: string; sk: string }[] }>) ?? {}).flatMap((t) =>
    (t.Keys ?? []).map((k) => `${k.pk} ${k.sk}`),
  );
  return transact ?? batch;
}

/** Every DynamoDB request of the handlers, with the ones it went out beside. */
function watchRequests(): Seen[] {
  const seen: Seen[] = [];
  const inFlight = new Set<string>();
  documentClient().middlewareStack.add(
    (next, context) => async (args) => {
      const command = String((context as { commandName?: string }).commandName).replace(/Command$/, '');
      const input = args.input as Record<string, unknown> & { Key?: { sk?: string } };
      const sk = String(input.Key?.sk ?? '');
      const name = `${command} ${sk}`;
      seen.push({ command, sk, keys: keysOf(input), alongside: [...inFlight] });
      inFlight.add(name);
      try {
        return await next(args);
      } finally {
        inFlight.delete(name);
      }
    },
    { step: 'initialize', name: 'firstMessageMeter' },
  );
  return seen;
}
afterEach(() => {
  documentClient().middlewareStack.remove('firstMessageMeter');
  documentClient().middlewareStack.remove('failFirstMessage');
});

const sks = (keys: string[]) => keys.map((key) => key.split(' ')[1] ?? '');

describe("a new contact's first message", () => {
  it('reads the number beside the dedupe link and writes the contact, its ticket and the message in one transaction', async () => {
    const { companyId, connectionId } = await tenant({}, [{ name: 'Support' }]);
    const effects = recorder();
    const number = '5511911110001';
    const seen = watchRequests();

    const result = await deliver(effects, { kind: 'message', companyId, connectionId, message: waMessage({ number, body: 'first' }) });
    const during = seen.splice(0); // the checks' own reads below are not the handler's

    expect(result.batchItemFailures).toEqual([]);
    const contact = await getContactByNumber(companyId, number);
    if (!contact) throw new Error('contact not created');
    const slot = await getSlot(companyId, contact.id, connectionId);
    expect(slot).toMatchObject({ active: true });
    const ticket = await getTicket(companyId, slot?.ticketId ?? 0);
    expect(ticket).toMatchObject({ contactId: contact.id, unreadMessages: 1 });
    // The first round reads the dedupe link and the number's guard in one request; nothing one key at a time.
    const linkRead = during.find((s) => s.command === 'BatchGetItem' && sks(s.keys).includes('WAMSG'));
    expect(sks(linkRead?.keys ?? [])).toEqual(expect.arrayContaining(['WAMSG', 'GUARD']));
    const pointReads = during.filter((s) => s.command === 'GetItem').map((s) => s.sk);
    expect(pointReads.filter((sk) => ['GUARD', 'CONTACT', 'WAMSG'].includes(sk) || sk.startsWith('SLOT#'))).toEqual([]);
    // The two ids in one round trip: one counter goes out while the other is in flight.
    const counter = (name: string) => during.find((s) => s.command === 'UpdateItem' && s.sk === `COUNTER#${name}`);
    expect([...(counter('TICKET')?.alongside ?? []), ...(counter('CONTACT')?.alongside ?? [])]).toContainEqual(
      expect.stringMatching(/^UpdateItem COUNTER#(TICKET|CONTACT)$/),
    );
    // One transaction holds the contact (and its guard), the ticket (and its slot) and the message (and its link).
    const transactions = during.filter((s) => s.command === 'TransactWriteItems');
    expect(sks(transactions[0]?.keys ?? [])).toEqual(
      expect.arrayContaining(['GUARD', 'CONTACT', 'TICKET', `SLOT#W#${String(connectionId).padStart(10, '0')}`, 'WAMSG']),
    );
    expect(sks(transactions[0]?.keys ?? []).filter((sk) => sk.startsWith('MSG#'))).toHaveLength(1);
    // The greeting's commit is the only other one; and no transaction touches an item twice (DynamoDB refuses it).
    expect(transactions).toHaveLength(2);
    for (const transaction of transactions) expect(new Set(transaction.keys).size).toBe(transaction.keys.length);
    // Its events: the contact's first, then the message's.
    const contactEvent = effects.events.findIndex((e) => e.event === channels.contact(companyId));
    const messageEvent = effects.events.findIndex((e) => e.event === channels.appMessage(companyId) && e.data.action === 'create');
    expect(contactEvent).toBeGreaterThanOrEqual(0);
    expect(messageEvent).toBeGreaterThan(contactEvent);
  });

  it("sends an admin's socket the new contact's event and its first message's in one frame, the contact's first", async () => {
    // The inbound consumer's publisher coalesces a socket's events of 20 ms into one frame (realtime/outbox.ts).
    const { companyId, connectionId } = await tenant({ greetingMessage: '' }, [{ name: 'Support' }]);
    const posted: { connectionId: string; payload: unknown }[] = [];
    const publisher = createSnapshotPublisher(
      {
        listCompanyConnections: async () => [connectionRecord('admin', { companyId, profile: 'admin', allTicket: 'enabled' })],
        listAllConnections: async () => [],
        deleteConnection: async () => undefined,
        post: async (id, payload) => {
          posted.push({ connectionId: id, payload });
          return 'sent';
        },
      },
      { coalesceMs: 20 },
    );
    const effects = { ...recorder(), publish: publisher.publish };

    await deliver(effects, { kind: 'message', companyId, connectionId, message: waMessage({ number: '5511911110007', body: 'hi' }) });
    await publisher.flush();

    const frames = posted.map((post) => eventsOfFrame(JSON.stringify(post.payload)).map((e) => e.event));
    const withContact = frames.findIndex((events) => events.includes(channels.contact(companyId)));
    expect(frames[withContact]?.slice(0, 2)).toEqual([channels.contact(companyId), channels.appMessage(companyId)]);
  });

  it('stores a first message whose sender has an absurdly long profile name (the name is capped, its words too)', async () => {
    const { companyId, connectionId } = await tenant({}, [{ name: 'Support' }]);
    const effects = recorder();
    const number = '5511911110008';
    const pushName = Array.from({ length: 150 }, (_, i) => `palavra${i}`).join(' ');

    const result = await deliver(effects, {
      kind: 'message',
      companyId,
      connectionId,
      message: waMessage({ number, body: 'oi', pushName }),
    });

    expect(result.batchItemFailures).toEqual([]);
    const contact = await getContactByNumber(companyId, number);
    expect(contact?.name.length).toBeLessThanOrEqual(50);
    expect(pushName.startsWith(contact?.name ?? '-')).toBe(true);
  });

  it('a message typed on our phone to a new number makes its contact and ticket: read, no greeting, the number as name', async () => {
    const { companyId, connectionId } = await tenant({}, [{ name: 'Support' }]);
    const effects = recorder();
    const number = '5511911110009';

    const result = await deliver(effects, {
      kind: 'message',
      companyId,
      connectionId,
      message: waMessage({ number, fromMe: true, body: 'Oi, aqui é a loja', pushName: 'Loja' }),
    });

    expect(result.batchItemFailures).toEqual([]);
    const contact = await getContactByNumber(companyId, number);
    expect(contact?.name).toBe(number);
    const slot = await getSlot(companyId, contact?.id ?? 0, connectionId);
    expect(await getTicket(companyId, slot?.ticketId ?? 0)).toMatchObject({ unreadMessages: 0, lastMessage: 'Oi, aqui é a loja' });
    expect(effects.sent()).toEqual([]);
  });

  it('counts the new contact and its conversation on the dashboard when both fall on one counter item', async () => {
    // A fresh company's first contact and first ticket both have id 1: the same day, queue and shard.
    const { companyId, connectionId } = await tenant({}, []);
    const effects = recorder();
    await deliver(effects, { kind: 'message', companyId, connectionId, message: waMessage({ number: '5511911110005', body: 'hi' }) });

    // The counters' day is the company's (São Paulo by default): from 00:00 to 03:00 UTC, UTC's date is its tomorrow.
    const { day } = localDayHour(new Date().toISOString(), await companyTimeZone(companyId));
    const { items } = await readCounters(companyId, day, day, 'dashboard');
    const sum = (attr: string) => items.reduce((n, item) => n + (item.values[attr] ?? 0), 0);
    expect(sum('contacts')).toBe(1);
    expect(sum('pending') + sum('open')).toBe(1);
  });

  it('a failed transaction writes nothing, and the redelivered event stores the contact, one ticket and the message once', async () => {
    const { companyId, connectionId } = await tenant({}, [{ name: 'Support' }]);
    const effects = recorder();
    const number = '5511911110006';
    const event = { kind: 'message' as const, companyId, connectionId, message: waMessage({ number, body: 'lost once' }) };
    let failed = 0;
    documentClient().middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'TransactWriteItemsCommand' && JSON.stringify(args.input).includes('#CTNUM#') && !failed++)
          throw Object.assign(new Error('Task timed out'), { name: 'TimeoutError' });
        return next(args);
      },
      { step: 'initialize', name: 'failFirstMessage' },
    );

    const first = await deliver(effects, event);
    expect(first.batchItemFailures).toHaveLength(1);
    expect(await getContactByNumber(companyId, number)).toBeUndefined();
    expect(await getWaLink(companyId, connectionId, event.message.id)).toBeUndefined();

    const retry = await deliver(effects, event);
    expect(retry.batchItemFailures).toEqual([]);
    const contact = await getContactByNumber(companyId, number);
    if (!contact) throw new Error('contact not created on the retry');
    const slot = await getSlot(companyId, contact.id, connectionId);
    const page = await listMessagesPage(companyId, slot?.ticketId ?? 0, { limit: 20 });
    expect(page.messages.filter((m) => !m.fromMe).map((m) => m.body)).toEqual(['lost once']);
  });
  it("a known contact's next message still finds its ticket (one ticket, both messages on it)", async () => {
    const { companyId, connectionId } = await tenant({}, [{ name: 'Support' }]);
    const effects = recorder();
    const number = '5511911110002';
    await deliver(effects, { kind: 'message', companyId, connectionId, message: waMessage({ number, body: 'one' }) });
    await deliver(effects, { kind: 'message', companyId, connectionId, message: waMessage({ number, body: 'two' }) });

    const created = effects.events.filter(
      (e) => e.event === channels.appMessage(companyId) && e.data.action === 'create' && !e.data.message.fromMe,
    );
    expect(created.map((e) => e.data.message.body)).toEqual(['one', 'two']);
    expect(new Set(created.map((e) => e.data.message.ticketId)).size).toBe(1);
  });
});

describe("a known contact's next message", () => {
  // A contact without a WhatsApp profile name is named by its number. Its later messages without one
  // used to read the number guard and the contact one GetItem after the other, and the campaign
  // confirmation with a GetItem of its own, for every message (bench:inbound's p50 went 0.3 -> 1.6 s).
  it('reads nothing one key at a time when the contact is named by its number and the message carries no name', async () => {
    const { companyId, connectionId } = await tenant({}, [{ name: 'Support' }]);
    const effects = recorder();
    const number = '5511911110003';
    await deliver(effects, { kind: 'message', companyId, connectionId, message: waMessage({ number, body: 'one', pushName: undefined }) });
    const seen = watchRequests();

    await deliver(effects, { kind: 'message', companyId, connectionId, message: waMessage({ number, body: 'two', pushName: undefined }) });

    expect(seen.filter((s) => s.command === 'GetItem').map((s) => s.sk)).toEqual([]);
    expect(seen.filter((s) => s.command === 'BatchGetItem')).toHaveLength(1);
    expect((await getContactByNumber(companyId, number))?.name).toBe(number);
  });

  it('still takes the name a later message brings for a contact named by its number', async () => {
    const { companyId, connectionId } = await tenant({}, [{ name: 'Support' }]);
    const effects = recorder();
    const number = '5511911110004';
    await deliver(effects, { kind: 'message', companyId, connectionId, message: waMessage({ number, body: 'one', pushName: undefined }) });
    await deliver(effects, { kind: 'message', companyId, connectionId, message: waMessage({ number, body: 'two', pushName: 'Joana' }) });
    await deliver(effects, { kind: 'message', companyId, connectionId, message: waMessage({ number, body: 'three', pushName: 'Outra' }) });

    expect((await getContactByNumber(companyId, number))?.name).toBe('Joana');
    const renamed = effects.events.filter((e) => e.event === channels.contact(companyId)).map((e) => e.data.contact?.name);
    expect(renamed).toContain('Joana');
    expect(renamed).not.toContain('Outra');
  });
});
