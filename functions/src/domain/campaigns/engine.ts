/**
 * The campaign shipping engine (BEHAVIOUR "Campaigns"): SQS-paced, exactly once per contact.
 *
 * Each connection has one chain of tick messages (storage/campaigns/shipping.ts "pace"); a tick ships
 * the next contacts of one of the connection's running campaigns (round robin, so two campaigns on
 * one connection share its pace and two connections run side by side), then queues the next tick
 * delayed by the pace (`messageInterval`, and `greaterInterval` after every `longerIntervalAfter`
 * sends). Nothing sleeps: a wait is a DelaySeconds.
 *
 * Exactly once: a tick acts only if it carries its connection's current seq, and its work commits in
 * one transaction (shipping records, the list cursor, the next seq, a check that the campaign still
 * runs) BEFORE any send. The sends then go to the session-host with our message id fixed per
 * (campaign, item, part) (compose.ts), which the host sends once whatever the redeliveries. A tick
 * that dies after its commit is redelivered (SQS visibility timeout) and, finding its commit done
 * (`lastBatch`), sends that batch again (the host re-reports what it sent) and queues the next tick.
 * A duplicate tick finds the seq moved on and does nothing.
 *
 * Cancel moves the campaign out of EM_ANDAMENTO: the next commit's check fails, so nothing not yet
 * committed goes out; restart walks the audience again and ships whom no record marks delivered.
 * The audience is the contact list's items and/or the tag's contacts (audience.ts).
 */
import { logger } from '#commons/logger';
import { type CampaignStatus, defaultCampaignSettings } from '#contracts/campaigns';
import type { SessionCommand } from '#contracts/session-events';
import { defaultEffects, type Effects } from '#domain/messages/effects';
import { type CampaignRecord, getCampaign, transitionCampaign } from '#storage/campaigns/campaigns';
import { dropFromPace, getPace, joinPace, leavePace, sleepPace } from '#storage/campaigns/pace';
import { beginRun, getRun } from '#storage/campaigns/runs';
import { getCampaignSettings } from '#storage/campaigns/settings';
import type { PaceRecord, RunRecord, ShipRecord } from '#storage/campaigns/shipping';
import { commitTick, getShipRecords } from '#storage/campaigns/ships';
import { type FileListFile, getFileList } from '#storage/file-lists';
import { countAudience, walkAudience } from './audience.ts';
import { type ClockSender, sendClockMessage } from './clock.ts';
import { delayToward, fillPlaceholders, nextPace, pickMessages, type ShipPart, shipMessageId, tickBatchSize } from './compose.ts';
import { publishProgress } from './progress.ts';

export interface EngineDeps {
  effects: Effects;
  clock: ClockSender;
  random: () => number;
}

export const defaultEngineDeps: EngineDeps = { effects: defaultEffects, clock: sendClockMessage, random: Math.random };

/** Attempts of one tick when its commit loses a race (a start joining, a result landing): then it re-reads. */
const TICK_ATTEMPTS = 3;
/** A tick later than this past its target does not try to catch up: the next gap counts from now. */
const CATCH_UP_MS = 1500;

/**
 * Starts (or restarts) a campaign that is in one of `from`: EM_ANDAMENTO, a new run over its list,
 * and its connection's chain woken. Undefined when it was not in `from` (another start won, say).
 */
export async function startCampaign(
  companyId: number,
  campaignId: number,
  from: readonly CampaignStatus[],
  deps: EngineDeps = defaultEngineDeps,
): Promise<CampaignRecord | undefined> {
  const moved = await transitionCampaign(companyId, campaignId, from, 'EM_ANDAMENTO', { completedAt: null });
  if (!moved) return undefined;
  const counts = await countAudience(moved);
  await beginRun(companyId, campaignId, counts);
  if (moved.whatsappId) {
    const seq = await joinPace(companyId, moved.whatsappId, campaignId, deps.effects.now().getTime());
    if (seq !== undefined) await deps.clock({ kind: 'tick', companyId, connectionId: moved.whatsappId, seq }, 0);
  }
  await publishProgress(deps.effects, moved);
  return moved;
}

/** EM_ANDAMENTO -> CANCELADA, and off its connection's chain: nothing it has not committed goes out. */
export async function cancelCampaign(companyId: number, campaignId: number, deps: EngineDeps = defaultEngineDeps) {
  const moved = await transitionCampaign(companyId, campaignId, ['EM_ANDAMENTO'], 'CANCELADA');
  if (!moved) return undefined;
  if (moved.whatsappId) await dropFromPace(companyId, moved.whatsappId, campaignId);
  await publishProgress(deps.effects, moved);
  return moved;
}

/** FINALIZADA once the list is walked and every contact shipped has its result. */
export async function finishIfComplete(companyId: number, campaignId: number, effects: Effects): Promise<void> {
  const run = await getRun(companyId, campaignId);
  if (!run?.done || run.delivered + run.failed < run.queued) return;
  const finished = await transitionCampaign(companyId, campaignId, ['EM_ANDAMENTO'], 'FINALIZADA', {
    completedAt: effects.now().toISOString(),
  });
  if (finished) await publishProgress(effects, finished, run);
}

