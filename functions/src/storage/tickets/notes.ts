/**
 * Notes on a ticket (SPEC 3 "Ticket note").
 *
 *   note     pk = C#<cid>#TKN#<ticketId>    sk = NOTE#<padded id>   { id, note, ticketId, contactId, userId, user }
 *            -> a ticket's notes in creation order, one strongly consistent Query
 *   lookup   pk = C#<cid>#NOTE#<id>         sk = LOOKUP             { ticketId }
 *            -> DELETE /ticket-notes/{id} finds the note's ticket (to check it may be seen)
 * Both are written and deleted in one transaction.
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { NotFoundError } from '#commons/errors';
import { db, getItem, nextId, queryAll, table, transactionCancellationCodes } from '../db.ts';
import { pad, tenantPk } from '../table.ts';

export interface TicketNoteRecord {
  id: number;
  companyId: number;
  note: string;
  ticketId: number;
  contactId: number;
  userId: number;
  user: { id: number; name: string };
  createdAt: string;
  updatedAt: string;
}

const noteKey = (companyId: number, ticketId: number, id: number) => ({
  pk: `${tenantPk(companyId)}#TKN#${ticketId}`,
  sk: `NOTE#${pad(id)}`,
});
const lookupKey = (companyId: number, id: number) => ({ pk: `${tenantPk(companyId)}#NOTE#${id}`, sk: 'LOOKUP' });

export const newTicketNoteId = (companyId: number): Promise<number> => nextId(tenantPk(companyId), 'TICKET_NOTE');

export async function createTicketNote(note: TicketNoteRecord): Promise<TicketNoteRecord> {
  await db().send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: table(),
            Item: { ...noteKey(note.companyId, note.ticketId, note.id), entity: 'ticketNote', ...note },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Put: {
            TableName: table(),
            Item: { ...lookupKey(note.companyId, note.id), entity: 'ticketNoteLookup', ticketId: note.ticketId },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ],
    }),
  );
  return note;
}

export async function getTicketNote(companyId: number, id: number): Promise<TicketNoteRecord | undefined> {
  const lookup = await getItem<{ ticketId: number }>(lookupKey(companyId, id).pk, 'LOOKUP');
  if (!lookup) return undefined;
  const key = noteKey(companyId, lookup.ticketId, id);
  return getItem<TicketNoteRecord>(key.pk, key.sk);
}

export const listTicketNotes = (companyId: number, ticketId: number): Promise<TicketNoteRecord[]> =>
  queryAll<TicketNoteRecord>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': noteKey(companyId, ticketId, 0).pk, ':prefix': 'NOTE#' },
    ConsistentRead: true,
  });

export async function deleteTicketNote(companyId: number, note: Pick<TicketNoteRecord, 'id' | 'ticketId'>): Promise<void> {
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          { Delete: { TableName: table(), Key: noteKey(companyId, note.ticketId, note.id), ConditionExpression: 'attribute_exists(pk)' } },
          { Delete: { TableName: table(), Key: lookupKey(companyId, note.id) } },
        ],
      }),
    );
  } catch (error) {
    if (transactionCancellationCodes(error)?.[0] === 'ConditionalCheckFailed') throw new NotFoundError('ERR_NOT_FOUND');
    throw error;
  }
}

/** Keys of a ticket's notes and their lookups (deleted with the ticket, storage/ticket-removal). */
export async function ticketNoteKeys(companyId: number, ticketId: number): Promise<{ pk: string; sk: string }[]> {
  const notes = await listTicketNotes(companyId, ticketId);
  return notes.flatMap((note) => [noteKey(companyId, ticketId, note.id), lookupKey(companyId, note.id)]);
}
