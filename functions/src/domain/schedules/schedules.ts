/**
 * Scheduled messages (SPEC 3 "Schedule message", 7 "Quick messages, schedules"): every user of the
 * company sees and edits the company's schedules (the calendar is the company's). A schedule names a
 * contact of the tenant and, when made from a conversation, that ticket (its connection sends it).
 * It can be edited until the sender takes it; an edit of a failed one schedules it again. Media (one
 * file) lives in the private bucket under `<companyId>/schedules/<id>/...`; the API answers its
 * `/public/...` route, never the key.
 *
 * Every change is published on `company-{id}-schedule` with the id (like quick messages): screens
 * refetch. The plan's `schedules` limit caps the schedules waiting to be sent (0 = no limit).
 */

import { ConflictError, NotFoundError } from '#commons/errors';
import { channels, type ScheduleEvent } from '#contracts/channels';
import type { MediaUpload } from '#contracts/messages';
import {
  type CreateScheduleInput,
  type ListSchedulesQuery,
  SCHEDULES_PAGE_SIZE,
  type Schedule,
  type UpdateScheduleInput,
} from '#contracts/schedule-requests';
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
import { createWithinPlanLimit } from '#domain/plans/limits';
import { companyInstant } from '#domain/settings/company-zone';
import { publishToCompany } from '#realtime/publisher';
import { getItemBatched } from '#storage/batch-get';
import { type ContactRecord, contactKey, getContact } from '#storage/contacts/contacts';
import * as store from '#storage/schedules';
import { getTicket } from '#storage/tickets/tickets';

export const publishScheduleChange = (companyId: number, event: ScheduleEvent) =>
  publishToCompany(companyId, channels.schedule(companyId), event);

export const contactCopy = (contact: ContactRecord): store.ScheduleContactCopy => ({
  id: contact.id,
  name: contact.name,
  number: contact.number,
  profilePicUrl: contact.profilePicUrl,
});

