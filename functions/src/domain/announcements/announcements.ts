/**
 * Announcements (SPEC 2 "Announcements", 3, 5, 7): the platform's notices. Super users write them
 * (the route table's `super` access); every company's users read the active ones (status true), in
 * the top bar's popover; super users also see the inactive ones they manage. Every change goes to
 * every socket of every tenant on `company-announcement`, carrying only what any user may read: an
 * announcement that is (or becomes) inactive travels as a delete.
 *
 * The image (.png, .jpg, .jpeg only: it is shown inline to every user) lives in the private media
 * bucket under `announcements/<id>/...`, outside every tenant's prefix; the media route serves it to
 * whoever may read the announcement (domain/media/access.ts).
 */

import { NotFoundError, ValidationError } from '#commons/errors';
import {
  ANNOUNCEMENT_IMAGE_TYPES,
  type Announcement,
  type AnnouncementEvent,
  type AnnouncementsPage,
  type CreateAnnouncementInput,
  type ListAnnouncementsQuery,
  type UpdateAnnouncementInput,
} from '#contracts/announcements';
import { channels } from '#contracts/channels';
import type { MediaUpload } from '#contracts/messages';
import { changesOf, recordAudit } from '#domain/audit/record';
import type { Identity } from '#domain/identity';
import {
  type Attachment,
  grantAttachmentUpload,
  storeFormAttachment,
  type UploadRequest,
  uploadedAttachment,
} from '#domain/media/attachments';
import { deleteMedia } from '#domain/media/bucket';
import { ANNOUNCEMENTS_MEDIA_PREFIX, mediaRoute } from '#domain/media/keys';
import type { UploadedFile } from '#domain/media/multipart';
import { publishToAll } from '#realtime/publisher';
import * as store from '#storage/announcements';

export const ANNOUNCEMENTS_PAGE_SIZE = 20;

type Reader = Pick<Identity, 'super'>;

export const present = (record: store.AnnouncementRecord): Announcement => ({
  ...record,
  mediaPath: record.mediaPath ? mediaRoute(record.mediaPath) : null,
});

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

const visibleTo = (reader: Reader, record: store.AnnouncementRecord) => record.status || reader.super;

/** What the sockets of every tenant learn: an inactive announcement is gone for them. */
function publishChange(action: 'create' | 'update', record: store.AnnouncementRecord): Promise<unknown> {
  const event: AnnouncementEvent = record.status ? { action, record: present(record) } : { action: 'delete', id: record.id };
  return publishToAll(channels.announcement(), event);
}

/** Highest priority first (1 red), then newest: the popover's order and the page's. */
const byPriorityThenNewest = (a: store.AnnouncementRecord, b: store.AnnouncementRecord) =>
  a.priority - b.priority || b.createdAt.localeCompare(a.createdAt) || b.id - a.id;

export async function listAnnouncementsFor(reader: Reader, query: ListAnnouncementsQuery): Promise<AnnouncementsPage> {
  const needle = fold(query.searchParam);
  const all = (await store.listAnnouncements())
    .filter((record) => visibleTo(reader, record))
    .filter((record) => !needle || fold(record.title).includes(needle) || fold(record.text).includes(needle))
    .sort(byPriorityThenNewest);
  const start = (query.pageNumber - 1) * ANNOUNCEMENTS_PAGE_SIZE;
  return { records: all.slice(start, start + ANNOUNCEMENTS_PAGE_SIZE).map(present), hasMore: all.length > start + ANNOUNCEMENTS_PAGE_SIZE };
}

async function find(reader: Reader, id: number): Promise<store.AnnouncementRecord> {
  const record = await store.getAnnouncement(id);
  if (!record || !visibleTo(reader, record)) throw new NotFoundError('ERR_NOT_FOUND');
  return record;
}

export const getAnnouncementFor = async (reader: Reader, id: number): Promise<Announcement> => present(await find(reader, id));

export async function createAnnouncement(input: CreateAnnouncementInput, now = new Date()): Promise<Announcement> {
  const at = now.toISOString();
  const record: store.AnnouncementRecord = {
    id: await store.newAnnouncementId(),
    ...input,
    mediaPath: '',
    mediaName: '',
    createdAt: at,
    updatedAt: at,
  };
  await store.putAnnouncement(record);
  await recordAudit({
    action: 'announcement.create',
    targetType: 'announcement',
    targetId: record.id,
    changes: changesOf(null, { ...record }),
  });
  await publishChange('create', record);
  return present(record);
}

