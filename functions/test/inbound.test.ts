import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentClient } from '../src/commons/dynamodb.ts';
import { capPreview } from '../src/contracts/message-preview.ts';
import { namesTicket } from '../src/contracts/message-ticket-id.ts';
import { queueOutgoingMessage } from '../src/domain/messages/send.ts';
import { getContactByNumber } from '../src/storage/contacts/contacts.ts';
import { db, table } from '../src/storage/db.ts';
import { getMessage, listMessagesPage, lookupKey } from '../src/storage/messages/messages.ts';
import { getWaLink } from '../src/storage/messages/wa-links.ts';
import { putSetting } from '../src/storage/settings.ts';
import { ticketLists } from '../src/storage/tickets/list-keys.ts';
import { listContactTickets, listTicketsPage } from '../src/storage/tickets/lists.ts';
import { getSlot, getTicket, getTicketByUuid, ticketKey, updateTicketState } from '../src/storage/tickets/tickets.ts';
import { deliver, recorder, tenant, waMessage } from './inbound-harness.ts';
import { type DynamoDbLocal, startDynamoDbLocal } from './support/dynamodb-local.ts';
import { itemSize } from './support/item-size.ts';
import { watchCommands } from './support/sdk-watch.ts';

let ddb: DynamoDbLocal;
beforeAll(async () => {
  ddb = await startDynamoDbLocal();
}, 60_000);
afterAll(async () => {
  await ddb?.stop();
});

async function ticketOf(companyId: number, connectionId: number, number: string) {
  const contact = await getContactByNumber(companyId, number);
  const slot = contact ? await getSlot(companyId, contact.id, connectionId) : undefined;
  return { contact, ticket: slot ? await getTicket(companyId, slot.ticketId) : undefined };
}

