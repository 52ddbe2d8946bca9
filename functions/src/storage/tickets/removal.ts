/**
 * Deleting a ticket (DELETE /tickets/{id}, admin): the ticket, its messages with their id lookups
 * and WhatsApp links, its history, its uuid lookup, its contact link and the (contact, connection)
 * slot when the slot names it.
 *
 * Order makes a crash harmless: the partition's messages and history go first (BatchWrite), the
 * ticket item last, in one transaction with its uuid lookup and contact link. A Lambda that dies
 * half-way leaves the ticket in place with fewer messages, and the admin's retry finishes the job;
 * never a message or lookup without its ticket. An inbound message racing the delete cannot land
 * after it: message writes require the ticket item to exist (messages/messages.ts ticketActivity).
 */
import { BatchWriteCommand, DeleteCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { namesTicket } from '#contracts/message-ticket-id';
import { waMessageIdFor } from '#contracts/wa-message-id';
import { contactPk } from '../contacts/contacts.ts';
import { db, isConditionalCheckFailed, table, transactionCancellationCodes } from '../db.ts';
import { contactWords, messageWords, ticketSearchKey } from '../search-index.ts';
import { pad, tenantPk } from '../table.ts';
import { ticketTagsRemovalItems, ticketTagsUnchanged } from '../tags.ts';
import { ticketNoteKeys } from './notes.ts';
import type { TicketRecord } from './record.ts';
import { routingItems } from './routing.ts';
import { getTicket, TICKET_SK, ticketKey, ticketPk } from './tickets.ts';

type Key = { pk: string; sk: string };

async function batchDelete(keys: Key[]): Promise<void> {
  for (let i = 0; i < keys.length; i += 25) {
    let requests = keys.slice(i, i + 25).map((Key) => ({ DeleteRequest: { Key } }));
    for (let attempt = 0; requests.length; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 50 * 2 ** attempt)));
      if (attempt > 8) throw new Error('BatchWrite left unprocessed deletes');
      const out = await db().send(new BatchWriteCommand({ RequestItems: { [table()]: requests } }));
      requests = (out.UnprocessedItems?.[table()] ?? []) as typeof requests;
    }
  }
}

/** The keys that hang off one stored message outside the ticket's partition (also the retention sweep's). */
export function messageSideKeys(companyId: number, item: Record<string, unknown>): Key[] {
  const id = String(item.id);
  const connection = Number(item.whatsappId);
  // An id that names its ticket has no lookup item (messages/messages.ts).
  const keys: Key[] = namesTicket(id, Number(item.ticketId)) ? [] : [{ pk: `${tenantPk(companyId)}#MSG#${id}`, sk: 'LOOKUP' }];
  const waIds = new Set<string>();
  if (typeof item.waId === 'string' && item.waId) waIds.add(item.waId);
  if (item.fromMe === true) waIds.add(waMessageIdFor(companyId, connection, id));
  for (const waId of waIds) keys.push({ pk: `${tenantPk(companyId)}#W#${pad(connection)}#WA#${waId}`, sk: 'WAMSG' });
  return keys;
}

/** Deletes the ticket and everything that belongs to it. False when it was already gone. */
export async function deleteTicketData(ticket: TicketRecord): Promise<boolean> {
  const { companyId, id } = ticket;
  // Its search words (search-index.ts): the message words met below and its contact's words.
  const searchKeys = new Map(contactWords(ticket.contact).map((word) => [`N#${word}`, ticketSearchKey(companyId, 'N', word, id)]));
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: table(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': ticketPk(companyId, id) },
        ProjectionExpression: 'pk, sk, id, waId, fromMe, whatsappId, body, wordIndex',
        ExclusiveStartKey,
        Limit: 500,
      }),
    );
    const keys: Key[] = [];
    for (const item of page.Items ?? []) {
      const sk = String(item.sk);
      if (sk === TICKET_SK) continue;
      keys.push({ pk: String(item.pk), sk });
      if (!sk.startsWith('MSG#')) continue;
      keys.push(...messageSideKeys(companyId, item));
      // Its own word items follow it out through the table's stream (messages/words.ts); a message
      // stored before issue 24 counted its body's words in shared items, deleted here.
      if (!item.wordIndex)
        for (const word of messageWords(String(item.body ?? ''))) searchKeys.set(`M#${word}`, ticketSearchKey(companyId, 'M', word, id));
    }
    await batchDelete(keys);
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);

  // Its notes (their own partition, storage/tickets/notes.ts), before the ticket like its messages.
  await batchDelete(await ticketNoteKeys(companyId, id));
  await batchDelete([...searchKeys.values()]);

  // The ticket's tags go with it (counts and links, storage/tags.ts), on condition that they are still
  // the ones read: a tag change in between re-reads the ticket and tries again.
  for (let attempt = 0, current: TicketRecord | undefined = ticket; ; attempt++) {
    if (!current) return false;
    const tags = current.tags ?? [];
    const unchanged = ticketTagsUnchanged(tags);
    try {
      await db().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Delete: {
                TableName: table(),
                Key: ticketKey(companyId, id),
                // Its state as read too: the seat released below is the one the ticket holds.
                ConditionExpression: `attribute_exists(pk) AND revision = :rev AND ${unchanged.condition}`,
                ExpressionAttributeValues: { ...unchanged.values, ':rev': current.revision },
              },
            },
            { Delete: { TableName: table(), Key: { pk: `${tenantPk(companyId)}#TKU#${ticket.uuid}`, sk: 'LOOKUP' } } },
            { Delete: { TableName: table(), Key: { pk: contactPk(companyId, ticket.contactId), sk: `TICKET#${pad(id)}` } } },
            ...(await ticketTagsRemovalItems(companyId, id, tags)),
            // Its attendant's seat and its place in its queue's waiting line go with it (tickets/routing.ts).
            ...routingItems(current, undefined),
          ],
        }),
      );
      break;
    } catch (error) {
      if (!transactionCancellationCodes(error)?.includes('ConditionalCheckFailed') || attempt >= 4) throw error;
      current = await getTicket(companyId, id);
    }
  }
  // The slot is the contact's, shared by its tickets on the connection: drop it only while it names this one.
  await db()
    .send(
      new DeleteCommand({
        TableName: table(),
        Key: { pk: contactPk(companyId, ticket.contactId), sk: `SLOT#W#${pad(ticket.whatsappId)}` },
        ConditionExpression: 'ticketId = :id',
        ExpressionAttributeValues: { ':id': id },
      }),
    )
    .catch((error: unknown) => {
      if (!isConditionalCheckFailed(error)) throw error;
    });
  return true;
}
