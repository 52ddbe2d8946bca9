/**
 * How a message's search words are written (issue 24, storage/messages/words.ts): off the message's
 * path, by the table's stream consumer, one item per (word, ticket, message) put in a
 * BatchWriteItem, so a retried or duplicated store writes nothing twice; a failed word write never
 * touches the message (it is stored, answered and listed) and the stream tries it again. Edits,
 * deletes and the retention sweep take words out the same way. Hot tenants' word partitions are
 * sharded like their lists and a search reads them all. Over DynamoDB Local, through the handlers
 * and the stream's consumer (drained before each look at the index); failures are injected on the
 * handlers' own client.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { documentClient } from '#commons/dynamodb';
import { handleEdit, handleRevoke } from '#domain/inbound/updates';
import type { Effects } from '#domain/messages/effects';
import { raiseListShards } from '#storage/companies/companies';
import { db, table } from '#storage/db';
import { getMessage, storeMessage } from '#storage/messages/messages';
import { removeStoredMessage, type StoredMessage } from '#storage/retention/old-messages';
import { searchPartition } from '#storage/search-index';
import type { TicketRecord } from '#storage/tickets/record';
import { getTicket } from '#storage/tickets/tickets';
import { createConnection, type Env, invoke, seedTicket, startEnv, storeInbound } from './messages-harness.ts';
import { drainTableStreams } from './support/table-streams.ts';
import { seedTenant, type Tenant } from './users-harness.ts';

let env: Env;
let a: Tenant;
let connectionId: number;

const quiet: Effects = { sendCommand: async () => undefined, publish: async () => undefined, now: () => new Date() };

/** Every request the handlers' client sends: its command's name and its input as sent. */
const sent: { command: string; input: string }[] = [];
/** How many of the next BatchWriteItem calls fail (throttled). */
let failBatchWrites = 0;
/** Items the handlers' Queries and BatchGets returned. */
let itemsRead = 0;
const SPY = 'messageWordsSpy';

beforeAll(async () => {
  env = await startEnv({ streams: true });
  a = await seedTenant(env.stack);
  connectionId = (await createConnection(a)).id;
  documentClient().middlewareStack.add(
    (next, context) => async (args) => {
      const command = String(context.commandName);
      sent.push({ command, input: JSON.stringify(args.input) });
      if (failBatchWrites > 0 && command === 'BatchWriteItemCommand') {
        failBatchWrites -= 1;
        throw Object.assign(new Error('Throughput exceeds the current capacity'), { name: 'ProvisionedThroughputExceededException' });
      }
      const result = await next(args);
      const output = result.output as { Items?: unknown[]; Responses?: Record<string, unknown[]> };
      itemsRead += (output.Items?.length ?? 0) + Object.values(output.Responses ?? {}).flat().length;
      return result;
    },
    { step: 'initialize', name: SPY },
  );
}, 120_000);
afterEach(() => {
  failBatchWrites = 0;
  sent.length = 0;
});
afterAll(async () => {
  documentClient().middlewareStack.remove(SPY);
  await env?.stop();
});

