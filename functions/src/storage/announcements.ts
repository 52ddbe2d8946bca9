/**
 * Announcements: platform-wide records written by super users and read by every company's users.
 *   pk = PLATFORM   sk = ANNOUNCEMENT#<padded id>   (list = one Query on the prefix, in id order)
 * The set is small (a platform's notices), so the list, its search and its pages are read whole and
 * cut in memory, as helps and plans are. `mediaPath` is the image's object key in the media bucket
 * (`announcements/<id>/<upload>/<name>`, domain/media/keys.ts), never a URL.
 */
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { AnnouncementPriority } from '#contracts/announcements';
import { db, getItem, isConditionalCheckFailed, nextId, queryAll, stripKeys, table } from './db.ts';
import { PLATFORM_PK, pad } from './table.ts';

export interface AnnouncementRecord {
  id: number;
  title: string;
  text: string;
  priority: AnnouncementPriority;
  status: boolean;
  mediaPath: string;
  mediaName: string;
  createdAt: string;
  updatedAt: string;
}

const PREFIX = 'ANNOUNCEMENT#';
const announcementSk = (id: number): string => `${PREFIX}${pad(id)}`;

export const newAnnouncementId = (): Promise<number> => nextId(PLATFORM_PK, 'announcement');

export const getAnnouncement = (id: number): Promise<AnnouncementRecord | undefined> =>
  getItem<AnnouncementRecord>(PLATFORM_PK, announcementSk(id));

export function listAnnouncements(): Promise<AnnouncementRecord[]> {
  return queryAll<AnnouncementRecord>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': PLATFORM_PK, ':prefix': PREFIX },
  });
}

/**
 * Writes the whole record. A create must not overwrite; an update (`mustExist`) is conditioned on the
 * record still being there, so a concurrent delete is never undone. Returns false when refused.
 */
export async function putAnnouncement(record: AnnouncementRecord, mustExist = false): Promise<boolean> {
  try {
    await db().send(
      new PutCommand({
        TableName: table(),
        Item: { pk: PLATFORM_PK, sk: announcementSk(record.id), entity: 'announcement', ...record },
        ConditionExpression: mustExist ? 'attribute_exists(pk)' : 'attribute_not_exists(pk)',
      }),
    );
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}

/** The deleted record, or undefined when there was nothing to delete. */
export async function deleteAnnouncement(id: number): Promise<AnnouncementRecord | undefined> {
  const out = await db().send(
    new DeleteCommand({ TableName: table(), Key: { pk: PLATFORM_PK, sk: announcementSk(id) }, ReturnValues: 'ALL_OLD' }),
  );
  return out.Attributes ? stripKeys<AnnouncementRecord>(out.Attributes) : undefined;
}
