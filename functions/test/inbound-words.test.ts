/**
 * The inbound consumer writes no search word (issue 24 §2): its messages' words go in through the
 * table's stream (storage/messages/words.ts, handlers/streams/message-words.ts), 25 items a
 * BatchWriteItem shared by the messages of a stream batch, instead of one BatchWriteItem a message
 * on its path. Over DynamoDB Local, through the SQS handler and the stream's consumer.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { documentClient } from '../src/commons/dynamodb.ts';
import { getContactByNumber } from '../src/storage/contacts/contacts.ts';
import { messageWords } from '../src/storage/search-index.ts';
import { readSearchHits } from '../src/storage/search-reads.ts';
import type { TicketRecord } from '../src/storage/tickets/record.ts';
import { getSlot, getTicket } from '../src/storage/tickets/tickets.ts';
import { deliver, type Recorder, recorder, tenant, waMessage } from './inbound-harness.ts';
import { type DynamoDbLocal, startDynamoDbLocal } from './support/dynamodb-local.ts';
import { drainTableStreams } from './support/table-streams.ts';

let ddb: DynamoDbLocal;
beforeAll(async () => {
  ddb = await startDynamoDbLocal({ streams: true });
}, 60_000);
afterAll(async () => {
  await ddb?.stop();
});

const SPY = 'inboundWordsSpy';
/** The word writes (BatchWriteItem of search items): their item counts. */
function watchWordWrites() {
  const writes: number[] = [];
  documentClient().middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { RequestItems?: Record<string, unknown[]> };
      if (context.commandName === 'BatchWriteItemCommand' && JSON.stringify(input).includes('#SRCH#'))
        writes.push(Object.values(input.RequestItems ?? {}).flat().length);
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

async function ticketOf(companyId: number, connectionId: number, number: string): Promise<TicketRecord> {
  const contact = await getContactByNumber(companyId, number);
  const slot = contact ? await getSlot(companyId, contact.id, connectionId) : undefined;
  const ticket = slot ? await getTicket(companyId, slot.ticketId) : undefined;
  expect(ticket, number).toBeDefined();
  return ticket as TicketRecord;
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
  it("are not written by the inbound consumer; the stream puts the batch's words 25 a request, and every message is found by them", async () => {
    // Prepare: 4 contacts, 3 messages each, 3 words a message (36 words: 2 requests, not 12)
    const { companyId, connectionId } = await tenant({}, [{ name: 'Support' }]);
    const effects = recorder();
    const messages = numbers.flatMap((number) =>
      [0, 1, 2].map(() => waMessage({ number, body: `${uniqueWord()} ${uniqueWord()} ${uniqueWord()}` })),
    );
    const words = messages.flatMap((message) => messageWords(message.body));
    expect(words).toHaveLength(36);
    const writes = watchWordWrites();

    // Act
    const result = await deliver(effects, ...messages.map((message) => ({ kind: 'message' as const, companyId, connectionId, message })));

    // Assess: all delivered, not one word written on their path
    expect(result.batchItemFailures).toEqual([]);
    expect(appMessages(effects, companyId)).toHaveLength(12);
    expect(writes).toEqual([]);

    // Act: the table's stream hands the messages to the words' consumer
    await drainTableStreams();

    // Assess: the words in ceil(36 / 25) requests, each message found by each of its words
    expect(writes.length).toBeLessThanOrEqual(Math.ceil(words.length / 25));
    expect(writes.reduce((sum, items) => sum + items, 0)).toBe(36);
    for (const message of messages) {
      const ticket = await ticketOf(companyId, connectionId, message.number);
      for (const word of messageWords(message.body)) expect(await ticketsWith(companyId, word), word).toEqual([ticket.id]);
    }
  });
});