/** What a search lists once the table's stream indexed what was written. */
async function found(tenant: Tenant, term: string): Promise<number[]> {
  await drainTableStreams();
  const res = await invoke('GET /tickets', { token: tenant.admin.token, query: { searchParam: term, showAll: 'true' } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.tickets as { id: number }[]).map((ticket) => ticket.id);
}

/** The index items of `word` (every shard below `shards`), as stored. */
async function wordItems(companyId: number, word: string, shards = 1): Promise<Record<string, unknown>[]> {
  await drainTableStreams();
  const items: Record<string, unknown>[] = [];
  for (let shard = 0; shard < shards; shard++) {
    const out = await db().send(
      new QueryCommand({
        TableName: table(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': searchPartition(companyId, word, shard), ':prefix': `M#${word}#` },
      }),
    );
    items.push(...(out.Items ?? []));
  }
  return items;
}

describe("message words off the message's path", () => {
  it("writes no word on the message's path; the table's stream puts one plain item a word, and a search finds the ticket", async () => {
    const ticket = await seedTicket(a, connectionId, { status: 'open', userId: a.admin.id });
    sent.length = 0;

    await storeInbound(ticket, 'Meu pedido quimbanda atrasou, quero o reembolso');

    // The message's transaction holds no search item, and nothing after it writes one.
    const transactions = sent.filter((request) => request.command === 'TransactWriteItemsCommand');
    expect(transactions).toHaveLength(1);
    expect(transactions[0]?.input).toContain('"sk":"MSG#');
    expect(sent.filter((request) => request.input.includes('#SRCH#'))).toEqual([]);
    // The stream's consumer writes them, in one BatchWriteItem.
    await drainTableStreams();
    const batches = sent.filter((request) => request.command === 'BatchWriteItemCommand' && request.input.includes('#SRCH#'));
    expect(batches).toHaveLength(1);
    expect(batches[0]?.input).toContain('M#quimbanda#');
    const items = await wordItems(a.companyId, 'quimbanda');
    expect(items).toHaveLength(1);
    expect(items[0]).not.toHaveProperty('refs');
    expect(await found(a, 'quimbanda')).toEqual([ticket.id]);
    expect(await found(a, 'reembolso')).toEqual([ticket.id]);
  });

  it('the consumer needs the table alone: with only the variables its Lambda is given, words go in and come out', async () => {
    // Prepare: the process keeps, while the stream is consumed, only what the stack gives the
    // consumer (infra conversa-stack.ts: the table's name, the logger's service, the version) and what
    // reaches this stand-in (its endpoint, the region and credentials); a variable read beyond those throws.
    const ticket = await seedTicket(a, connectionId, { status: 'open', userId: a.admin.id });
    await drainTableStreams();
    const kept = ['TABLE_NAME', 'POWERTOOLS_SERVICE_NAME', 'SERVER_VERSION', 'DYNAMODB_ENDPOINT', 'AWS_REGION'];
    const asTheConsumer = async <T>(look: () => Promise<T>): Promise<T> => {
      const saved = process.env;
      process.env = Object.fromEntries(
        Object.entries(saved).filter(([key]) => kept.includes(key) || key.startsWith('AWS_ACCESS') || key.startsWith('AWS_SECRET')),
      );
      try {
        return await look();
      } finally {
        process.env = saved;
      }
    };
    // Act: a message, consumed; then its removal, consumed
    const message = await storeInbound(ticket, 'Orçamento do ornitorrinco aprovado');
    const inserted = await asTheConsumer(() => wordItems(a.companyId, 'ornitorrinco'));
    expect(await removeStoredMessage((await getMessage(a.companyId, ticket.id, message.id)) as StoredMessage)).toBe(true);
    const removed = await asTheConsumer(() => wordItems(a.companyId, 'ornitorrinco'));
    // Assess
    expect(inserted).toHaveLength(1);
    expect(removed).toEqual([]);
  });

  it('a duplicate store of the same message writes no word twice', async () => {
    const ticket = await seedTicket(a, connectionId, { status: 'open', userId: a.admin.id });
    const message = await storeInbound(ticket, 'Boleto xilofonista vencido');
    await drainTableStreams();
    const current = (await getTicket(a.companyId, ticket.id)) as TicketRecord;
    sent.length = 0;

    // The same event again (a redelivery): the message's guard refuses it, so the stream shows no write.
    expect(await storeMessage(message, current, { unread: true, requireActive: false })).toBe('duplicate');
    await drainTableStreams();

    expect(sent.filter((request) => request.input.includes('#SRCH#'))).toEqual([]);
    expect(await wordItems(a.companyId, 'xilofonista')).toHaveLength(1);
    expect(await found(a, 'xilofonista')).toEqual([ticket.id]);
  });

  it('a failed word write keeps the message stored and answered; the stream tries again and the words go in', async () => {
    const ticket = await seedTicket(a, connectionId, { status: 'open', userId: a.admin.id });

    // Act: our send, then the stream's first two word writes fail (throttled past their own retries).
    const res = await invoke('POST /messages/{id}', {
      token: a.admin.token,
      params: { id: ticket.id },
      json: { body: 'Seu protocolo zigurate foi aberto' },
    });
    await env.commands.drain();
    failBatchWrites = 2;
    await drainTableStreams();

    // Assess: the message was answered and listed; the retried batch put its words in.
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const message = res.body.messages[0];
    expect(message).not.toHaveProperty('wordIndex');
    expect(failBatchWrites).toBe(0);
    const listed = await invoke('GET /messages/{id}', { token: a.admin.token, params: { id: ticket.id } });
    expect(listed.body.messages.map((m: { id: string }) => m.id)).toContain(message.id);
    expect(listed.body.messages[0]).not.toHaveProperty('wordIndex');
    expect(await found(a, 'zigurate')).toEqual([ticket.id]);
    expect(await wordItems(a.companyId, 'zigurate')).toHaveLength(1);
  });

  it('an edit whose word writes fail at first stops showing the old word once the stream tried again', async () => {
    const ticket = await seedTicket(a, connectionId, { status: 'open', userId: a.admin.id });
    const first = await storeInbound(ticket, 'Pedido quiromancia pendente');
    await drainTableStreams();
    const event = {
      companyId: a.companyId,
      connectionId: ticket.whatsappId,
      waMessageId: first.waId as string,
      number: ticket.contact.number,
    };

    await handleEdit({ kind: 'edit', ...event, body: 'Pedido lexicografia pendente' }, quiet);
    failBatchWrites = 1;

    expect((await getMessage(a.companyId, ticket.id, first.id))?.body).toBe('Pedido lexicografia pendente');
    expect(await found(a, 'quiromancia')).toEqual([]);
    expect(failBatchWrites).toBe(0);
    expect(await wordItems(a.companyId, 'quiromancia')).toHaveLength(0);
    expect(await found(a, 'lexicografia')).toEqual([ticket.id]);
  });

  it('a word two messages hold lists the ticket once, and goes when neither holds it', async () => {
    const ticket = await seedTicket(a, connectionId, { status: 'open', userId: a.admin.id });
    const first = await storeInbound(ticket, 'Cadastro ornamental feito');
    const second = await storeInbound(ticket, 'Outro cadastro ornamental');
    expect(await wordItems(a.companyId, 'ornamental')).toHaveLength(2);
    expect(await found(a, 'ornamental')).toEqual([ticket.id]);

    const revoke = (waMessageId: string) =>
      handleRevoke(
        { kind: 'revoke', companyId: a.companyId, connectionId: ticket.whatsappId, waMessageId, number: ticket.contact.number },
        quiet,
      );
    await revoke(first.waId as string);
    expect(await found(a, 'ornamental')).toEqual([ticket.id]);
    await revoke(second.waId as string);

    expect(await wordItems(a.companyId, 'ornamental')).toHaveLength(0);
    expect(await found(a, 'ornamental')).toEqual([]);
  });

  it("a deleted ticket takes its messages' words out through the stream", async () => {
    const ticket = await seedTicket(a, connectionId, { status: 'open', userId: a.admin.id });
    await storeInbound(ticket, 'Pedido heliotropo confirmado');
    await storeInbound(ticket, 'O heliotropo chegou');
    expect(await wordItems(a.companyId, 'heliotropo')).toHaveLength(2);

    const res = await invoke('DELETE /tickets/{id}', { token: a.admin.token, params: { id: ticket.id } });

    expect(res.status, JSON.stringify(res.body)).toBe(204);
    expect(await wordItems(a.companyId, 'heliotropo')).toHaveLength(0);
    expect(await found(a, 'heliotropo')).toEqual([]);
  });

  it('a message removed by the retention sweep takes its words out through the stream', async () => {
    const ticket = await seedTicket(a, connectionId, { status: 'open', userId: a.admin.id });
    const message = await storeInbound(ticket, 'Contrato quaternario assinado');
    expect(await found(a, 'quaternario')).toEqual([ticket.id]);
    const stored = (await getMessage(a.companyId, ticket.id, message.id)) as StoredMessage;

    expect(await removeStoredMessage(stored)).toBe(true);

    expect(await wordItems(a.companyId, 'quaternario')).toHaveLength(0);
    expect(await found(a, 'quaternario')).toEqual([]);
  });
});

describe('a search by message words', () => {
  it('reads about the hits and tickets its page shows, not a hundred', async () => {
    const tickets: TicketRecord[] = [];
    for (let i = 0; i < 60; i++) {
      const ticket = await seedTicket(a, connectionId, { status: 'open', userId: a.admin.id });
      await storeInbound(ticket, `Nota paralelepipedo ${i}`);
      tickets.push(ticket);
    }

    await drainTableStreams();
    itemsRead = 0;
    const res = await invoke('GET /tickets', { token: a.admin.token, query: { searchParam: 'paralelepipedo', showAll: 'true' } });

    // Assess: a page of 40, newest first; its hits and tickets read with a margin, not 100 hits and their tickets.
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((res.body.tickets as { id: number }[]).map((ticket) => ticket.id)).toEqual(
      tickets
        .map((ticket) => ticket.id)
        .reverse()
        .slice(0, 40),
    );
    expect(itemsRead).toBeLessThanOrEqual(110);
  }, 60_000);
});

describe('word partitions of a sharded tenant', () => {
  it('spreads a word over the shards and a search pages through all of them, each ticket once', async () => {
    const hot = await seedTenant(env.stack);
    expect(await raiseListShards(hot.companyId, 3)).toBe(true);
    const connection = (await createConnection(hot)).id;
    const tickets: TicketRecord[] = [];
    for (let i = 0; i < 45; i++) {
      const ticket = await seedTicket(hot, connection, { status: 'open', userId: hot.admin.id });
      await storeInbound(ticket, `Encomenda ventriloquo numero ${i}`);
      await storeInbound(ticket, 'O ventriloquo chegou?');
      tickets.push(ticket);
    }

    const items = await wordItems(hot.companyId, 'ventriloquo', 3);
    expect(items).toHaveLength(90);
    expect(new Set(items.map((item) => item.pk)).size).toBe(3);

    // Pages of 40 through the cursor: every ticket once, newest first.
    const listed: number[] = [];
    let cursor: string | undefined;
    await drainTableStreams();
    do {
      const res = await invoke('GET /tickets', {
        token: hot.admin.token,
        query: { searchParam: 'ventriloquo', showAll: 'true', ...(cursor ? { cursor } : {}) },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      listed.push(...(res.body.tickets as { id: number }[]).map((ticket) => ticket.id));
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(listed).toEqual(tickets.map((ticket) => ticket.id).reverse());
  }, 120_000);
});
