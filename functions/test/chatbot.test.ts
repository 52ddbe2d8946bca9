import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultCompanySchedules } from '../src/contracts/schedules.ts';
import { decideRating } from '../src/domain/chatbot/decide.ts';
import { isWithinSchedule } from '../src/domain/chatbot/hours.ts';
import { getContactByNumber } from '../src/storage/contacts/contacts.ts';
import { listMessagesPage } from '../src/storage/messages/messages.ts';
import { deleteOption, updateOption } from '../src/storage/queues/options.ts';
import { putSetting } from '../src/storage/settings.ts';
import { getSlot, getTicket, updateTicketState } from '../src/storage/tickets/tickets.ts';
import { deliver, option, recorder, tenant, waMessage } from './inbound-harness.ts';
import { type DynamoDbLocal, startDynamoDbLocal } from './support/dynamodb-local.ts';

let ddb: DynamoDbLocal;
beforeAll(async () => {
  ddb = await startDynamoDbLocal();
}, 60_000);
afterAll(async () => {
  await ddb?.stop();
});

const NUMBER = '5511966665555';

/** A contact that writes `bodies` in order; returns the bot's replies to each. */
async function conversation(companyId: number, connectionId: number, effects: ReturnType<typeof recorder>) {
  return async (body: string): Promise<string[]> => {
    const before = effects.sent().length;
    const out = await deliver(effects, { kind: 'message', companyId, connectionId, message: waMessage({ number: NUMBER, body }) });
    expect(out.batchItemFailures).toEqual([]);
    return effects.sent().slice(before);
  };
}

async function ticketNow(companyId: number, connectionId: number) {
  const contact = await getContactByNumber(companyId, NUMBER);
  const slot = await getSlot(companyId, contact!.id, connectionId);
  return (await getTicket(companyId, slot!.ticketId))!;
}

describe('queue menu', () => {
  it('greets with a numbered menu, puts the ticket in the chosen queue, and repeats the menu at most maxUseBotQueues times', async () => {
    const { companyId, connectionId, queues } = await tenant({ maxUseBotQueues: 3 }, [
      { name: 'Sales' },
      { name: 'Support', greetingMessage: 'Support here' },
    ]);
    const effects = recorder();
    const say = await conversation(companyId, connectionId, effects);

    expect(await say('hello')).toEqual(['Hello!\n\n*[ 1 ]* - Sales\n*[ 2 ]* - Support']);
    expect(await ticketNow(companyId, connectionId)).toMatchObject({ chatbot: true, queueId: null });
    expect(await say('2')).toEqual(['Support here']);
    expect(await ticketNow(companyId, connectionId)).toMatchObject({ queueId: queues[1]!.id, chatbot: false, status: 'pending' });
    // The bot is done: later messages wait for an attendant
    expect(await say('anyone?')).toEqual([]);

    // A second contact types garbage: menu 1 (first message), 2, 3, then silence
    const other = recorder();
    const count = async (body: string) =>
      (await deliver(other, { kind: 'message', companyId, connectionId, message: waMessage({ number: '5511900000001', body }) })) &&
      other.sent().length;
    expect(await count('hi')).toBe(1);
    expect(await count('what?')).toBe(2);
    expect(await count('9')).toBe(3);
    expect(await count('??')).toBe(3);
    expect(await count('still there?')).toBe(3);
  });

  it('takes the only queue, greeting only when sendGreetingMessageOneQueues is enabled', async () => {
    const { companyId, connectionId, queues } = await tenant({}, [{ name: 'Only', greetingMessage: 'Welcome to Only' }]);
    const effects = recorder();
    const say = await conversation(companyId, connectionId, effects);
    expect(await say('hi')).toEqual(['Welcome to Only']);
    const only = await ticketNow(companyId, connectionId);
    expect(only).toMatchObject({ queueId: queues[0]!.id, chatbot: false });
    // The thread labels it as the greeting it is (issue 25 item 3).
    const stored = (await listMessagesPage(companyId, only.id, { limit: 10 })).messages;
    expect(stored.find((m) => m.body === 'Welcome to Only')).toMatchObject({ fromMe: true, bot: true, origin: 'greeting' });

    const quiet = await tenant({}, [{ name: 'Only', greetingMessage: 'Welcome' }]);
    await putSetting(quiet.companyId, 'sendGreetingMessageOneQueues', 'disabled');
    const quietEffects = recorder();
    await deliver(quietEffects, {
      kind: 'message',
      companyId: quiet.companyId,
      connectionId: quiet.connectionId,
      message: waMessage({ number: NUMBER }),
    });
    expect(quietEffects.sent()).toEqual([]);
  });
});

