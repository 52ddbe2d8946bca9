/**
 * Help videos: platform-wide records edited by super users, read by every signed-in user.
 *   pk = PLATFORM   sk = HELP#<padded id>      (list = query on the HELP# prefix, in id order)
 */
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Help } from '#contracts/helps';
import { db, getItem, nextId, queryAll, table } from './db.ts';
import { PLATFORM_PK, pad } from './table.ts';

export type HelpRecord = Help;

const helpSk = (id: number): string => `HELP#${pad(id)}`;

export const newHelpId = (): Promise<number> => nextId(PLATFORM_PK, 'help');

export const getHelp = (id: number): Promise<HelpRecord | undefined> => getItem<HelpRecord>(PLATFORM_PK, helpSk(id));

export function listHelps(): Promise<HelpRecord[]> {
  return queryAll<HelpRecord>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': PLATFORM_PK, ':prefix': 'HELP#' },
  });
}

/** Writes the whole record; `mustExist` turns an update of a deleted help into `false` instead of a resurrection. */
export async function putHelp(record: HelpRecord, mustExist = false): Promise<boolean> {
  try {
    await db().send(
      new PutCommand({
        TableName: table(),
        Item: { pk: PLATFORM_PK, sk: helpSk(record.id), entity: 'help', ...record },
        ConditionExpression: mustExist ? 'attribute_exists(pk)' : 'attribute_not_exists(pk)',
      }),
    );
    return true;
  } catch (error) {
    if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}

/** Returns false when there was nothing to delete. */
export async function deleteHelp(id: number): Promise<boolean> {
  const out = await db().send(new DeleteCommand({ TableName: table(), Key: { pk: PLATFORM_PK, sk: helpSk(id) }, ReturnValues: 'ALL_OLD' }));
  return Boolean(out.Attributes);
}
