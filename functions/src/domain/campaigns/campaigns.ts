/**
 * Campaigns (SPEC 2 "Campaigns", 3 "Campaign", 4 "Campaign", 7): every user of the company sees and
 * edits the company's campaigns; the route table asks for the plan's useCampaigns and the plan's
 * `campaigns` limit caps how many the company keeps (0 = no limit).
 *
 * Status (SPEC 4): a new campaign is INATIVA, or PROGRAMADA when it has a scheduledAt; the shipping
 * engine moves it to EM_ANDAMENTO, FINALIZADA or CANCELADA. A person changes it only while it is
 * INATIVA, or PROGRAMADA more than an hour before its start (409 ERR_CAMPAIGN_NOT_EDITABLE), and
 * deletes it unless it is shipping. To be PROGRAMADA it must be able to run: a connection, an
 * audience (contact list, tag or both: audience.ts; 400 ERR_CAMPAIGN_NO_AUDIENCE without) and
 * something to say; the time must be ahead.
 *
 * Every id it names is looked up in the caller's tenant (404 naming the field otherwise), the file
 * list's too (storage/file-lists.ts). Every change is published on
 * `company-{id}-campaign` with the record (a delete with the id).
 */
import { AppError, ConflictError, NotFoundError, ValidationError } from '#commons/errors';
import {
  CAMPAIGNS_PAGE_SIZE,
  type Campaign,
  type CampaignsPage,
  type CreateCampaignInput,
  campaignConfirmationFields,
  campaignMessageFields,
  isCampaignEditable,
  type ListCampaignsQuery,
  NO_TAG_LIST,
  type UpdateCampaignInput,
} from '#contracts/campaigns';
import { channels, type RecordEvent } from '#contracts/channels';
import type { ErrorCode } from '#contracts/errors';
import type { Identity } from '#domain/identity';
import { mediaRoute } from '#domain/media/keys';
import { createWithinPlanLimit } from '#domain/plans/limits';
import { publishToCompany } from '#realtime/publisher';
import * as store from '#storage/campaigns/campaigns';
import { getRun, getRuns } from '#storage/campaigns/runs';
import type { RunCounters } from '#storage/campaigns/shipping';
import { getConnection, listConnections } from '#storage/connections';
import { foldSearch } from '#storage/contact-lists/items';
import { type ContactListRecord, getContactList, listContactLists } from '#storage/contact-lists/lists';
import { getFileList } from '#storage/file-lists';
import { getTag } from '#storage/tags';
import { hasAudience } from './audience.ts';
import { afterSave } from './lifecycle.ts';
import { progressOf } from './progress.ts';

type Names = { lists: Map<number, ContactListRecord>; connections: Map<number, { id: number; name: string }> };

const publish = (companyId: number, event: RecordEvent<Campaign>) => publishToCompany(companyId, channels.campaign(companyId), event);

export function presentCampaign(record: store.CampaignRecord, names: Names, now = new Date(), run?: Partial<RunCounters>): Campaign {
  const list = record.contactListId ? names.lists.get(record.contactListId) : undefined;
  const connection = record.whatsappId ? names.connections.get(record.whatsappId) : undefined;
  const { revision: _revision, userId: _userId, mediaPath, mediaName, mediaType: _mediaType, ...fields } = record;
  return {
    ...fields,
    progress: progressOf(run),
    mediaPath: mediaPath ? mediaRoute(mediaPath) : null,
    mediaName: mediaName || null,
    contactList: list ? { id: list.id, name: list.name, contactsCount: Math.max(0, list.contactsCount ?? 0) } : null,
    whatsapp: connection ? { id: connection.id, name: connection.name } : null,
    editable: isCampaignEditable(record, now),
  };
}

/** The list and connection names of a page: one Query each, whatever the page size. */
async function namesOfTenant(companyId: number): Promise<Names> {
  const [lists, connections] = await Promise.all([listContactLists(companyId), listConnections(companyId)]);
  return { lists: new Map(lists.map((l) => [l.id, l])), connections: new Map(connections.map((c) => [c.id, c])) };
}