export function present(record: store.ScheduleRecord, contact?: ContactRecord | null): Schedule {
  return {
    id: record.id,
    companyId: record.companyId,
    body: record.body,
    contactId: record.contactId,
    contact: contact ? contactCopy(contact) : contact === null ? null : record.contact,
    ticketId: record.ticketId ?? null,
    whatsappId: record.whatsappId ?? null,
    sendAt: record.sendAt,
    sentAt: record.sentAt ?? null,
    status: record.status,
    error: record.error ?? null,
    mediaPath: record.mediaPath ? mediaRoute(record.mediaPath) : null,
    mediaName: record.mediaName ?? '',
    userId: record.userId,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

/** The contacts' current names (one BatchGet), so a renamed contact shows renamed. */
async function presentAll(records: store.ScheduleRecord[]): Promise<Schedule[]> {
  const contacts = await Promise.all(
    records.map((r) => getItemBatched<ContactRecord>(contactKey(r.companyId, r.contactId)).then((c) => c ?? null)),
  );
  return records.map((record, i) => present(record, contacts[i]));
}

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

/** Search over the body, the contact's name and number; the calendar's order: by send time. */
export function selectSchedules(records: store.ScheduleRecord[], query: ListSchedulesQuery): store.ScheduleRecord[] {
  const needle = fold(query.searchParam);
  return records
    .filter((r) => query.contactId === undefined || r.contactId === query.contactId)
    .filter(
      (r) =>
        !needle ||
        fold(r.body).includes(needle) ||
        fold(r.contact?.name ?? '').includes(needle) ||
        (r.contact?.number ?? '').includes(needle),
    )
    .sort((a, b) => a.sendAt.localeCompare(b.sendAt) || a.id - b.id);
}

/** A person may change it: not taken by the sender, not sent (storage enforces the same). */
const isEditable = (record: Pick<store.ScheduleRecord, 'status'>): boolean => record.status === 'PENDENTE' || record.status === 'ERRO';

/** Waiting to be sent: what the plan's `schedules` limit counts. */
export const isWaiting = (record: Pick<store.ScheduleRecord, 'status'>): boolean =>
  record.status === 'PENDENTE' || record.status === 'AGENDADA';

const countWaiting = (companyId: number) => async () => (await store.listSchedules(companyId)).filter(isWaiting).length;

async function findSchedule(identity: Identity, id: number): Promise<store.ScheduleRecord> {
  const record = await store.getSchedule(identity.companyId, id);
  if (!record || record.companyId !== identity.companyId) throw new NotFoundError('ERR_NOT_FOUND');
  return record;
}

async function findContact(companyId: number, contactId: number): Promise<ContactRecord> {
  const contact = await getContact(companyId, contactId);
  if (!contact || contact.companyId !== companyId) throw new NotFoundError('ERR_NO_CONTACT_FOUND');
  return contact;
}

/** The conversation it was made from: the tenant's ticket of that same contact, else refused. */
async function ticketConnection(companyId: number, ticketId: number | null | undefined, contactId: number) {
  if (!ticketId) return { ticketId: null, whatsappId: null };
  const ticket = await getTicket(companyId, ticketId);
  if (!ticket || ticket.companyId !== companyId || ticket.contactId !== contactId) throw new NotFoundError('ERR_NO_TICKET_FOUND');
  return { ticketId: ticket.id, whatsappId: ticket.whatsappId };
}

export async function listSchedulesFor(
  identity: Identity,
  query: ListSchedulesQuery,
): Promise<{ schedules: Schedule[]; hasMore: boolean }> {
  const all = selectSchedules(await store.listSchedules(identity.companyId), query);
  const start = (query.pageNumber - 1) * SCHEDULES_PAGE_SIZE;
  return {
    schedules: await presentAll(all.slice(start, start + SCHEDULES_PAGE_SIZE)),
    hasMore: all.length > start + SCHEDULES_PAGE_SIZE,
  };
}

export async function getScheduleFor(identity: Identity, id: number): Promise<Schedule> {
  const [record] = await presentAll([await findSchedule(identity, id)]);
  return record as Schedule;
}

export async function createScheduleFor(identity: Identity, input: CreateScheduleInput): Promise<Schedule> {
  const { companyId } = identity;
  const contact = await findContact(companyId, input.contactId);
  const origin = await ticketConnection(companyId, input.ticketId, contact.id);
  // A date-time without an offset is the company's clock, not the server's (issue 25).
  const sendAt = await companyInstant(companyId, input.sendAt);
  const at = new Date().toISOString();
  const record = await createWithinPlanLimit({
    companyId,
    kind: 'schedules',
    limit: identity.plan.schedules,
    code: 'ERR_PLAN_LIMIT_SCHEDULES',
    count: countWaiting(companyId),
    create: async (claim) =>
      store.createSchedule(
        {
          id: await store.newScheduleId(companyId),
          companyId,
          body: input.body,
          contactId: contact.id,
          contact: contactCopy(contact),
          ...origin,
          sendAt,
          sentAt: null,
          status: 'PENDENTE',
          error: null,
          mediaPath: '',
          mediaName: '',
          mediaType: '',
          userId: identity.userId,
          createdAt: at,
          updatedAt: at,
        },
        claim,
      ),
  });
  await publishScheduleChange(companyId, { action: 'create', id: record.id });
  return present(record, contact);
}

export async function updateScheduleFor(identity: Identity, id: number, input: UpdateScheduleInput): Promise<Schedule> {
  const { companyId } = identity;
  const before = await findSchedule(identity, id);
  const contact = await findContact(companyId, input.contactId ?? before.contactId);
  const contactChanged = contact.id !== before.contactId;
  // A new contact leaves the old conversation behind unless a ticket of the new one is given.
  const origin =
    input.ticketId !== undefined || contactChanged
      ? await ticketConnection(companyId, input.ticketId, contact.id)
      : { ticketId: before.ticketId, whatsappId: before.whatsappId };
  const sendAt = input.sendAt ? await companyInstant(companyId, input.sendAt) : before.sendAt;
  const patch = { body: input.body, contactId: contact.id, contact: contactCopy(contact), ...origin, sendAt };
  // A failed schedule edited waits to be sent again: one more for the plan's limit.
  const updated = isWaiting(before)
    ? await store.updateSchedule(companyId, id, patch, sendAt)
    : await createWithinPlanLimit({
        companyId,
        kind: 'schedules',
        limit: identity.plan.schedules,
        code: 'ERR_PLAN_LIMIT_SCHEDULES',
        count: countWaiting(companyId),
        create: (claim) => store.updateSchedule(companyId, id, patch, sendAt, claim),
      });
  await publishScheduleChange(companyId, { action: 'update', id });
  return present(updated, contact);
}

export async function deleteScheduleFor(identity: Identity, id: number): Promise<void> {
  const record = await findSchedule(identity, id);
  await store.deleteSchedule(identity.companyId, id);
  // A sent schedule's file is the sent message's media too: the message keeps it.
  if (record.status !== 'ENVIADA') await deleteMedia(record.mediaPath);
  await publishScheduleChange(identity.companyId, { action: 'delete', id });
}

const mediaPrefix = (companyId: number, id: number) => `${companyId}/schedules/${id}`;

/** Only while it may be edited (storage refuses otherwise); a refused file does not stay in the bucket. */
async function attach(identity: Identity, record: store.ScheduleRecord, attachment: Attachment): Promise<Schedule> {
  let updated: store.ScheduleRecord;
  try {
    updated = await store.updateScheduleMedia(identity.companyId, record.id, {
      mediaPath: attachment.key,
      mediaName: attachment.name,
      mediaType: attachment.contentType,
    });
  } catch (error) {
    await deleteMedia(attachment.key);
    throw error;
  }
  await deleteMedia(record.mediaPath);
  await publishScheduleChange(identity.companyId, { action: 'update', id: record.id });
  return (await presentAll([updated]))[0] as Schedule;
}

/** Multipart (SPEC 7): the file passes through the API, so it is bounded by the request limit. */
export async function uploadScheduleMedia(identity: Identity, id: number, files: UploadedFile[]): Promise<Schedule> {
  const record = await findSchedule(identity, id);
  return attach(identity, record, await storeFormAttachment(mediaPrefix(identity.companyId, id), files));
}

/** Where the browser PUTs the schedule's file itself (any size up to the media limit). */
export async function grantScheduleUpload(identity: Identity, id: number, request: UploadRequest): Promise<MediaUpload> {
  const record = await findSchedule(identity, id);
  if (!isEditable(record)) throw new ConflictError('ERR_SCHEDULE_NOT_EDITABLE');
  return grantAttachmentUpload(mediaPrefix(identity.companyId, id), request);
}

/** The file the browser uploaded with its grant becomes the schedule's media. */
export async function attachUploadedScheduleMedia(identity: Identity, id: number, key: string): Promise<Schedule> {
  const record = await findSchedule(identity, id);
  return attach(identity, record, await uploadedAttachment(mediaPrefix(identity.companyId, id), key));
}

export async function deleteScheduleMedia(identity: Identity, id: number): Promise<Schedule> {
  const record = await findSchedule(identity, id);
  const updated = await store.updateScheduleMedia(identity.companyId, id, { mediaPath: '', mediaName: '', mediaType: '' });
  await deleteMedia(record.mediaPath);
  await publishScheduleChange(identity.companyId, { action: 'update', id });
  return (await presentAll([updated]))[0] as Schedule;
}