describe('inbound messages', () => {
  it('stores one message when the same event arrives 3 times', async () => {
    // Prepare
    const { companyId, connectionId } = await tenant();
    const effects = recorder();
    const event = { kind: 'message' as const, companyId, connectionId, message: waMessage({ body: 'Oi' }) };

    // Act: three deliveries, one of them in the same batch as another
    const first = await deliver(effects, event);
    await deliver(effects, event, event);

    // Assess
    expect(first.batchItemFailures).toEqual([]);
    const { contact, ticket } = await ticketOf(companyId, connectionId, '5511988887777');
    expect(contact?.name).toBe('Maria');
    const page = await listMessagesPage(companyId, ticket!.id, { limit: 10 });
    expect(page.messages.map((m) => m.body)).toEqual(['Oi']);
    expect(ticket).toMatchObject({ status: 'pending', unreadMessages: 1, lastMessage: 'Oi', queueId: null });
    expect(effects.events.filter((e) => e.event === `company-${companyId}-appMessage`)).toHaveLength(1);
    const created = effects.events.find((e) => e.event === `company-${companyId}-appMessage`)!.data;
    expect(created).toMatchObject({
      action: 'create',
      message: { body: 'Oi', fromMe: false, ticketId: ticket!.id },
      ticket: { id: ticket!.id, contact: { name: 'Maria', number: '5511988887777' }, whatsapp: { name: 'Main' }, tags: [] },
      contact: { name: 'Maria' },
    });
  });

  it('writes what each message needs and no more: a capped preview keeps the ticket under 1 KB, no id lookup item', async () => {
    // Prepare: a long message (WhatsApp takes 65k characters), of accented text and emoji
    const { companyId, connectionId } = await tenant();
    const body = 'Olá, preciso de ajuda com o pedido 😀 '.repeat(60);
    const event = { kind: 'message' as const, companyId, connectionId, message: waMessage({ number: '5511933332222', body }) };

    // Act
    await deliver(recorder(), event);

    // Assess: the message whole, the ticket's copy of it cut to one row's worth
    const { ticket } = await ticketOf(companyId, connectionId, '5511933332222');
    const [message] = (await listMessagesPage(companyId, ticket!.id, { limit: 1 })).messages;
    expect(message?.body).toBe(body);
    expect(ticket?.lastMessage).toBe(capPreview(body));
    expect(Array.from(new Intl.Segmenter().segment(ticket!.lastMessage))).toHaveLength(160);
    expect(ticket?.lastMessage.endsWith('…')).toBe(true);
    const item = (await db().send(new GetCommand({ TableName: table(), Key: ticketKey(companyId, ticket!.id) }))).Item;
    expect(itemSize(item!)).toBeLessThan(1024);
    // Its id names its ticket: read from there, without a lookup item (contracts/message-ticket-id.ts)
    expect(namesTicket(message!.id, ticket!.id)).toBe(true);
    const lookup = await db().send(new GetCommand({ TableName: table(), Key: lookupKey(companyId, message!.id) }));
    expect(lookup.Item).toBeUndefined();
  });

  it('publishes each message with the ticket as its store left it, and records the bot done in the store, with no write after', async () => {
    // Prepare: a queue the first message takes the ticket into, so later messages give the bot nothing to do
    const { companyId, connectionId } = await tenant({}, [{ name: 'Support' }]);
    const effects = recorder();
    const messages = ['one', 'two', 'three'].map((body) => waMessage({ number: '5511955554444', body }));

    // Act: one message after another, as a contact's FIFO group delivers them
    for (const message of messages) await deliver(effects, { kind: 'message', companyId, connectionId, message });

    // Assess: the events' ticket counts every message, as the stored ticket does
    const created = effects.events.filter((e) => e.event === `company-${companyId}-appMessage` && e.data.action === 'create');
    expect(created.filter((e) => !e.data.message.fromMe).map((e) => [e.data.message.body, e.data.ticket.lastMessage])).toEqual([
      ['one', expect.any(String)],
      ['two', 'two'],
      ['three', 'three'],
    ]);
    const inbound = created.filter((e) => !e.data.message.fromMe).map((e) => e.data.ticket.unreadMessages);
    expect(inbound).toEqual([1, 2, 3]);
    const { ticket } = await ticketOf(companyId, connectionId, '5511955554444');
    expect(ticket).toMatchObject({ unreadMessages: 3, lastMessage: 'three', queueId: expect.any(Number) });
    // The bot had nothing to do after the first: each later store recorded that, and nothing was written after it
    const link = await getWaLink(companyId, connectionId, messages[2]!.id);
    expect(link).toMatchObject({ botDone: true });
    expect(link?.dispatched).toBeUndefined();
    // A replay publishes the message again (the web app keeps it once, by id) and marks it; a second publishes nothing
    const before = effects.events.length;
    await deliver(effects, { kind: 'message', companyId, connectionId, message: messages[2]! });
    const again = effects.events.slice(before).filter((e) => e.event === `company-${companyId}-appMessage`);
    expect(again.map((e) => [e.data.action, e.data.message.body])).toEqual([['create', 'three']]);
    expect(await getWaLink(companyId, connectionId, messages[2]!.id)).toMatchObject({ botDone: true, dispatched: true });
    const replayed = effects.events.length;
    await deliver(effects, { kind: 'message', companyId, connectionId, message: messages[2]! });
    expect(effects.events).toHaveLength(replayed);
  });

  it('decides the bot again when the ticket changes between its decision and the store', async () => {
    // Prepare: a ticket with its attendant (the bot has nothing to do), asked for a rating just as a "3" arrives
    const { companyId, connectionId } = await tenant({}, [{ name: 'Support' }]);
    const effects = recorder();
    await deliver(effects, { kind: 'message', companyId, connectionId, message: waMessage({ number: '5511944443333', body: 'hi' }) });
    const { ticket } = await ticketOf(companyId, connectionId, '5511944443333');
    const open = await updateTicketState(ticket!, { status: 'open', userId: 1 });
    const rate = waMessage({ number: '5511944443333', body: '3' });
    let changed = false;
    const stop = watchCommands(async (name, input) => {
      if (changed || name !== 'TransactWriteItemsCommand' || !JSON.stringify(input).includes(rate.id)) return;
      changed = true;
      await updateTicketState(open, { awaitingRating: true });
    });

    // Act
    try {
      const result = await deliver(effects, { kind: 'message', companyId, connectionId, message: rate });
      expect(result.batchItemFailures).toEqual([]);
    } finally {
      stop();
    }

    // Assess: the "3" is the rating (the bot decided on the ticket as it is now), stored once
    expect(changed).toBe(true);
    expect(await getTicket(companyId, ticket!.id)).toMatchObject({ status: 'closed', rating: 3, awaitingRating: false });
    const page = await listMessagesPage(companyId, ticket!.id, { limit: 10 });
    expect(page.messages.filter((m) => m.body === '3')).toHaveLength(1);
    expect(page.messages.map((m) => m.body)).toContain('Bye!');
  });

  it('makes one contact and one ticket from 50 concurrent first messages', async () => {
    const { companyId, connectionId } = await tenant();
    const effects = recorder();
    const events = Array.from({ length: 50 }, (_, i) => ({
      kind: 'message' as const,
      companyId,
      connectionId,
      message: waMessage({ number: '+55 (11) 97777-0000', body: `m${i}` }),
    }));

    const results = await Promise.all(events.map((event) => deliver(effects, event)));

    expect(results.flatMap((r) => r.batchItemFailures)).toEqual([]);
    const { contact, ticket } = await ticketOf(companyId, connectionId, '5511977770000');
    expect(contact).toBeDefined();
    const tickets = await listContactTickets(companyId, contact!.id);
    expect(tickets).toHaveLength(1);
    expect(ticket?.unreadMessages).toBe(50);
    const pending = await listTicketsPage('gsi3', ticketLists.byStatus(companyId, 'pending'), { limit: 40 });
    expect(pending.tickets.map((t) => t.id)).toEqual([ticket!.id]);
    expect((await listMessagesPage(companyId, ticket!.id, { limit: 100 })).messages).toHaveLength(50);
    expect(await getTicketByUuid(companyId, ticket!.uuid)).toMatchObject({ id: ticket!.id });
  }, 60_000);

  it('ignores groups when CheckMsgIsGroup is enabled, and files them under the group otherwise', async () => {
    const { companyId, connectionId } = await tenant();
    const effects = recorder();
    const group = waMessage({ isGroup: true, number: '120363000000000001', participantNumber: '5511911112222', pushName: 'Zé' });

    await deliver(effects, { kind: 'message', companyId, connectionId, message: group });
    expect(await getContactByNumber(companyId, '120363000000000001')).toBeUndefined();

    await putSetting(companyId, 'CheckMsgIsGroup', 'disabled');
    await deliver(effects, { kind: 'message', companyId, connectionId, message: { ...group, id: `${group.id}-2` } });
    const { contact, ticket } = await ticketOf(companyId, connectionId, '120363000000000001');
    expect(contact).toMatchObject({ isGroup: true, name: '120363000000000001' });
    expect(ticket).toMatchObject({ isGroup: true, status: 'pending' });

    // A member whose profile name is absurdly long: shown on the message cut like a contact's name
    const longName = Array.from({ length: 40 }, (_, i) => `nome${i}`).join(' ');
    await deliver(effects, { kind: 'message', companyId, connectionId, message: { ...group, id: `${group.id}-3`, pushName: longName } });
    const { messages } = await listMessagesPage(companyId, (ticket as { id: number }).id, { limit: 10 });
    expect(messages.map((m) => m.contact?.name)).toEqual(expect.arrayContaining(['Zé', Array.from(longName).slice(0, 50).join('').trim()]));
  });

  it('reopens a ticket closed within timeCreateNewTicket hours, and opens a new one after', async () => {
    const { companyId, connectionId } = await tenant();
    const effects = recorder();
    const number = '5511955554444';
    await deliver(effects, { kind: 'message', companyId, connectionId, message: waMessage({ number }) });
    const first = (await ticketOf(companyId, connectionId, number)).ticket!;
    await updateTicketState(first, { status: 'closed' });

    await deliver(effects, { kind: 'message', companyId, connectionId, message: waMessage({ number }) });
    const reopened = (await ticketOf(companyId, connectionId, number)).ticket!;
    expect(reopened).toMatchObject({ id: first.id, status: 'pending', unreadMessages: 2 });

    await putSetting(companyId, 'timeCreateNewTicket', '0');
    await updateTicketState(reopened, { status: 'closed' });
    await deliver(effects, { kind: 'message', companyId, connectionId, message: waMessage({ number }) });
    const fresh = (await ticketOf(companyId, connectionId, number)).ticket!;
    expect(fresh.id).not.toBe(first.id);
    expect(fresh).toMatchObject({ status: 'pending', unreadMessages: 1 });
  });
});