async function namesOf(record: store.CampaignRecord): Promise<Names> {
  const [list, connection] = await Promise.all([
    record.contactListId ? getContactList(record.companyId, record.contactListId) : undefined,
    record.whatsappId ? getConnection(record.companyId, record.whatsappId) : undefined,
  ]);
  return { lists: new Map(list ? [[list.id, list]] : []), connections: new Map(connection ? [[connection.id, connection]] : []) };
}

async function findCampaign(companyId: number, id: number): Promise<store.CampaignRecord> {
  const record = await store.getCampaign(companyId, id);
  if (!record || record.companyId !== companyId) throw new NotFoundError('ERR_NOT_FOUND');
  return record;
}

const notFound = (field: string, code: ErrorCode = 'ERR_NOT_FOUND') => new AppError(code, 404, { field });

/** Each id the campaign names must be the caller's tenant's. */
async function checkReferences(companyId: number, fields: CampaignFields, changed: Partial<CampaignFields>): Promise<void> {
  if (changed.contactListId && fields.contactListId && !(await getContactList(companyId, fields.contactListId)))
    throw notFound('contactListId');
  if (changed.whatsappId && fields.whatsappId && !(await getConnection(companyId, fields.whatsappId)))
    throw notFound('whatsappId', 'ERR_NO_WAPP_FOUND');
  if (changed.tagListId && typeof fields.tagListId === 'number' && !(await getTag(companyId, fields.tagListId)))
    throw notFound('tagListId');
  if (changed.fileListId && fields.fileListId && !(await getFileList(companyId, fields.fileListId))) throw notFound('fileListId');
}

const SCHEDULE_NEEDS = 'Required to schedule';

/** A scheduled campaign must be able to run when its time comes, and that time must be ahead. */
function checkSchedulable(fields: CampaignFields, scheduleChanged: boolean, now: Date): void {
  if (!fields.scheduledAt) return;
  if (scheduleChanged && Date.parse(fields.scheduledAt) <= now.getTime()) throw new ValidationError('scheduledAt', 'Must be in the future');
  checkRunnable(fields);
}

/** What a campaign needs to run: a connection, an audience, something to say. */
export function checkRunnable(fields: CampaignFields): void {
  if (!fields.whatsappId) throw new ValidationError('whatsappId', SCHEDULE_NEEDS);
  // Without one it would run and finish FINALIZADA having sent nothing.
  if (!hasAudience(fields))
    throw new ValidationError('contactListId', 'A contact list or a tag is required to start', 'ERR_CAMPAIGN_NO_AUDIENCE');
  if (!campaignMessageFields.some((field) => fields[field])) throw new ValidationError('message1', SCHEDULE_NEEDS);
  if (fields.confirmation && !campaignConfirmationFields.some((field) => fields[field]))
    throw new ValidationError('confirmationMessage1', SCHEDULE_NEEDS);
}

type CampaignFields = Omit<store.CampaignPatch, 'status' | 'completedAt' | 'mediaPath' | 'mediaName'> &
  Pick<store.CampaignRecord, 'scheduledAt' | 'whatsappId' | 'contactListId' | 'tagListId' | 'fileListId' | 'confirmation'>;

const emptyFields = () => ({
  confirmation: false,
  scheduledAt: null,
  whatsappId: null,
  contactListId: null,
  tagListId: NO_TAG_LIST as typeof NO_TAG_LIST,
  fileListId: null,
  ...Object.fromEntries([...campaignMessageFields, ...campaignConfirmationFields].map((field) => [field, null])),
});

const definedOnly = <T extends object>(input: T): Partial<T> =>
  Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as Partial<T>;

export async function listCampaignsFor(identity: Identity, query: ListCampaignsQuery): Promise<CampaignsPage> {
  const needle = foldSearch(query.searchParam);
  const all = (await store.listCampaigns(identity.companyId))
    .filter((record) => !needle || foldSearch(record.name).includes(needle))
    .sort((a, b) => b.id - a.id);
  const start = (query.pageNumber - 1) * CAMPAIGNS_PAGE_SIZE;
  const page = all.slice(start, start + CAMPAIGNS_PAGE_SIZE);
  const [names, runs] = page.length
    ? await Promise.all([
        namesOfTenant(identity.companyId),
        getRuns(
          identity.companyId,
          page.map((record) => record.id),
        ),
      ])
    : [{ lists: new Map(), connections: new Map() }, new Map()];
  return {
    records: page.map((record) => presentCampaign(record, names, new Date(), runs.get(record.id))),
    hasMore: all.length > start + CAMPAIGNS_PAGE_SIZE,
  };
}

