/**
 * The inbound consumer records its messages' links `dispatched` for the whole SQS batch in one
 * request (PartiQL's BatchExecuteStatement) instead of one UpdateItem per message; a mark that cannot be written fails its
 * record (and the later ones of its group) alone, and the retry finishes it without storing twice. A message the bot
 * had nothing to do for needs no mark: its store recorded `botDone`, and a replay publishes it again.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { documentClient } from '../src/commons/dynamodb.ts';
import { getContactByNumber } from '../src/storage/contacts/contacts.ts';
import { listMessagesPage } from '../src/storage/messages/messages.ts';
import { getWaLink } from '../src/storage/messages/wa-links.ts';
import { getSlot } from '../src/storage/tickets/tickets.ts';
import { deliver, recorder, tenant, waMessage } from './inbound-harness.ts';
import { type DynamoDbLocal, startDynamoDbLocal } from './support/dynamodb-local.ts';

let ddb: DynamoDbLocal;
beforeAll(async () => {
  ddb = await startDynamoDbLocal();
}, 60_000);
afterAll(async () => {
  await ddb?.stop();
});

type Input = { Key?: { pk?: string; sk?: string }; Statements?: { Statement?: string; Parameters?: unknown[] }[] };
/** The writes of links' `dispatched` marks, by command; `fail` makes the ones touching a key throw. */
function watchMarks(fail?: (pk: string) => boolean) {
  const seen = { update: 0, batch: 0, items: 0 };
  documentClient().middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as Input;
      const command = (context as { commandName?: string }).commandName;
      const marks = (input.Statements ?? []).filter((t) => t.Statement?.includes('dispatched'));
      if (command === 'UpdateItemCommand' && input.Key?.sk === 'WAMSG') {
        seen.update++;
        if (fail?.(input.Key.pk ?? '')) throw Object.assign(new Error('throttled'), { name: 'ThrottlingException' });
      }
      if (command === 'BatchExecuteStatementCommand' && marks.length) {
        seen.batch++;
        seen.items += marks.length;
        if (marks.some((t) => t.Parameters?.some((p) => typeof p === 'string' && fail?.(p)))) {
          throw Object.assign(new Error('throttled'), { name: 'ThrottlingException' });
        }
      }
      return next(args);
    },
    { step: 'initialize', name: 'marksMeter' },
  );
  return seen;
}
afterEach(() => {
  documentClient().middlewareStack.remove('marksMeter');
});

const numbers = ['5511900000001', '5511900000002', '5511900000003', '5511900000004', '5511900000005'];

describe('inbound link marks', () => {
  it("writes a batch's marks in one request, not one UpdateItem per message", async () => {
    const { companyId, connectionId } = await tenant({}, [{ name: 'Support' }]);
    const effects = recorder();
    const messages = numbers.map((number) => waMessage({ number, body: `hello from ${number}` }));
    const seen = watchMarks();

    const result = await deliver(effects, ...messages.map((message) => ({ kind: 'message' as const, companyId, connectionId, message })));

    expect(result.batchItemFailures).toEqual([]);
    expect(seen).toEqual({ update: 0, batch: 1, items: 5 });
    for (const message of messages) {
      expect(await getWaLink(companyId, connectionId, message.id)).toMatchObject({ botDone: true, dispatched: true });
    }
  });

  it('fails only the record whose mark cannot be written (and its group after it); its retry finishes it, stored once', async () => {
    const { companyId, connectionId } = await tenant({}, [{ name: 'Support' }]);
    const effects = recorder();
    const [stuck, fine] = [numbers[0] as string, numbers[1] as string];
    const first = waMessage({ number: stuck, body: 'first' });
    const second = waMessage({ number: stuck, body: 'second' });
    const other = waMessage({ number: fine, body: 'other' });
    const events = [first, second, other].map((message) => ({ kind: 'message' as const, companyId, connectionId, message }));
    // The link mark of `first` fails (throttled), in the batched request and alone.
    watchMarks((pk) => pk.endsWith(`#WA#${first.id}`));

    const result = await deliver(effects, ...events);

    // The consumer's record ids are m-<n> in the order given: first, second, other.
    const ids = result.batchItemFailures.map((f) => f.itemIdentifier);
    expect(ids).toHaveLength(2);
    expect(await getWaLink(companyId, connectionId, other.id)).toMatchObject({ dispatched: true });
    // `second` found its ticket in the queue, the bot with nothing to do: its store recorded that, no mark follows
    const secondLink = await getWaLink(companyId, connectionId, second.id);
    expect(secondLink).toMatchObject({ botDone: true });
    expect(secondLink?.dispatched).toBeUndefined();
    expect((await getWaLink(companyId, connectionId, first.id))?.dispatched).toBeUndefined();

    // SQS delivers the failed records again, in order.
    documentClient().middlewareStack.remove('marksMeter');
    const published = effects.events.length;
    const retry = await deliver(effects, events[0]!, events[1]!);

    expect(retry.batchItemFailures).toEqual([]);
    expect(await getWaLink(companyId, connectionId, first.id)).toMatchObject({ dispatched: true });
    expect(await getWaLink(companyId, connectionId, second.id)).toMatchObject({ botDone: true, dispatched: true });
    // Resumed at step 3 (its events published again, for an attendant who may have missed them), not stored again.
    expect(effects.events.length).toBeGreaterThan(published);
    const contact = await getContactByNumber(companyId, stuck);
    const slot = await getSlot(companyId, contact!.id, connectionId);
    const page = await listMessagesPage(companyId, slot!.ticketId, { limit: 10 });
    expect(page.messages.filter((m) => !m.fromMe).map((m) => m.body)).toEqual(['second', 'first']);
  });
});
