/**
 * The inbound consumer writes the search words of one SQS batch's messages together (issue 24 §2,
 * storage/messages/words.ts deferredWords): at the batch's end, 25 items a BatchWriteItem, instead
 * of one BatchWriteItem a message; after the messages' events went out, so the words never hold a
 * delivery back; and a failed word write still delivers every message and marks their tickets, whose
 * next message repairs the index. Over DynamoDB Local, through the SQS handler.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { documentClient } from '../src/commons/dynamodb.ts';
import { getContactByNumber } from '../src/storage/contacts/contacts.ts';
import { getWaLink } from '../src/storage/messages/wa-links.ts';
import type { WordRepairMarks } from '../src/storage/messages/words.ts';
import { messageWords } from '../src/storage/search-index.ts';
import { readSearchHits } from '../src/storage/search-reads.ts';
import type { TicketRecord } from '../src/storage/tickets/record.ts';
import { getSlot, getTicket } from '../src/storage/tickets/tickets.ts';
import { deliver, type Recorder, recorder, tenant, waMessage } from './inbound-harness.ts';
import { type DynamoDbLocal, startDynamoDbLocal } from './support/dynamodb-local.ts';

let ddb: DynamoDbLocal;
beforeAll(async () => {
  ddb = await startDynamoDbLocal();
}, 60_000);
afterAll(async () => {
  await ddb?.stop();
});

const SPY = 'inboundWordsSpy';
/** The word writes (BatchWriteItem of search items): their item counts and the events published before each. */
function watchWordWrites(effects: Recorder, fail = false) {
  const writes: { items: number; publishedBefore: number }[] = [];
  documentClient().middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { RequestItems?: Record<string, unknown[]> };
      if (context.commandName === 'BatchWriteItemCommand' && JSON.stringify(input).includes('#SRCH#')) {
        writes.push({ items: Object.values(input.RequestItems ?? {}).flat().length, publishedBefore: effects.events.length });
        if (fail)
          throw Object.assign(new Error('Throughput exceeds the current capacity'), { name: 'ProvisionedThroughputExceededException' });
      }
      return next(args);
    },
    { step: 'initialize', name: SPY },
  );
  return writes;
}
afterEach(() => {
  documentClient().middlewareStack.remove(SPY);
});

/** Words no other message holds, none the start of another (a search reads a word's prefix): letters only, one length. */
let seq = 0;
const uniqueWord = () => {
  const n = seq++;
  return `vocabulo${[26 * 26, 26, 1].map((unit) => String.fromCharCode(97 + (Math.floor(n / unit) % 26))).join('')}`;
};

async function ticketOf(companyId: number, connectionId: number, number: string): Promise<TicketRecord & WordRepairMarks> {
  const contact = await getContactByNumber(companyId, number);
  const slot = contact ? await getSlot(companyId, contact.id, connectionId) : undefined;
  const ticket = slot ? await getTicket(companyId, slot.ticketId) : undefined;
  expect(ticket, number).toBeDefined();
  return ticket as TicketRecord & WordRepairMarks;
}

/** The tickets a search for the message word `word` lists. */
async function ticketsWith(companyId: number, word: string): Promise<number[]> {
  const read = await readSearchHits(companyId, 'M', word, { limit: 20 });
  return [...new Set(read.items.map((hit) => hit.id))];
}

const numbers = ['5511911110001', '5511911110002', '5511911110003', '5511911110004'];
const appMessages = (effects: Recorder, companyId: number) =>
  effects.events.filter((e) => e.event === `company-${companyId}-appMessage` && e.data.action === 'create' && !e.data.message.fromMe);