describe('message updates', () => {
  async function sentMessage() {
    const { companyId, connectionId } = await tenant();
    const effects = recorder();
    const number = '5511933332222';
    await deliver(effects, { kind: 'message', companyId, connectionId, message: waMessage({ number }) });
    const ticket = (await ticketOf(companyId, connectionId, number)).ticket!;
    const message = await queueOutgoingMessage({ companyId, ticket, body: 'Our reply', userId: 1 }, effects);
    return { companyId, connectionId, number, ticket, message, effects };
  }

  it('stores our message as pending before sending it, then takes its WhatsApp id and only raises acks', async () => {
    const { companyId, connectionId, number, ticket, message, effects } = await sentMessage();
    expect(message).toMatchObject({ ack: 0, pending: true, fromMe: true });
    expect(effects.commands).toEqual([
      expect.objectContaining({ kind: 'send', commandId: message.id, messageId: message.id, number, body: 'Our reply' }),
    ]);

    await deliver(effects, {
      kind: 'sent',
      companyId,
      connectionId,
      messageId: message.id,
      ticketId: ticket.id,
      waMessageId: 'WA-OURS-1',
      number,
      timestamp: Date.now(),
    });
    expect(await getMessage(companyId, ticket.id, message.id)).toMatchObject({ ack: 1, pending: false, waId: 'WA-OURS-1' });

    // Acks out of order: 3 then 2 -> stays 3
    await deliver(effects, { kind: 'ack', companyId, connectionId, waMessageId: 'WA-OURS-1', number, ack: 3 });
    await deliver(effects, { kind: 'ack', companyId, connectionId, waMessageId: 'WA-OURS-1', number, ack: 2 });
    expect((await getMessage(companyId, ticket.id, message.id))?.ack).toBe(3);
    const updates = effects.events.filter((e) => e.event === `company-${companyId}-appMessage` && e.data.action === 'update');
    expect(updates.map((e) => e.data.message.ack)).toEqual([1, 3]);

    // Our echo (fromMe, same WhatsApp id) links to the stored message instead of duplicating it
    await deliver(effects, {
      kind: 'message',
      companyId,
      connectionId,
      message: waMessage({ id: 'WA-OURS-1', number, fromMe: true, body: 'Our reply' }),
    });
    const bodies = (await listMessagesPage(companyId, ticket.id, { limit: 10 })).messages.map((m) => m.body);
    expect(bodies.filter((b) => b === 'Our reply')).toHaveLength(1);

    // Edit and delete
    await deliver(effects, { kind: 'edit', companyId, connectionId, waMessageId: 'WA-OURS-1', number, body: 'Our reply (edited)' });
    await deliver(effects, { kind: 'revoke', companyId, connectionId, waMessageId: 'WA-OURS-1', number });
    expect(await getMessage(companyId, ticket.id, message.id)).toMatchObject({
      body: 'Our reply (edited)',
      isEdited: true,
      isDeleted: true,
      ack: 3,
    });
  });

  it('links the echo that arrives before the send result (WhatsApp id derived from ours)', async () => {
    const { companyId, connectionId, number, ticket, message, effects } = await sentMessage();
    const { waMessageIdFor } = await import('../src/contracts/wa-message-id.ts');
    const waId = waMessageIdFor(companyId, connectionId, message.id);
    await deliver(effects, {
      kind: 'message',
      companyId,
      connectionId,
      message: waMessage({ id: waId, number, fromMe: true, body: 'Our reply' }),
    });
    await deliver(effects, {
      kind: 'sent',
      companyId,
      connectionId,
      messageId: message.id,
      ticketId: ticket.id,
      waMessageId: waId,
      number,
      timestamp: Date.now(),
    });
    const mine = (await listMessagesPage(companyId, ticket.id, { limit: 10 })).messages.filter((m) => m.fromMe);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ id: message.id, ack: 1, waId });
  });

  it('takes a send reported under the WhatsApp id derived from ours without writing its link again', async () => {
    // Prepare: our send, linked when queued under the derived id; the link writes watched
    const { companyId, connectionId, number, ticket, message, effects } = await sentMessage();
    const { waMessageIdFor } = await import('../src/contracts/wa-message-id.ts');
    const waId = waMessageIdFor(companyId, connectionId, message.id);
    const linkWrites: string[] = [];
    documentClient().middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as { Item?: { sk?: string }; Key?: { sk?: string } };
        if ((input.Item ?? input.Key)?.sk === 'WAMSG') linkWrites.push(String((context as { commandName?: string }).commandName));
        return next(args);
      },
      { step: 'initialize', name: 'linkWrites' },
    );
    const linkBefore = await getWaLink(companyId, connectionId, waId);

    // Act: the send's result, then a read receipt under the same id
    try {
      await deliver(effects, {
        kind: 'sent',
        companyId,
        connectionId,
        messageId: message.id,
        ticketId: ticket.id,
        waMessageId: waId,
        number,
        timestamp: Date.now(),
      });
      await deliver(effects, { kind: 'ack', companyId, connectionId, waMessageId: waId, number, ack: 3 });
    } finally {
      documentClient().middlewareStack.remove('linkWrites');
    }

    // Assess: sent and read, through the link written with the message, which nothing rewrote
    expect(await getMessage(companyId, ticket.id, message.id)).toMatchObject({ waId, ack: 3, pending: false, error: null });
    expect(linkBefore).toMatchObject({ messageId: message.id, ticketId: ticket.id, botDone: true, dispatched: true });
    expect(await getWaLink(companyId, connectionId, waId)).toEqual(linkBefore);
    expect(linkWrites.filter((command) => command !== 'GetItemCommand' && command !== 'BatchGetItemCommand')).toEqual([]);
  });

  it('marks a failed send with its error', async () => {
    const { companyId, connectionId, number, ticket, message, effects } = await sentMessage();
    await deliver(effects, {
      kind: 'sendFailed',
      companyId,
      connectionId,
      messageId: message.id,
      ticketId: ticket.id,
      number,
      error: 'not on WhatsApp',
    });
    expect(await getMessage(companyId, ticket.id, message.id)).toMatchObject({ error: 'not on WhatsApp', pending: false, ack: 0 });
    const update = effects.events.find((e) => e.event === `company-${companyId}-appMessage` && e.data.action === 'update');
    expect(update?.data.message.error).toBe('not on WhatsApp');
  });

  it('stores a rejected call as a call_log message, once', async () => {
    const { companyId, connectionId } = await tenant();
    const effects = recorder();
    const call = {
      kind: 'call' as const,
      companyId,
      connectionId,
      callId: 'CALL1',
      number: '5511922221111',
      timestamp: Date.parse('2030-01-07T13:05:00Z'),
      rejected: true,
    };
    await deliver(effects, call, call);
    const { ticket } = await ticketOf(companyId, connectionId, '5511922221111');
    const messages = (await listMessagesPage(companyId, ticket!.id, { limit: 10 })).messages;
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ mediaType: 'call_log', body: 'Chamada de voz/vídeo perdida às 10:05' });
  });
});
