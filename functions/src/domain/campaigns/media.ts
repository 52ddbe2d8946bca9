/**
 * A campaign's attachment (SPEC 7 "POST and DELETE /campaigns/{id}/media-upload"): one file in the
 * media bucket under `<cid>/campaigns/<id>/`, sent to every contact after the message (engine.ts).
 * Multipart through the API, or the key of a file the browser PUT itself with a grant
 * (POST /campaigns/{id}/uploads, as schedules do). Only while the campaign may be edited (SPEC 4):
 * storage refuses a write on a campaign that changed since it was read, and a refused file does not
 * stay in the bucket.
 */

import { ConflictError, NotFoundError } from '#commons/errors';
import { type Campaign, isCampaignEditable } from '#contracts/campaigns';
import type { MediaUpload } from '#contracts/messages';
import type { Identity } from '#domain/identity';
import {
  type Attachment,
  grantAttachmentUpload,
  storeFormAttachment,
  type UploadRequest,
  uploadedAttachment,
} from '#domain/media/attachments';
import { deleteMedia } from '#domain/media/bucket';
import type { UploadedFile } from '#domain/media/multipart';
import * as store from '#storage/campaigns/campaigns';
import { getCampaignFor } from './campaigns.ts';

const mediaPrefix = (companyId: number, id: number) => `${companyId}/campaigns/${id}`;

async function editableCampaign(identity: Identity, id: number): Promise<store.CampaignRecord> {
  const record = await store.getCampaign(identity.companyId, id);
  if (!record || record.companyId !== identity.companyId) throw new NotFoundError('ERR_NOT_FOUND');
  if (!isCampaignEditable(record)) throw new ConflictError('ERR_CAMPAIGN_NOT_EDITABLE', { status: record.status });
  return record;
}

async function attach(identity: Identity, record: store.CampaignRecord, attachment: Attachment): Promise<Campaign> {
  try {
    await store.updateCampaign(identity.companyId, record.id, record.revision, {
      mediaPath: attachment.key,
      mediaName: attachment.name,
      mediaType: attachment.contentType,
    });
  } catch (error) {
    await deleteMedia(attachment.key);
    throw error;
  }
  if (record.mediaPath && record.mediaPath !== attachment.key) await deleteMedia(record.mediaPath);
  return getCampaignFor(identity, record.id);
}

export async function uploadCampaignMedia(identity: Identity, id: number, files: UploadedFile[]): Promise<Campaign> {
  const record = await editableCampaign(identity, id);
  return attach(identity, record, await storeFormAttachment(mediaPrefix(identity.companyId, id), files));
}

export async function grantCampaignUpload(identity: Identity, id: number, request: UploadRequest): Promise<MediaUpload> {
  await editableCampaign(identity, id);
  return grantAttachmentUpload(mediaPrefix(identity.companyId, id), request);
}

export async function attachUploadedCampaignMedia(identity: Identity, id: number, key: string): Promise<Campaign> {
  const record = await editableCampaign(identity, id);
  return attach(identity, record, await uploadedAttachment(mediaPrefix(identity.companyId, id), key));
}

export async function deleteCampaignMedia(identity: Identity, id: number): Promise<Campaign> {
  const record = await editableCampaign(identity, id);
  await store.updateCampaign(identity.companyId, id, record.revision, { mediaPath: '', mediaName: '', mediaType: '' });
  if (record.mediaPath) await deleteMedia(record.mediaPath);
  return getCampaignFor(identity, id);
}
