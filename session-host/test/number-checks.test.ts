/**
 * Contact list numbers checked on the host: a `checkNumbers` batch answered as one valid
 * `numbersChecked` event (its own FIFO group, far below SQS's 256 KB), the connect sweep walking the
 * company's unchecked numbers batch by batch, a provider that cannot check leaving them unchecked,
 * the Brazilian ninth digit, and the simulated network's rule.
 */
import {
  type InboundEvent,
  inboundEventSchema,
  inboundGroupId,
  NUMBER_CHECK_BATCH,
  sessionCommandSchema,
} from '@conversa/functions/contracts/session-events';
import type { UncheckedNumber } from '@conversa/functions/storage/contact-lists/items';
import { describe, expect, it } from 'vitest';
import { isOnSimulatedWhatsApp } from '../../infra/local/whatsapp-simulator/network.ts';
import type { InboundPublisher } from '../src/inbound-publisher.ts';
import { checkPendingNumbers, publishNumberChecks } from '../src/number-checks.ts';
import type { SessionHandle } from '../src/provider.ts';
import { brazilianAlternate } from '../src/providers/baileys/session.ts';

const key = { companyId: 3, connectionId: 4 };

function recorder() {
  const events: InboundEvent[] = [];
  const inbound = { publish: async (event: InboundEvent) => void events.push(event) } as unknown as InboundPublisher;
  return { events, inbound };
}

/** A phone whose WhatsApp knows the numbers the simulated network does; records each query. */
function phone(asked: string[][] = []): SessionHandle {
  return {
    checkNumbers: async (numbers: string[]) => {
      asked.push(numbers);
      return numbers.filter(isOnSimulatedWhatsApp);
    },
  } as unknown as SessionHandle;
}

const numbers = (count: number, from = 1): UncheckedNumber[] =>
  Array.from({ length: count }, (_, i) => ({
    itemId: from + i,
    contactListId: 9,
    number: i % 2 ? `0011${String(from + i).padStart(9, '0')}` : `5511${String(from + i).padStart(9, '0')}`,
  }));

describe('number checks on the host', () => {
  it('answers a checkNumbers batch with one numbersChecked event, a verdict per number', async () => {
    const batch = numbers(NUMBER_CHECK_BATCH);
    const command = { kind: 'checkNumbers' as const, ...key, commandId: 'cmd-1', numbers: batch };
    expect(sessionCommandSchema.safeParse(command).success).toBe(true);
    const { events, inbound } = recorder();
    expect(await publishNumberChecks(key, command.commandId, command.numbers, phone(), inbound)).toBe(true);
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(inboundEventSchema.safeParse(event).success).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(event))).toBeLessThan(256 * 1024);
    expect(inboundGroupId(event as InboundEvent)).toBe('3:4:numbers');
    expect(event).toMatchObject({ kind: 'numbersChecked', ...key, checkId: 'cmd-1' });
    const results = (event as Extract<InboundEvent, { kind: 'numbersChecked' }>).results;
    expect(results.map((r) => r.valid)).toEqual(batch.map((_, i) => i % 2 === 0));
    expect(results.map((r) => r.itemId)).toEqual(batch.map((n) => n.itemId));
  });

  it('on connect, walks every batch of the unchecked numbers, oldest first', async () => {
    const all = numbers(2 * NUMBER_CHECK_BATCH + 7);
    const list = async (_companyId: number, limit: number, after = 0) => all.filter((n) => n.itemId > after).slice(0, limit);
    const asked: string[][] = [];
    const { events, inbound } = recorder();
    expect(await checkPendingNumbers(key, phone(asked), inbound, list)).toBe(all.length);
    expect(asked.map((batch) => batch.length)).toEqual([NUMBER_CHECK_BATCH, NUMBER_CHECK_BATCH, 7]);
    expect(events.flatMap((e) => (e.kind === 'numbersChecked' ? e.results.map((r) => r.itemId) : []))).toEqual(all.map((n) => n.itemId));
    expect(new Set(events.map((e) => (e.kind === 'numbersChecked' ? e.checkId : ''))).size).toBe(3);
  });

  it('leaves the numbers unchecked with a provider that cannot check', async () => {
    const { events, inbound } = recorder();
    const mute = {} as SessionHandle;
    expect(await publishNumberChecks(key, 'cmd-2', numbers(2), mute, inbound)).toBe(false);
    expect(await checkPendingNumbers(key, mute, inbound, async () => numbers(2))).toBe(0);
    expect(events).toEqual([]);
  });

  it("counts a Brazilian mobile's other form as the same account", () => {
    expect(brazilianAlternate('5511987654321')).toBe('551187654321');
    expect(brazilianAlternate('551187654321')).toBe('5511987654321');
    expect(brazilianAlternate('14155550123')).toBe('14155550123');
  });

  it('the simulated network: 10 to 15 digits not starting with 0 are on WhatsApp', () => {
    expect(['5511987654321', '14155550123', '491701234567'].every(isOnSimulatedWhatsApp)).toBe(true);
    expect(['0011987654321', '12345678', '1234567890123456', '55119876543a1'].some(isOnSimulatedWhatsApp)).toBe(false);
  });
});