describe('option tree', () => {
  it('walks children with a number, goes up with 0 and to the main menu with #, and a leaf ends the bot', async () => {
    const { companyId, connectionId, queues } = await tenant({}, [{ name: 'Sales' }, { name: 'Support', greetingMessage: 'Support here' }]);
    const support = queues[1]!.id;
    const billing = await option(companyId, support, null, '1', 'Billing', 'Billing menu');
    await option(companyId, support, null, '2', 'Tech', 'Tech team will answer');
    await option(companyId, support, billing.id, '1', 'Invoices', 'Invoices: see the portal');
    await option(companyId, support, billing.id, '2', 'Refunds', 'Refunds take 5 days');
    const effects = recorder();
    const say = await conversation(companyId, connectionId, effects);

    await say('hi');
    expect(await say('2')).toEqual(['Support here\n\n*[ 1 ]* - Billing\n*[ 2 ]* - Tech\n*[ # ]* - Menu inicial']);
    expect(await say('1')).toEqual([
      'Billing menu\n\n*[ 1 ]* - Invoices\n*[ 2 ]* - Refunds\n*[ 0 ]* - Menu anterior\n*[ # ]* - Menu inicial',
    ]);
    expect(await say('0')).toEqual(['*[ 1 ]* - Billing\n*[ 2 ]* - Tech\n*[ # ]* - Menu inicial']);
    expect(await say('#')).toEqual(['Hello!\n\n*[ 1 ]* - Sales\n*[ 2 ]* - Support']);
    expect(await ticketNow(companyId, connectionId)).toMatchObject({ queueId: null, chatbot: true });
    await say('2');
    await say('1');
    expect(await say('2')).toEqual(['Refunds take 5 days']);
    expect(await ticketNow(companyId, connectionId)).toMatchObject({ queueId: support, chatbot: false, status: 'pending', bot: null });
    expect(await say('thanks')).toEqual([]);
  });

  it("shows an admin's edit of the menu on the next message, though the tree is read through a cache", async () => {
    const { companyId, connectionId, queues } = await tenant({}, [{ name: 'Sales' }, { name: 'Support', greetingMessage: 'Support here' }]);
    const support = queues[1]!.id;
    const billing = await option(companyId, support, null, '1', 'Billing', 'Billing menu');
    const tech = await option(companyId, support, null, '2', 'Tech', 'Tech team will answer');
    const effects = recorder();
    const say = await conversation(companyId, connectionId, effects);
    await say('hi');
    expect(await say('2')).toEqual(['Support here\n\n*[ 1 ]* - Billing\n*[ 2 ]* - Tech\n*[ # ]* - Menu inicial']);

    await updateOption(companyId, billing, { title: 'Invoices and billing' });
    await deleteOption(companyId, tech);
    await say('#');
    expect(await say('2')).toEqual(['Support here\n\n*[ 1 ]* - Invoices and billing\n*[ # ]* - Menu inicial']);
    await option(companyId, support, null, '3', 'Returns');
    await say('#');
    expect(await say('2')).toEqual(['Support here\n\n*[ 1 ]* - Invoices and billing\n*[ 3 ]* - Returns\n*[ # ]* - Menu inicial']);
  });
});

describe('out of hours', () => {
  it('sends the out-of-hours message at most once per 5 minutes, in the company time zone', async () => {
    const { companyId, connectionId } = await tenant({ outOfHoursMessage: 'We are closed' }, [{ name: 'A' }, { name: 'B' }]);
    await putSetting(companyId, 'scheduleType', 'company');
    // Sunday 2030-01-06 15:00 UTC = 12:00 in São Paulo: Sunday is closed (00:00-00:00)
    const effects = recorder(new Date('2030-01-06T15:00:00Z'));
    const say = await conversation(companyId, connectionId, effects);

    expect(await say('hi')).toEqual(['We are closed']);
    effects.clock.now = new Date('2030-01-06T15:04:00Z');
    expect(await say('hello?')).toEqual([]);
    effects.clock.now = new Date('2030-01-06T15:05:30Z');
    expect(await say('hello??')).toEqual(['We are closed']);
    // Monday 09:00 in São Paulo (12:00 UTC): open, the menu comes
    effects.clock.now = new Date('2030-01-07T12:00:00Z');
    expect((await say('good morning'))[0]).toContain('*[ 1 ]* - A');
  });

  it('reads schedules in the given time zone', () => {
    // Monday 2030-01-07 10:30 UTC is 07:30 in São Paulo (closed) and 10:30 in Lisbon (open)
    expect(isWithinSchedule(defaultCompanySchedules, new Date('2030-01-07T10:30:00Z'), 'America/Sao_Paulo')).toBe(false);
    expect(isWithinSchedule(defaultCompanySchedules, new Date('2030-01-07T10:30:00Z'), 'Europe/Lisbon')).toBe(true);
    expect(isWithinSchedule(defaultCompanySchedules, new Date('2030-01-05T14:59:00Z'), 'America/Sao_Paulo')).toBe(true); // Sat 11:59
    expect(isWithinSchedule(defaultCompanySchedules, new Date('2030-01-05T15:00:00Z'), 'America/Sao_Paulo')).toBe(false); // Sat 12:00
  });
});

describe('rating', () => {
  it('accepts only 1-3 as a rating; a 1-3 reply stores it, sends the completion message and closes', async () => {
    const { companyId, connectionId } = await tenant();
    const effects = recorder();
    const say = await conversation(companyId, connectionId, effects);
    await say('hi');
    const ticket = await ticketNow(companyId, connectionId);
    await updateTicketState(ticket, { status: 'open', userId: 1, awaitingRating: true });

    expect(await say('3')).toEqual(['Bye!']);
    const rated = (await getTicket(companyId, ticket.id))!;
    expect(rated).toMatchObject({ status: 'closed', rating: 3, awaitingRating: false });
    expect((await getSlot(companyId, ticket.contactId, connectionId))?.active).toBe(false);
  });

  it('closes without a rating on any other reply', async () => {
    expect(decideRating('5', 'Bye', new Date()).patch).toMatchObject({ status: 'closed', awaitingRating: false });
    expect(decideRating('5', 'Bye', new Date()).patch.rating).toBeUndefined();
    expect(decideRating('NaN', 'Bye', new Date()).replies).toEqual([]);
    expect(decideRating(' 2 ', 'Bye', new Date())).toMatchObject({ patch: { rating: 2 }, replies: ['Bye'] });
  });
});
