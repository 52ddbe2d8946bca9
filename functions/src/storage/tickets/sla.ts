/**
 * A ticket's service level (issue 22 §3, contracts/sla.ts), stored on the ticket and kept by the
 * writes that change what it measures, so its state is read with the ticket and nothing else:
 *
 *   ticket.sla   a map (SlaTimes): the queue, when the ticket entered it, each target's due and
 *                due-soon times, and the facts: firstRespondedAt, resolvedAt, and the breaches
 *                notified. Written
 *                  - whole, by a state change that puts the ticket in a queue (created in one,
 *                    transferred, reopened): a new queue, a new promise; removed when the ticket
 *                    leaves every queue (tickets/tickets.ts ticketStateUpdate, createTicket);
 *                  - sla.resolvedAt, by the state change that closes it (only that field: a first
 *                    response stored meanwhile by a message stays);
 *                  - sla.firstRespondedAt, by the first attendant message (messages/messages.ts
 *                    ticketActivity, if_not_exists: the first one wins);
 *                  - sla.<target>BreachedAt, by the breach sweep (claimSlaBreach), once.
 *
 *   due item     pk = C#<cid>#SLADUE   sk = <dueAt ISO>#<padded ticketId>#<target>   { ticketId, target, dueAt }
 *                one per target, Put in the transaction that writes the whole map. The breach sweep
 *                (domain/sweeps/sla-breach.ts) reads the tenant's items due before now, oldest first,
 *                with a key condition: never the tickets, never a scan. An item whose ticket moved on
 *                (answered, closed, entered another queue: its map no longer holds that due time) is
 *                dropped by the sweep, so nothing but the map's own write touches these items, and
 *                the hot message path writes none. A tenant's items share one partition: one or two
 *                writes per ticket entering a queue, far below a partition's limit.
 *
 * Hours: the queue's schedules when the company's scheduleType is `queue` and the queue has them,
 * the company's when it is `company` (or `queue` and the queue has none), otherwise around the clock,
 * in the company's time zone (as the out-of-hours rule, domain/chatbot/hours.ts).
 */
import { BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ScheduleEntry } from '#contracts/schedules';
import { DUE_SOON_FRACTION, type SlaTarget, type SlaTimes } from '#contracts/sla';
import { addBusinessMinutes } from '../business-time.ts';
import { getCompanyCached } from '../companies/companies.ts';
import { companyTimeZone } from '../dashboard-counters.ts';
import { db, isConditionalCheckFailed, queryUpTo, type TransactItem, table } from '../db.ts';
import { listQueuesCached } from '../queues/queues.ts';
import { listSettingsCached } from '../settings.ts';
import { pad, tenantPk } from '../table.ts';
import { ticketKey } from './tickets.ts';

/** What a due time is computed from. */
export interface SlaPolicy {
  firstResponseMinutes: number;
  resolutionMinutes: number;
  schedules: readonly ScheduleEntry[];
  timeZone: string;
}

/** What the SLA needs of a ticket (a TicketRecord fits). */
export interface SlaTicket {
  companyId: number;
  id: number;
  status: 'open' | 'pending' | 'closed';
  queueId: number | null;
  sla?: SlaTimes | null;
}

/** The SLA map a ticket entering `queueId` at `at` stores; undefined when the queue sets no target. */
export function openSla(queueId: number, at: string, policy: SlaPolicy): SlaTimes | undefined {
  if (policy.firstResponseMinutes <= 0 && policy.resolutionMinutes <= 0) return undefined;
  const start = new Date(at);
  const after = (minutes: number) => addBusinessMinutes(start, minutes, policy.schedules, policy.timeZone).toISOString();
  const sla: SlaTimes = { queueId, startedAt: at };
  if (policy.firstResponseMinutes > 0) {
    sla.firstResponseDueAt = after(policy.firstResponseMinutes);
    sla.firstResponseWarnAt = after(policy.firstResponseMinutes * (1 - DUE_SOON_FRACTION));
  }
  if (policy.resolutionMinutes > 0) {
    sla.resolutionDueAt = after(policy.resolutionMinutes);
    sla.resolutionWarnAt = after(policy.resolutionMinutes * (1 - DUE_SOON_FRACTION));
  }
  return sla;
}

/** The policy of `queueId` (read caches: queues, settings, company, each at most 5 s old); undefined when the queue sets no target. */
export async function slaPolicy(companyId: number, queueId: number): Promise<SlaPolicy | undefined> {
  const queue = (await listQueuesCached(companyId)).find((q) => q.id === queueId);
  const firstResponseMinutes = queue?.firstResponseMinutes ?? 0;
  const resolutionMinutes = queue?.resolutionMinutes ?? 0;
  if (!queue || (firstResponseMinutes <= 0 && resolutionMinutes <= 0)) return undefined;
  const [settings, timeZone] = await Promise.all([listSettingsCached(companyId), companyTimeZone(companyId)]);
  const scheduleType = settings.find((s) => s.key === 'scheduleType')?.value;
  let schedules: readonly ScheduleEntry[] = [];
  if (scheduleType === 'queue' && queue.schedules?.length) schedules = queue.schedules;
  else if (scheduleType === 'queue' || scheduleType === 'company') schedules = (await getCompanyCached(companyId))?.schedules ?? [];
  return { firstResponseMinutes, resolutionMinutes, schedules, timeZone };
}

/** How a state change moves the ticket's SLA: a new map (or none), the close's time, or nothing. */
export type SlaChange = { kind: 'replace'; sla: SlaTimes | null } | { kind: 'resolve'; at: string } | undefined;

