/**
 * Contact and ticket ids (storage/contacts/conversation-ids.ts) over DynamoDB Local: separate counters, the
 * shared counter's move (numbering on from where the contact counter was), a new conversation's two
 * ids in one request once moved, and the first step's code, still running beside the second, taking
 * contact ids from the moved counter; under a race of both, no contact id twice and none skipped.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { documentClient } from '../src/commons/dynamodb.ts';
import { newContactId, newConversationIds, newTicketId } from '../src/storage/contacts/conversation-ids.ts';
import { table } from '../src/storage/db.ts';
import { tenantPk } from '../src/storage/table.ts';
import { type DynamoDbLocal, startDynamoDbLocal } from './support/dynamodb-local.ts';

let ddb: DynamoDbLocal;
beforeAll(async () => {
  ddb = await startDynamoDbLocal();
}, 60_000);
afterAll(async () => {
  await ddb?.stop();
});
afterEach(() => {
  delete process.env.CONVERSATION_COUNTER;
});

let nextCompany = 500;
const shared = () => {
  process.env.CONVERSATION_COUNTER = 'shared';
};

/** The DynamoDB requests `act` sends, by command name. */
async function requestsOf(act: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  const name = `conversationIdsMeter${nextCompany}`;
  documentClient().middlewareStack.add(
    (next, context) => (args) => {
      sent.push(String(context.commandName));
      return next(args);
    },
    { step: 'initialize', name },
  );
  try {
    await act();
  } finally {
    documentClient().middlewareStack.remove(name);
  }
  return sent;
}

const counter = async (companyId: number, name: 'CONTACT' | 'TICKET') =>
  (await documentClient().send(new GetCommand({ TableName: table(), Key: { pk: tenantPk(companyId), sk: `COUNTER#${name}` } }))).Item;

/** This module as another Lambda container has it: nothing remembered of any company. */
async function anotherContainer(): Promise<typeof import('../src/storage/contacts/conversation-ids.ts')> {
  vi.resetModules();
  return import('../src/storage/contacts/conversation-ids.ts');
}

describe('separate counters (before the shared counter is released)', () => {
  it("numbers contacts and tickets each on their own, a new conversation's two ids in two requests", async () => {
    const companyId = nextCompany++;
    expect([await newContactId(companyId), await newContactId(companyId), await newTicketId(companyId)]).toEqual([1, 2, 1]);
    let ids: unknown;
    const sent = await requestsOf(async () => {
      ids = await newConversationIds(companyId);
    });
    expect(ids).toEqual({ contactId: 3, ticketId: 2 });
    expect(sent).toEqual(['UpdateItemCommand', 'UpdateItemCommand']);
    expect((await counter(companyId, 'CONTACT'))?.movedTo).toBeUndefined();
  });
});

describe('the shared counter', () => {
  it("moves a company's contact counter on its first new conversation, numbering on; then one request for both ids", async () => {
    // Prepare: five contacts and three tickets numbered the old way
    const companyId = nextCompany++;
    for (let i = 0; i < 5; i++) await newContactId(companyId);
    for (let i = 0; i < 3; i++) await newTicketId(companyId);
    shared();

    // Act
    const first = await newConversationIds(companyId);
    let second: unknown;
    const sent = await requestsOf(async () => {
      second = await newConversationIds(companyId);
    });

    // Assess
    expect(first).toEqual({ contactId: 6, ticketId: 4 });
    expect(second).toEqual({ contactId: 7, ticketId: 5 });
    expect(sent).toEqual(['UpdateItemCommand']);
    expect(await counter(companyId, 'CONTACT')).toMatchObject({ value: 5, movedTo: 'COUNTER#TICKET' });
    expect(await counter(companyId, 'TICKET')).toMatchObject({ value: 5, contactValue: 7 });
    // A contact made alone (the contacts page, an import) numbers on from the same place
    expect(await newContactId(companyId)).toBe(8);
  });

  it("starts a brand-new company's numbering at 1 for both", async () => {
    const companyId = nextCompany++;
    shared();
    expect(await newConversationIds(companyId)).toEqual({ contactId: 1, ticketId: 1 });
    expect(await newConversationIds(companyId)).toEqual({ contactId: 2, ticketId: 2 });
  });

  it('the first step, still running in another container, takes contact ids from the moved counter', async () => {
    const companyId = nextCompany++;
    await newContactId(companyId);
    shared();
    expect(await newConversationIds(companyId)).toEqual({ contactId: 2, ticketId: 1 });
    delete process.env.CONVERSATION_COUNTER;

    const older = await anotherContainer();
    expect(await older.newContactId(companyId)).toBe(3);
    expect(await older.newConversationIds(companyId)).toEqual({ contactId: 4, ticketId: 2 });
    expect((await counter(companyId, 'CONTACT'))?.value).toBe(1);
  });

  it('hands out no contact id twice and skips none while the move races both steps', async () => {
    // Prepare: ten contacts numbered the old way; one container of each step
    const companyId = nextCompany++;
    for (let i = 0; i < 10; i++) await newContactId(companyId);
    const firstStep = await anotherContainer();

    // Act: 15 new conversations on the second step beside 15 contacts on the first, at once
    const contactIds: number[] = [];
    const ticketIds: number[] = [];
    await Promise.all([
      ...Array.from({ length: 15 }, async () => {
        process.env.CONVERSATION_COUNTER = 'shared';
        const ids = await newConversationIds(companyId);
        contactIds.push(ids.contactId);
        ticketIds.push(ids.ticketId);
      }),
      ...Array.from({ length: 15 }, async () => contactIds.push(await firstStep.newContactId(companyId))),
    ]);

    // Assess
    expect(contactIds.sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => 11 + i));
    expect(ticketIds.sort((a, b) => a - b)).toEqual(Array.from({ length: 15 }, (_, i) => 1 + i));
  });
});
