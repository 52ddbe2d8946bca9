/**
 * The contact copy on a contact's tickets (see "Denormalisations" in tickets/tickets.ts): every list row
 * shows the contact's name, number and picture without reading the contact, so a contact edit
 * rewrites that copy on each of the contact's tickets (its contact links bound the work) and moves
 * the tickets' contact-word search items with it.
 */
import { BatchWriteCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TicketContactSummary } from '#contracts/tickets';
import { contactPk } from '../contacts/contacts.ts';
import { db, isConditionalCheckFailed, stripKeys, table } from '../db.ts';
import { contactWords, ticketSearchItems, ticketSearchKey } from '../search-index.ts';
import type { TicketRecord } from './record.ts';
import { ticketKey } from './tickets.ts';

/** Rewrites a ticket's contact-word search items from the old contact copy's words to the new one's. */
async function moveContactWords(companyId: number, ticketId: number, before: TicketContactSummary, after: TicketContactSummary) {
  const old = new Set(contactWords(before));
  const now = contactWords(after);
  const requests = [
    ...[...old]
      .filter((word) => !now.includes(word))
      .map((word) => ({ DeleteRequest: { Key: ticketSearchKey(companyId, 'N', word, ticketId) } })),
    ...ticketSearchItems(
      companyId,
      'N',
      ticketId,
      now.filter((word) => !old.has(word)),
    ).map((Item) => ({ PutRequest: { Item } })),
  ];
  for (let i = 0; i < requests.length; i += 25) {
    let batch = requests.slice(i, i + 25);
    for (let attempt = 0; batch.length; attempt++) {
      if (attempt > 8) throw new Error('BatchWrite left unprocessed search items');
      if (attempt) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
      const out = await db().send(new BatchWriteCommand({ RequestItems: { [table()]: batch } }));
      batch = (out.UnprocessedItems?.[table()] ?? []) as typeof batch;
    }
  }
}

/**
 * Refreshes the contact copy on every ticket of the contact (after a contact edit), and the
 * tickets' contact-word search items with it (a renamed contact stops matching its old name).
 * Returns the refreshed tickets as they are now, for the caller to publish.
 */
export async function refreshTicketContact(companyId: number, contactId: number, contact: TicketContactSummary): Promise<TicketRecord[]> {
  const refreshed: TicketRecord[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: table(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': contactPk(companyId, contactId), ':prefix': 'TICKET#' },
        ExclusiveStartKey,
      }),
    );
    for (const link of page.Items ?? []) {
      const ticketId = link.ticketId as number;
      const before = await db()
        .send(
          new UpdateCommand({
            TableName: table(),
            Key: ticketKey(companyId, ticketId),
            UpdateExpression: 'SET contact = :contact',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':contact': contact },
            ReturnValues: 'ALL_OLD',
          }),
        )
        .then(
          (out) => (out.Attributes ? stripKeys<TicketRecord>(out.Attributes) : undefined),
          (error: unknown) => {
            // A link whose ticket was deleted: nothing to refresh.
            if (!isConditionalCheckFailed(error)) throw error;
            return undefined;
          },
        );
      if (!before) continue;
      refreshed.push({ ...before, contact });
      await moveContactWords(companyId, ticketId, before.contact ?? { name: '', number: '', profilePicUrl: '' }, contact);
    }
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return refreshed;
}
