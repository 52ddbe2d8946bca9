/**
 * A new contact's first message (issue 11, a burst of new conversations): its ticket id is
 * allocated beside the contact's, and its ticket created without reading the (contact, connection)
 * slot a contact a moment old cannot hold; the contact's event still goes out before the message's.
 * Two sequential DynamoDB round trips fewer than before (bench:inbound, new conversations).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { documentClient } from '../src/commons/dynamodb.ts';
import { channels } from '../src/contracts/channels.ts';
import { getContactByNumber } from '../src/storage/contacts.ts';
import { getSlot, getTicket } from '../src/storage/tickets.ts';
import { deliver, recorder, tenant, waMessage } from './inbound-harness.ts';
import { type DynamoDbLocal, startDynamoDbLocal } from './support/dynamodb-local.ts';

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
  /** Other requests in flight when this one started. */
  alongside: string[];
}

/** Every DynamoDB request of the handlers, with the ones it went out beside. */
function watchRequests(): Seen[] {
  const seen: Seen[] = [];
  const inFlight = new Set<string>();
  documentClient().middlewareStack.add(
    (next, context) => async (args) => {
      const command = String((context as { commandName?: string }).commandName).replace(/Command$/, '');
      const sk = String((args.input as { Key?: { sk?: string } }).Key?.sk ?? '');
      const name = `${command} ${sk}`;
      seen.push({ command, sk, alongside: [...inFlight] });
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
});

describe("a new contact's first message", () => {
  it('allocates the ticket id beside the contact id and creates the ticket without reading its slot', async () => {
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
    expect(await getTicket(companyId, slot?.ticketId ?? 0)).toMatchObject({ contactId: contact.id, status: expect.any(String) });
    // No read of the new contact's slot (the create's conditional claim guards it).
    expect(during.filter((s) => s.command === 'GetItem' && s.sk.startsWith('SLOT#'))).toEqual([]);
    // The two ids in one round trip: one counter goes out while the other is in flight.
    const counter = (name: string) => during.find((s) => s.command === 'UpdateItem' && s.sk === `COUNTER#${name}`);
    expect([...(counter('TICKET')?.alongside ?? []), ...(counter('CONTACT')?.alongside ?? [])]).toContainEqual(
      expect.stringMatching(/^UpdateItem COUNTER#(TICKET|CONTACT)$/),
    );
    // Its events: the contact's first, then the message's.
    const contactEvent = effects.events.findIndex((e) => e.event === channels.contact(companyId));
    const messageEvent = effects.events.findIndex((e) => e.event === channels.appMessage(companyId) && e.data.action === 'create');
    expect(contactEvent).toBeGreaterThanOrEqual(0);
    expect(messageEvent).toBeGreaterThan(contactEvent);
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
