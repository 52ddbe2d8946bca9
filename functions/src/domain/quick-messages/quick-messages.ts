/**
 * Quick messages (SPEC 3, 5, 7): each user's own plus the company's `geral` ones. A user sees and
 * uses their own and the geral ones; only the author or an admin changes or deletes one; an admin
 * sees them all (GET /quick-messages narrowed by userId when given). The set per company is small,
 * read in one Query. Media (one file per quick message) lives in the private bucket under
 * `<companyId>/quick-messages/<id>/...`; the API answers its `/public/...` route, never the key.
 *
 * Every change is published on `company-{id}-quickmessage` (SPEC 7 "Realtime") with the id only: a
 * private quick message must not reach the other attendants' sockets, so screens refetch their list.
 */

import { ForbiddenError, NotFoundError } from '#commons/errors';
import { channels, type QuickMessageEvent } from '#contracts/channels';
import type { MediaUpload } from '#contracts/messages';
import type { CreateQuickMessageInput, ListQuickMessagesQuery, UpdateQuickMessageInput } from '#contracts/quick-message-requests';
import type { Identity } from '#domain/identity';
import {
  type Attachment,
  grantAttachmentUpload,
  storeFormAttachment,
  type UploadRequest,
  uploadedAttachment,
} from '#domain/media/attachments';
import { deleteMedia } from '#domain/media/bucket';
import { mediaRoute } from '#domain/media/keys';
import type { UploadedFile } from '#domain/media/multipart';
import { publishToCompany } from '#realtime/publisher';
import * as store from '#storage/quick-messages';

export const QUICK_MESSAGES_PAGE_SIZE = 20;

export type QuickMessage = Omit<store.QuickMessageRecord, 'mediaPath'> & { mediaPath: string | null };

const publishChange = (companyId: number, event: QuickMessageEvent) => publishToCompany(companyId, channels.quickMessage(companyId), event);

const isAdmin = (identity: Identity) => identity.profile === 'admin' || identity.super;
const canUse = (identity: Identity, record: store.QuickMessageRecord) => record.geral || record.userId === identity.userId;
const canChange = (identity: Identity, record: store.QuickMessageRecord) => record.userId === identity.userId || isAdmin(identity);

export const present = (record: store.QuickMessageRecord): QuickMessage => ({
  ...record,
  mediaPath: record.mediaPath ? mediaRoute(record.mediaPath) : null,
});

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

async function findVisible(identity: Identity, id: number): Promise<store.QuickMessageRecord> {
  const record = await store.getQuickMessage(identity.companyId, id);
  if (!record || record.companyId !== identity.companyId || !(canUse(identity, record) || isAdmin(identity)))
    throw new NotFoundError('ERR_NOT_FOUND');
  return record;
}

async function findChangeable(identity: Identity, id: number): Promise<store.QuickMessageRecord> {
  const record = await findVisible(identity, id);
  if (!canChange(identity, record)) throw new ForbiddenError('ERR_NO_PERMISSION');
  return record;
}

export async function listQuickMessagesFor(
  identity: Identity,
  query: ListQuickMessagesQuery,
): Promise<{ records: QuickMessage[]; hasMore: boolean }> {
  const needle = fold(query.searchParam);
  const owner = isAdmin(identity) ? query.userId : identity.userId;
  const all = (await store.listQuickMessages(identity.companyId))
    .filter((r) => (owner === undefined ? true : r.geral || r.userId === owner))
    .filter((r) => !needle || fold(r.shortcode).includes(needle) || fold(r.message).includes(needle))
    .sort((a, b) => fold(a.shortcode).localeCompare(fold(b.shortcode)) || a.id - b.id);
  const start = (query.pageNumber - 1) * QUICK_MESSAGES_PAGE_SIZE;
  return {
    records: all.slice(start, start + QUICK_MESSAGES_PAGE_SIZE).map(present),
    hasMore: all.length > start + QUICK_MESSAGES_PAGE_SIZE,
  };
}