export async function getCampaignFor(identity: Identity, id: number): Promise<Campaign> {
  const record = await findCampaign(identity.companyId, id);
  const [names, run] = await Promise.all([namesOf(record), getRun(identity.companyId, id)]);
  return presentCampaign(record, names, new Date(), run);
}

export async function createCampaignFor(identity: Identity, input: CreateCampaignInput, now = new Date()): Promise<Campaign> {
  const { companyId } = identity;
  const { status: startNow, ...given } = definedOnly(input);
  const fields = { ...emptyFields(), ...given } as CampaignFields & { name: string };
  await checkReferences(companyId, fields, given);
  checkSchedulable(fields, true, now);
  if (startNow && !fields.scheduledAt) checkRunnable(fields);
  const at = now.toISOString();
  const record = await createWithinPlanLimit({
    companyId,
    kind: 'campaigns',
    limit: identity.plan.campaigns,
    code: 'ERR_PLAN_LIMIT_CAMPAIGNS',
    count: async () => (await store.listCampaigns(companyId)).length,
    create: async (claim) =>
      store.createCampaign(
        {
          ...(fields as Omit<store.CampaignRecord, 'id'>),
          id: await store.newCampaignId(companyId),
          companyId,
          status: fields.scheduledAt ? 'PROGRAMADA' : 'INATIVA',
          completedAt: null,
          mediaPath: '',
          mediaName: '',
          userId: identity.userId,
          revision: 0,
          createdAt: at,
          updatedAt: at,
        },
        claim,
      ),
  });
  const campaign = presentCampaign(record, await namesOf(record), now);
  await publish(companyId, { action: 'create', record: campaign });
  return (await afterSave(record, Boolean(startNow), now)) ? getCampaignFor(identity, record.id) : campaign;
}

export async function updateCampaignFor(identity: Identity, id: number, input: UpdateCampaignInput, now = new Date()): Promise<Campaign> {
  const { companyId } = identity;
  const before = await findCampaign(companyId, id);
  if (!isCampaignEditable(before, now)) throw new ConflictError('ERR_CAMPAIGN_NOT_EDITABLE', { status: before.status });
  const { status: startNow, ...given } = definedOnly(input);
  const fields = { ...before, ...given } as store.CampaignRecord;
  await checkReferences(companyId, fields, given);
  checkSchedulable(fields, given.scheduledAt !== undefined, now);
  if (startNow && !fields.scheduledAt) checkRunnable(fields);
  // Storage refuses the write if the engine (or another edit) changed the campaign since it was read.
  const updated = await store.updateCampaign(companyId, id, before.revision, {
    ...given,
    // The due index is keyed by the time: it goes with every status write (storage/campaigns/campaigns.ts).
    scheduledAt: fields.scheduledAt,
    status: fields.scheduledAt ? 'PROGRAMADA' : 'INATIVA',
  });
  const campaign = presentCampaign(updated, await namesOf(updated), now);
  await publish(companyId, { action: 'update', record: campaign });
  return (await afterSave(updated, Boolean(startNow), now)) ? getCampaignFor(identity, id) : campaign;
}

export async function deleteCampaignFor(identity: Identity, id: number): Promise<void> {
  const { companyId } = identity;
  const record = await findCampaign(companyId, id);
  // A shipping campaign is cancelled first (POST /campaigns/{id}/cancel), never pulled from under the engine.
  if (record.status === 'EM_ANDAMENTO') throw new ConflictError('ERR_CAMPAIGN_NOT_EDITABLE', { status: record.status });
  await store.deleteCampaign(companyId, id, record.revision);
  await publish(companyId, { action: 'delete', id });
}