/**
 * The SLA side of a change from `before` (undefined = created) to `next` at `at`. Entering a queue
 * (created in it, moved to it, reopened in it) starts that queue's promise; leaving every queue
 * drops it; a close records when.
 */
export async function slaChangeOf(before: SlaTicket | undefined, next: SlaTicket, at: string): Promise<SlaChange> {
  const active = next.status !== 'closed';
  const entersQueue = active && next.queueId !== null && (!before || before.status === 'closed' || before.queueId !== next.queueId);
  if (entersQueue) {
    const policy = await slaPolicy(next.companyId, next.queueId as number);
    const sla = policy ? openSla(next.queueId as number, at, policy) : undefined;
    return sla || before?.sla ? { kind: 'replace', sla: sla ?? null } : undefined;
  }
  if (active && next.queueId === null && before?.sla) return { kind: 'replace', sla: null };
  if (!active && before && before.status !== 'closed' && before.sla && !before.sla.resolvedAt) return { kind: 'resolve', at };
  return undefined;
}

/** The ticket's sla after `change`. */
export function applySlaChange(sla: SlaTimes | null | undefined, change: SlaChange): SlaTimes | null | undefined {
  if (!change) return sla;
  if (change.kind === 'replace') return change.sla;
  return sla ? { ...sla, resolvedAt: change.at } : sla;
}

const duePk = (companyId: number) => `${tenantPk(companyId)}#SLADUE`;
const dueSk = (dueAt: string, ticketId: number, target: SlaTarget) => `${dueAt}#${pad(ticketId)}#${target}`;

export const slaDueAt = (sla: SlaTimes, target: SlaTarget): string | undefined =>
  target === 'firstResponse' ? sla.firstResponseDueAt : sla.resolutionDueAt;

/** The due items of a state change from `before` to `next` (ticketStateUpdate's result): those of a new SLA map. */
export function slaMoveItems(before: SlaTicket, next: SlaTicket): TransactItem[] {
  const sla = next.sla;
  if (!sla || (before.sla && before.sla.startedAt === sla.startedAt && before.sla.queueId === sla.queueId)) return [];
  return slaDueItems(next.companyId, next.id, { kind: 'replace', sla });
}

/** The due items of a new SLA map (see the header), for the transaction that writes it. */
export function slaDueItems(companyId: number, ticketId: number, change: SlaChange): TransactItem[] {
  if (change?.kind !== 'replace' || !change.sla) return [];
  const sla = change.sla;
  return (['firstResponse', 'resolution'] as const).flatMap((target) => {
    const dueAt = slaDueAt(sla, target);
    if (!dueAt) return [];
    return [
      {
        Put: {
          TableName: table(),
          Item: { pk: duePk(companyId), sk: dueSk(dueAt, ticketId, target), entity: 'slaDue', companyId, ticketId, target, dueAt },
        },
      },
    ];
  });
}

export interface SlaDueEntry {
  ticketId: number;
  target: SlaTarget;
  dueAt: string;
  sk: string;
}

/** The tenant's due items due at or before `until`, oldest first, at most `limit`. */
export async function dueSlaEntries(companyId: number, until: string, limit = 500): Promise<SlaDueEntry[]> {
  const items = await queryUpTo(
    {
      KeyConditionExpression: 'pk = :pk AND sk < :to',
      // `<until>#...` < `<until>$`: every item due at or before `until`.
      ExpressionAttributeValues: { ':pk': duePk(companyId), ':to': `${until}$` },
      ScanIndexForward: true,
      ConsistentRead: true,
    },
    limit,
    100,
  );
  return items.map((item) => ({
    ticketId: Number(item.ticketId),
    target: item.target as SlaTarget,
    dueAt: String(item.dueAt),
    sk: String(item.sk),
  }));
}

/** Drops handled due items (25 a request). */
export async function deleteSlaDueEntries(companyId: number, entries: SlaDueEntry[]): Promise<void> {
  for (let i = 0; i < entries.length; i += 25) {
    let requests: Record<string, unknown>[] = entries
      .slice(i, i + 25)
      .map((entry) => ({ DeleteRequest: { Key: { pk: duePk(companyId), sk: entry.sk } } }));
    for (let attempt = 0; requests.length && attempt < 8; attempt++) {
      const out = await db().send(new BatchWriteCommand({ RequestItems: { [table()]: requests } }));
      requests = (out.UnprocessedItems?.[table()] ?? []) as Record<string, unknown>[];
    }
  }
}

/**
 * Records that `target`'s breach was notified, only if the ticket still waits on that very due time
 * (same map: same due; unanswered for a first response; not closed) and nobody recorded it before.
 * True for the one caller that wrote it: that caller notifies, once.
 */
export async function claimSlaBreach(companyId: number, ticketId: number, target: SlaTarget, dueAt: string, at: string): Promise<boolean> {
  const conditions = [
    '#status <> :closed',
    '#sla.#due = :due',
    'attribute_not_exists(#sla.#breached)',
    'attribute_not_exists(#sla.#resolved)',
  ];
  if (target === 'firstResponse') conditions.push('attribute_not_exists(#sla.#responded)');
  try {
    await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: ticketKey(companyId, ticketId),
        UpdateExpression: 'SET #sla.#breached = :at',
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeNames: {
          '#status': 'status',
          '#sla': 'sla',
          '#due': `${target}DueAt`,
          '#breached': `${target}BreachedAt`,
          '#resolved': 'resolvedAt',
          ...(target === 'firstResponse' ? { '#responded': 'firstRespondedAt' } : {}),
        },
        ExpressionAttributeValues: { ':closed': 'closed', ':due': dueAt, ':at': at },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}