/** Writes `patch` over the record as read; one deleted meanwhile is a 404, never brought back. */
async function change(before: store.AnnouncementRecord, patch: Partial<store.AnnouncementRecord>): Promise<store.AnnouncementRecord> {
  const after: store.AnnouncementRecord = { ...before, ...patch, id: before.id, updatedAt: new Date().toISOString() };
  if (!(await store.putAnnouncement(after, true))) throw new NotFoundError('ERR_NOT_FOUND');
  await publishChange('update', after);
  return after;
}

export async function updateAnnouncement(reader: Reader, id: number, input: UpdateAnnouncementInput): Promise<Announcement> {
  const before = await find(reader, id);
  const patch = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
  if (!Object.keys(patch).length) return present(before);
  const after = await change(before, patch);
  await recordAudit({
    action: 'announcement.update',
    targetType: 'announcement',
    targetId: id,
    changes: changesOf({ ...before }, { ...after }),
  });
  return present(after);
}

export async function deleteAnnouncement(reader: Reader, id: number): Promise<void> {
  await find(reader, id);
  const deleted = await store.deleteAnnouncement(id);
  if (!deleted) throw new NotFoundError('ERR_NOT_FOUND');
  await recordAudit({
    action: 'announcement.delete',
    targetType: 'announcement',
    targetId: id,
    changes: changesOf({ ...deleted }, null, ['title']),
  });
  await deleteMedia(deleted.mediaPath);
  await publishToAll(channels.announcement(), { action: 'delete', id } satisfies AnnouncementEvent);
}

const mediaPrefix = (id: number) => `${ANNOUNCEMENTS_MEDIA_PREFIX}/${id}`;

/** The image's type by its extension and declared type, which must agree: only the spec's three. */
function checkImage(fileName: string, contentType: string, field: string): void {
  const ext = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase() ?? '';
  const expected = ANNOUNCEMENT_IMAGE_TYPES[ext];
  if (!expected || expected !== contentType.toLowerCase()) throw new ValidationError(field, 'Only .png, .jpg or .jpeg images');
}

async function attach(before: store.AnnouncementRecord, attachment: Attachment): Promise<Announcement> {
  const after = await change(before, { mediaPath: attachment.key, mediaName: attachment.name });
  await recordAudit({
    action: 'announcement.update',
    targetType: 'announcement',
    targetId: before.id,
    changes: changesOf({ ...before }, { ...after }, ['mediaName']),
  });
  if (before.mediaPath && before.mediaPath !== attachment.key) await deleteMedia(before.mediaPath);
  return present(after);
}

/** Multipart (SPEC 7): the image passes through the API, so it is bounded by the request limit. */
export async function uploadAnnouncementMedia(reader: Reader, id: number, files: UploadedFile[]): Promise<Announcement> {
  const before = await find(reader, id);
  const file = files.find((f) => f.field === 'file') ?? files[0];
  if (file) checkImage(file.filename ?? '', file.mimetype ?? '', 'file');
  return attach(before, await storeFormAttachment(mediaPrefix(id), files));
}

/** Where the browser PUTs the image itself (README: media goes to the bucket with a presigned PUT). */
export async function grantAnnouncementUpload(reader: Reader, id: number, request: UploadRequest): Promise<MediaUpload> {
  await find(reader, id);
  checkImage(request.fileName, request.contentType, 'contentType');
  return grantAttachmentUpload(mediaPrefix(id), request);
}

/** The image the browser uploaded with its grant becomes the announcement's. */
export async function attachUploadedAnnouncementMedia(reader: Reader, id: number, key: string): Promise<Announcement> {
  const before = await find(reader, id);
  const attachment = await uploadedAttachment(mediaPrefix(id), key);
  checkImage(attachment.name, attachment.contentType, 'key');
  return attach(before, attachment);
}

export async function deleteAnnouncementMedia(reader: Reader, id: number): Promise<Announcement> {
  const before = await find(reader, id);
  if (!before.mediaPath) return present(before);
  const after = await change(before, { mediaPath: '', mediaName: '' });
  await recordAudit({
    action: 'announcement.update',
    targetType: 'announcement',
    targetId: id,
    changes: changesOf({ ...before }, { ...after }, ['mediaName']),
  });
  await deleteMedia(before.mediaPath);
  return present(after);
}