describe('search words of an inbound batch', () => {
  it('go out together at the batch end, 25 a request, after the messages were published; every message is found by its words', async () => {
    // Prepare: 4 contacts, 3 messages each, 3 words a message (36 words: 2 requests, not 12)
    const { companyId, connectionId } = await tenant({}, [{ name: 'Support' }]);
    const effects = recorder();
    const messages = numbers.flatMap((number) =>
      [0, 1, 2].map(() => waMessage({ number, body: `${uniqueWord()} ${uniqueWord()} ${uniqueWord()}` })),
    );
    const words = messages.flatMap((message) => messageWords(message.body));
    expect(words).toHaveLength(36);
    const writes = watchWordWrites(effects);

    // Act
    const result = await deliver(effects, ...messages.map((message) => ({ kind: 'message' as const, companyId, connectionId, message })));

    // Assess: all delivered; the words in ceil(36 / 25) requests, none before every message's event went out
    expect(result.batchItemFailures).toEqual([]);
    expect(appMessages(effects, companyId)).toHaveLength(12);
    expect(writes.length).toBeLessThanOrEqual(Math.ceil(words.length / 25));
    expect(writes.reduce((sum, write) => sum + write.items, 0)).toBe(36);
    for (const write of writes) expect(write.publishedBefore).toBeGreaterThanOrEqual(appMessages(effects, companyId).length);
    for (const message of messages) {
      const ticket = await ticketOf(companyId, connectionId, message.number);
      for (const word of messageWords(message.body)) expect(await ticketsWith(companyId, word), word).toEqual([ticket.id]);
      expect(ticket.wordRepairs).toBeUndefined();
    }
  });

  it('a failed word write still delivers every message, marks the tickets, and their next message repairs the index', async () => {
    // Prepare: 2 contacts, 2 messages each, while every word write fails (throttled)
    const { companyId, connectionId } = await tenant({}, [{ name: 'Support' }]);
    const effects = recorder();
    const [one, two] = [numbers[0] as string, numbers[1] as string];
    const messages = [one, one, two, two].map((number) => waMessage({ number, body: `${uniqueWord()} pedido` }));
    const writes = watchWordWrites(effects, true);

    // Act
    const result = await deliver(effects, ...messages.map((message) => ({ kind: 'message' as const, companyId, connectionId, message })));

    // Assess: nothing refused, every message published and done; the words are missing and their tickets marked
    expect(result.batchItemFailures).toEqual([]);
    expect(writes.length).toBeGreaterThan(0);
    expect(
      appMessages(effects, companyId)
        .map((e) => e.data.message.body)
        .sort(),
    ).toEqual(messages.map((m) => m.body).sort());
    // Done: the first messages marked after their bot turn, the second ones done in their store (no mark to write)
    for (const message of messages) expect(await getWaLink(companyId, connectionId, message.id)).toMatchObject({ botDone: true });
    const firstWord = (body: string) => body.split(' ')[0] as string;
    for (const message of messages) expect(await ticketsWith(companyId, firstWord(message.body))).toEqual([]);
    for (const number of [one, two]) expect((await ticketOf(companyId, connectionId, number)).wordRepairs?.size).toBe(2);

    // Act: the writes work again and each contact writes once more
    documentClient().middlewareStack.remove(SPY);
    const next = [one, two].map((number) => waMessage({ number, body: 'obrigado' }));
    const again = await deliver(effects, ...next.map((message) => ({ kind: 'message' as const, companyId, connectionId, message })));

    // Assess: the earlier messages are found by their words, the marks are gone
    expect(again.batchItemFailures).toEqual([]);
    for (const message of messages) {
      const ticket = await ticketOf(companyId, connectionId, message.number);
      expect(await ticketsWith(companyId, firstWord(message.body))).toEqual([ticket.id]);
      expect(ticket.wordRepairs).toBeUndefined();
    }
  });

  it('a record retried before its words were written or marked (a crash at the batch end) writes them when it resumes', async () => {
    // Prepare: the first attempt loses everything of the batch end: the words, their repair mark, the link mark
    const { companyId, connectionId } = await tenant({}, [{ name: 'Support' }]);
    const effects = recorder();
    const message = waMessage({ number: numbers[2] as string, body: `${uniqueWord()} chegou` });
    const event = { kind: 'message' as const, companyId, connectionId, message };
    const word = message.body.split(' ')[0] as string;
    documentClient().middlewareStack.add(
      (next, context) => async (args) => {
        const input = JSON.stringify(args.input);
        const endOfBatch =
          (context.commandName === 'BatchWriteItemCommand' && input.includes('#SRCH#')) ||
          input.includes('wordRepairs') ||
          (input.includes('dispatched') && input.includes(message.id));
        if (endOfBatch) throw Object.assign(new Error('Task timed out'), { name: 'TimeoutError' });
        return next(args);
      },
      { step: 'initialize', name: SPY },
    );
    const first = await deliver(effects, event);
    expect(first.batchItemFailures).toHaveLength(1);
    expect(await ticketsWith(companyId, word)).toEqual([]);

    // Act: SQS delivers the record again
    documentClient().middlewareStack.remove(SPY);
    const retry = await deliver(effects, event);

    // Assess: stored once, done, and found by its words
    expect(retry.batchItemFailures).toEqual([]);
    const ticket = await ticketOf(companyId, connectionId, message.number);
    expect(await ticketsWith(companyId, word)).toEqual([ticket.id]);
    expect(await getWaLink(companyId, connectionId, message.id)).toMatchObject({ dispatched: true });
  });
});
