/**
 * The contacts a Baileys session's phone reported (contacts.upsert / contacts.update, history sync),
 * kept in DynamoDB: WhatsApp sends the address book once, after pairing, and only changes after
 * that, so a host that restarts (or takes a session over) must find it stored, never in memory or
 * on local disk.
 *   phone contact   pk = C#<companyId>   sk = WAPHONE#<connectionId>#<digits>   { number, name?, notify? }
 * `name` is the address-book name, `notify` the name the contact gave itself; each is written only
 * when an event carries it, so a later push-name update never erases an address-book name.
 * Forgotten when the session logs out (another phone may be linked next).
 */
import { BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, queryAll, table } from '@conversa/functions/storage/db';
import { tenantPk } from '@conversa/functions/storage/table';

export interface StoredPhoneContact {
  number: string;
  name?: string;
  notify?: string;
}

const prefix = (connectionId: number) => `WAPHONE#${connectionId}#`;
const WRITE_CONCURRENCY = 8;

export async function savePhoneContacts(companyId: number, connectionId: number, contacts: StoredPhoneContact[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < contacts.length) {
      const { number, ...fields } = contacts[next++]!;
      const set = Object.entries(fields).filter(([, value]) => value !== undefined);
      await db().send(
        new UpdateCommand({
          TableName: table(),
          Key: { pk: tenantPk(companyId), sk: `${prefix(connectionId)}${number}` },
          UpdateExpression: `SET #number = :number, entity = :entity${set.map(([key]) => `, #${key} = :${key}`).join('')}`,
          ExpressionAttributeNames: { '#number': 'number', ...Object.fromEntries(set.map(([key]) => [`#${key}`, key])) },
          ExpressionAttributeValues: {
            ':number': number,
            ':entity': 'phoneContact',
            ...Object.fromEntries(set.map(([key, value]) => [`:${key}`, value])),
          },
        }),
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(WRITE_CONCURRENCY, contacts.length) }, worker));
}

export async function listPhoneContacts(companyId: number, connectionId: number): Promise<StoredPhoneContact[]> {
  const items = await queryAll<StoredPhoneContact & { entity?: string }>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': tenantPk(companyId), ':prefix': prefix(connectionId) },
    // Just written by this session's event handlers: an import right after pairing must see them.
    ConsistentRead: true,
  });
  return items.map(({ number, name, notify }) => ({ number, ...(name ? { name } : {}), ...(notify ? { notify } : {}) }));
}

export async function clearPhoneContacts(companyId: number, connectionId: number): Promise<void> {
  const items = await listPhoneContacts(companyId, connectionId);
  for (let start = 0; start < items.length; start += 25) {
    let requests: Record<string, unknown[]> | undefined = {
      [table()]: items.slice(start, start + 25).map(({ number }) => ({
        DeleteRequest: { Key: { pk: tenantPk(companyId), sk: `${prefix(connectionId)}${number}` } },
      })),
    };
    while (requests && Object.keys(requests).length) {
      const out = await db().send(new BatchWriteCommand({ RequestItems: requests as never }));
      requests = out.UnprocessedItems as Record<string, unknown[]> | undefined;
    }
  }
}