/** The message input's '/' picker: the caller's own and the geral ones that are active. */
export async function listQuickRepliesFor(identity: Identity) {
  return (await store.listQuickMessages(identity.companyId))
    .filter((r) => r.status !== false && canUse(identity, r))
    .sort((a, b) => fold(a.shortcode).localeCompare(fold(b.shortcode)))
    .map((r) => {
      const shown = present(r);
      return {
        id: r.id,
        shortcode: r.shortcode,
        message: r.message,
        isMedia: r.isMedia,
        mediaPath: shown.mediaPath,
        mediaName: r.mediaName,
      };
    });
}

export const getQuickMessageFor = async (identity: Identity, id: number): Promise<QuickMessage> => present(await findVisible(identity, id));

export async function createQuickMessageFor(identity: Identity, input: CreateQuickMessageInput): Promise<QuickMessage> {
  const at = new Date().toISOString();
  const record = await store.createQuickMessage({
    id: await store.newQuickMessageId(identity.companyId),
    companyId: identity.companyId,
    ...input,
    isMedia: false,
    mediaPath: '',
    mediaName: '',
    userId: identity.userId,
    createdAt: at,
    updatedAt: at,
  });
  await publishChange(identity.companyId, { action: 'create', id: record.id });
  return present(record);
}

export async function updateQuickMessageFor(identity: Identity, id: number, input: UpdateQuickMessageInput): Promise<QuickMessage> {
  const before = await findChangeable(identity, id);
  const patch = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
  if (!Object.keys(patch).length) return present(before);
  const updated = await store.updateQuickMessage(identity.companyId, id, patch);
  await publishChange(identity.companyId, { action: 'update', id });
  return present(updated);
}

export async function deleteQuickMessageFor(identity: Identity, id: number): Promise<void> {
  const record = await findChangeable(identity, id);
  await store.deleteQuickMessage(identity.companyId, id);
  await deleteMedia(record.mediaPath);
  await publishChange(identity.companyId, { action: 'delete', id });
}

const mediaPrefix = (companyId: number, id: number) => `${companyId}/quick-messages/${id}`;

async function attach(identity: Identity, record: store.QuickMessageRecord, attachment: Attachment): Promise<QuickMessage> {
  const updated = await store.updateQuickMessage(identity.companyId, record.id, {
    isMedia: true,
    mediaPath: attachment.key,
    mediaName: attachment.name,
  });
  await deleteMedia(record.mediaPath);
  await publishChange(identity.companyId, { action: 'update', id: record.id });
  return present(updated);
}

/** Multipart (SPEC 7): the file passes through the API, so it is bounded by the request limit. */
export async function uploadQuickMessageMedia(identity: Identity, id: number, files: UploadedFile[]): Promise<QuickMessage> {
  const record = await findChangeable(identity, id);
  return attach(identity, record, await storeFormAttachment(mediaPrefix(identity.companyId, id), files));
}

/** Where the browser PUTs the quick message's file itself (any size up to the media limit). */
export async function grantQuickMessageUpload(identity: Identity, id: number, request: UploadRequest): Promise<MediaUpload> {
  await findChangeable(identity, id);
  return grantAttachmentUpload(mediaPrefix(identity.companyId, id), request);
}

/** The file the browser uploaded with its grant becomes the quick message's media. */
export async function attachUploadedQuickMessageMedia(identity: Identity, id: number, key: string): Promise<QuickMessage> {
  const record = await findChangeable(identity, id);
  return attach(identity, record, await uploadedAttachment(mediaPrefix(identity.companyId, id), key));
}

export async function deleteQuickMessageMedia(identity: Identity, id: number): Promise<QuickMessage> {
  const record = await findChangeable(identity, id);
  const updated = await store.updateQuickMessage(identity.companyId, id, { isMedia: false, mediaPath: '', mediaName: '' });
  await deleteMedia(record.mediaPath);
  await publishChange(identity.companyId, { action: 'update', id });
  return present(updated);
}