/** A scheduled start, delivered at (or a second around) its time. */
export async function runScheduledStart(
  message: { companyId: number; campaignId: number; scheduledAt: string },
  deps: EngineDeps = defaultEngineDeps,
): Promise<'started' | 'early' | 'stale'> {
  const campaign = await getCampaign(message.companyId, message.campaignId);
  if (campaign?.status !== 'PROGRAMADA' || campaign.scheduledAt !== message.scheduledAt) return 'stale';
  const wait = Date.parse(message.scheduledAt) - deps.effects.now().getTime();
  // Never earlier than its time: a delay rounded down comes back for the rest.
  if (wait > 0) {
    await deps.clock({ kind: 'start', ...message }, Math.ceil(wait / 1000));
    return 'early';
  }
  return (await startCampaign(message.companyId, message.campaignId, ['PROGRAMADA'], deps)) ? 'started' : 'stale';
}

export type TickOutcome = 'shipped' | 'finished' | 'left' | 'idle' | 'stale';

/** One tick of a connection's chain (see the module comment). `redelivered`: SQS gave it before. */
export async function runTick(
  tick: { companyId: number; connectionId: number; seq: number; recover?: true },
  redelivered: boolean,
  deps: EngineDeps = defaultEngineDeps,
): Promise<TickOutcome> {
  const { companyId, connectionId, seq } = tick;
  for (let attempt = 0; attempt < TICK_ATTEMPTS; attempt++) {
    const pace = await getPace(companyId, connectionId);
    if (!pace) return 'stale';
    // A chain revived after its tick was lost: the tick before may have died between its commit and
    // its sends (then gone to the DLQ), so its batch goes again; the host sends each id once.
    if (tick.recover && attempt === 0 && pace.seq === seq && pace.lastBatch?.seq === seq - 1)
      await resendBatch(companyId, connectionId, pace.lastBatch, deps);
    if (pace.seq !== seq) {
      if (redelivered && pace.seq === seq + 1 && pace.lastBatch?.seq === seq) {
        await resendBatch(companyId, connectionId, pace.lastBatch, deps);
        await queueTick(tick, pace.seq, pace.targetAt, deps);
        return 'finished';
      }
      return 'stale';
    }
    if (!pace.campaigns.length) {
      if (await sleepPace(companyId, connectionId, seq)) return 'idle';
      continue;
    }
    const campaignId = pace.campaigns[pace.turn % pace.campaigns.length] as number;
    const campaign = await getCampaign(companyId, campaignId);
    const run =
      campaign?.status === 'EM_ANDAMENTO' && campaign.whatsappId === connectionId ? await getRun(companyId, campaignId) : undefined;
    if (!campaign || !run) {
      if (!(await leavePace(companyId, connectionId, campaignId, seq))) continue;
      await queueTick(tick, seq + 1, deps.effects.now().getTime(), deps);
      return 'left';
    }
    const shipped = await shipNext(tick, pace, campaign, run, deps);
    if (shipped) return 'shipped';
  }
  // Lost every race: SQS gives the tick again after its visibility timeout.
  throw new Error(`campaign tick ${companyId}:${connectionId}#${seq} lost ${TICK_ATTEMPTS} races`);
}

async function paceOf(companyId: number) {
  return { ...defaultCampaignSettings, ...(await getCampaignSettings(companyId)) };
}

/** Ships the campaign's next contacts as tick `seq`; false when the commit lost a race. */
async function shipNext(
  tick: { companyId: number; connectionId: number; seq: number },
  pace: PaceRecord,
  campaign: CampaignRecord,
  run: RunRecord,
  deps: EngineDeps,
): Promise<boolean> {
  const { companyId, connectionId, seq } = tick;
  const settings = await paceOf(companyId);
  const limit = tickBatchSize(settings, pace.sinceLong);
  const walk = await walkAudience(campaign, run.cursor, limit);
  // Invalid numbers are counted apart at the start and never sent.
  const valid = walk.recipients.filter((item) => item.valid);
  const existing = await getShipRecords(
    companyId,
    campaign.id,
    valid.map((item) => item.id),
  );
  const now = deps.effects.now();
  const ships: { record: ShipRecord; fresh: boolean }[] = [];
  for (const item of valid) {
    const before = existing.get(item.id);
    if (before?.deliveredAt) continue;
    // Already shipped in this run: a tag's contact met again through another of their tickets.
    if (before && before.run === run.run) continue;
    const recipient = { name: item.name, number: item.number, email: item.email };
    const texts = before
      ? { message: before.message, confirmation: before.confirmation }
      : chooseTexts(campaign, recipient, settings.variables, deps);
    if (!texts) continue;
    const { failedAt: _failedAt, error: _error, ...kept } = before ?? ({} as Partial<ShipRecord>);
    ships.push({
      record: { ...kept, campaignId: campaign.id, itemId: item.id, ...recipient, ...texts, run: run.run, queuedAt: now.toISOString() },
      fresh: !before,
    });
  }
  const nowMs = now.getTime();
  const next = nextPace(settings, pace.sinceLong, ships.length);
  const base = nowMs - pace.targetAt < CATCH_UP_MS ? Math.max(pace.targetAt, nowMs - CATCH_UP_MS) : nowMs;
  const targetAt = ships.length ? base + next.waitSeconds * 1000 : nowMs;
  const done = !walk.more;
  const committed = await commitTick({
    companyId,
    connectionId,
    campaignId: campaign.id,
    seq,
    run: run.run,
    fromCursor: run.cursor,
    cursor: walk.cursor,
    done,
    ships,
    confirms: campaign.confirmation
      ? ships
          .filter((s) => s.record.confirmation && !s.record.confirmedAt)
          .map((s) => ({ number: s.record.number, itemId: s.record.itemId }))
      : [],
    pace: { turn: pace.turn + 1, sinceLong: next.sinceLongPause, targetAt },
  });
  if (!committed) return false;
  await sendShips(
    campaign,
    connectionId,
    ships.map((s) => s.record),
    deps,
  );
  await queueTick(tick, seq + 1, targetAt, deps);
  if (done) await finishIfComplete(companyId, campaign.id, deps.effects);
  return true;
}

