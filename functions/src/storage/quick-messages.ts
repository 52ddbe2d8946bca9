/**
 * Quick messages (SPEC 3 "Quick message"): a tenant's canned replies, a small set per company.
 *
 *   quick message  pk = C#<cid>   sk = QM#<padded id>   { id, shortcode, message, geral, status, isMedia, mediaPath, mediaName, userId }
 *                  -> one Query reads the tenant's set; `mediaPath` is the media bucket key (`<cid>/quick-messages/...`)
 */
import { tenantRecords } from './tenant-records.ts';

export interface QuickMessageRecord {
  id: number;
  companyId: number;
  shortcode: string;
  message: string;
  geral: boolean;
  status: boolean;
  isMedia: boolean;
  /** Bucket key, '' without media. */
  mediaPath: string;
  mediaName: string;
  userId: number;
  createdAt: string;
  updatedAt: string;
}
export type QuickMessagePatch = Partial<
  Pick<QuickMessageRecord, 'shortcode' | 'message' | 'geral' | 'status' | 'isMedia' | 'mediaPath' | 'mediaName'>
>;

const records = tenantRecords<QuickMessageRecord, QuickMessagePatch>({ prefix: 'QM', counter: 'QUICK_MESSAGE', entity: 'quickMessage' });

export const newQuickMessageId = records.newId;
export const getQuickMessage = records.get;
export const listQuickMessages = records.list;
export const createQuickMessage = records.create;
export const updateQuickMessage = records.update;
export const deleteQuickMessage = records.remove;