function chooseTexts(
  campaign: CampaignRecord,
  recipient: { name: string; number: string; email: string },
  variables: { key: string; value: string }[],
  deps: EngineDeps,
): { message: string; confirmation?: string } | undefined {
  const picked = pickMessages(campaign, deps.random);
  if (!picked) return undefined;
  const message = fillPlaceholders(picked.message, recipient, variables);
  return picked.confirmation ? { message, confirmation: fillPlaceholders(picked.confirmation, recipient, variables) } : { message };
}

async function queueTick(tick: { companyId: number; connectionId: number }, seq: number, targetAt: number, deps: EngineDeps) {
  const delay = delayToward(targetAt, deps.effects.now().getTime());
  await deps.clock({ kind: 'tick', companyId: tick.companyId, connectionId: tick.connectionId, seq }, delay);
}

/** A batch whose commit landed but whose sends may not have gone: sent again (the host sends each id once). */
async function resendBatch(companyId: number, connectionId: number, batch: NonNullable<PaceRecord['lastBatch']>, deps: EngineDeps) {
  if (!batch.itemIds.length) return;
  const campaign = await getCampaign(companyId, batch.campaignId);
  if (campaign?.status !== 'EM_ANDAMENTO') return;
  const records = await getShipRecords(companyId, batch.campaignId, batch.itemIds);
  const pending = [...records.values()].filter((record) => !record.deliveredAt);
  if (!pending.length) return;
  logger.warn('campaign tick redelivered after its commit: sending its batch again', { companyId, connectionId, count: pending.length });
  await sendShips(campaign, connectionId, pending, deps);
}

/**
 * The sends of shipped contacts: with confirmation on and not yet confirmed, the confirmation
 * request only (the reply triggers the rest, results.ts); otherwise the message, then the file
 * list's files, then the campaign's media. One FIFO group per connection keeps that order.
 */
export async function sendShips(campaign: CampaignRecord, connectionId: number, records: ShipRecord[], deps: EngineDeps) {
  const files = campaign.fileListId && records.length ? await campaignFiles(campaign) : [];
  // Contacts side by side (their order does not matter); one contact's parts in order.
  await Promise.all(
    records.map(async (record) => {
      const parts = campaign.confirmation && record.confirmation && !record.confirmedAt ? (['c'] as const) : messageParts(campaign, files);
      for (const part of parts) await deps.effects.sendCommand(sendCommandOf(campaign, connectionId, record, part, files));
    }),
  );
}

export function messageParts(campaign: CampaignRecord, files: FileListFile[]): ShipPart[] {
  return ['m', ...files.map((_, index) => `f${index}` as ShipPart), ...(campaign.mediaPath ? (['a'] as const) : [])];
}

/** The file list's files that have an upload (file-lists.ts); none when the list is gone. */
async function campaignFiles(campaign: CampaignRecord): Promise<FileListFile[]> {
  if (!campaign.fileListId) return [];
  return (await getFileList(campaign.companyId, campaign.fileListId))?.files ?? [];
}

export function sendCommandOf(
  campaign: CampaignRecord,
  connectionId: number,
  record: ShipRecord,
  part: ShipPart,
  files: FileListFile[],
): SessionCommand {
  const messageId = shipMessageId(campaign.id, record.itemId, part);
  const base = {
    kind: 'send' as const,
    companyId: campaign.companyId,
    connectionId,
    commandId: messageId,
    messageId,
    campaignId: campaign.id,
    number: record.number,
    isGroup: false,
  };
  if (part === 'c') return { ...base, body: record.confirmation ?? '' };
  if (part === 'm') return { ...base, body: record.message };
  if (part === 'a')
    return {
      ...base,
      body: '',
      media: {
        key: campaign.mediaPath,
        mimetype: campaign.mediaType || 'application/octet-stream',
        filename: campaign.mediaName || undefined,
      },
    };
  const file = files[Number(part.slice(1))] as FileListFile;
  return { ...base, body: '', media: { key: file.key, mimetype: file.mimetype || 'application/octet-stream', filename: file.name } };
}
