/**
 * The sender of scheduled messages (BEHAVIOUR "Scheduled messages"), run every minute
 * (schedules.ts `schedule-sends`). It reads the due index (storage/schedules.ts) up to a little
 * ahead of now, claims each schedule (AGENDADA), waits for its send time when it is a few seconds
 * ahead, and sends it like any reply: the contact's ticket on the connection (found or created as
 * the external API does), the message stored on it first and then handed to the session-host
 * (domain/messages/send.ts). Then ENVIADA with sentAt, or ERRO with the reason.
 *
 * Timing: a run reads LOOKAHEAD_MS ahead, so a send time between two runs is met by the earlier one
 * waiting, not by the later one up to a minute late. A send time that passed while the system was
 * down is still in the due index when it comes back (nothing expires there) and goes out then.
 *
 * Exactly once: only the run whose conditional claim wins sends; the message id is fixed by the
 * first claim, so a run that died after storing the message is followed by one that finds it
 * stored (the outbound path stores an id once and the host sends a command id once).
 *
 * The connection: the ticket's it was scheduled from, else the contact's latest ticket's, else the
 * company's default. No connection at all is ERRO at once (ERR_NO_DEF_WAPP_FOUND); one that is not
 * CONNECTED yet (a session-host restarting with the rest of the system) is tried again every minute
 * for CONNECTION_WAIT_MS before ERRO (ERR_WAPP_NOT_INITIALIZED).
 */
import { logger } from '#commons/logger';
import { channels } from '#contracts/channels';
import type { ErrorCode } from '#contracts/errors';
import { isExpired } from '#domain/auth/due-date-policy';
import { defaultEffects, type Effects } from '#domain/messages/effects';
import { messageIdAt } from '#domain/messages/message-id';
import { queueOutgoingMessage } from '#domain/messages/send';
import { getCompanySetting } from '#domain/settings/settings';
import { findOrCreateTicket } from '#domain/tickets/find-or-create';
import { publishTicketLost } from '#domain/tickets/notify';
import { mapWithConcurrency } from '#realtime/concurrency';
import { getCompany } from '#storage/companies/companies';
import { type ConnectionRecord, getConnection, getDefaultConnection } from '#storage/connections';
import { getContact } from '#storage/contacts/contacts';
import { getPlan } from '#storage/plans/plans';
import * as store from '#storage/schedules';
import { listContactTickets } from '#storage/tickets/lists';
import type { TicketRecord } from '#storage/tickets/record';
import { getTicket, isActive } from '#storage/tickets/tickets';

/** How far ahead a run reads: under the minute between runs and the job's 55 s timeout. */
export const LOOKAHEAD_MS = 40_000;
/** A claim's lease past the send time: a run that died is followed once it ends. */
export const LEASE_MS = 2 * 60_000;
/** How long a not-yet-connected connection is waited for before ERRO. */
export const CONNECTION_WAIT_MS = 10 * 60_000;
export const RETRY_MS = 60_000;
const PAGE = 50;
const CONCURRENCY = 8;

export interface SenderDeps {
  effects: Effects;
  sleep: (ms: number) => Promise<void>;
}

export const defaultSenderDeps: SenderDeps = {
  effects: defaultEffects,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export type SendOutcome = 'sent' | 'failed' | 'deferred' | 'skipped';

export interface SendReport {
  read: number;
  sent: number;
  failed: number;
  deferred: number;
  /** Taken by another run, changed or deleted meanwhile. */
  skipped: number;
  /** Schedules whose send threw; their claim ends and the next run retries. */
  errors: number;
}

/** What the sender decides for a claimed schedule before sending (pure: unit-tested). */
export type ConnectionDecision =
  | { kind: 'send'; connection: ConnectionRecord }
  | { kind: 'fail'; error: ErrorCode }
  | { kind: 'wait'; waitingSince: string; retryAt: string };

export function decideConnection(
  connection: ConnectionRecord | undefined,
  record: Pick<store.ScheduleRecord, 'waitingSince'>,
  now: Date,
): ConnectionDecision {
  if (!connection) return { kind: 'fail', error: 'ERR_NO_DEF_WAPP_FOUND' };
  if (connection.status === 'CONNECTED') return { kind: 'send', connection };
  const since = record.waitingSince ?? now.toISOString();
  if (now.getTime() - Date.parse(since) >= CONNECTION_WAIT_MS) return { kind: 'fail', error: 'ERR_WAPP_NOT_INITIALIZED' };
  return { kind: 'wait', waitingSince: since, retryAt: new Date(now.getTime() + RETRY_MS).toISOString() };
}

/** The claim's lease ends LEASE_MS after the send time (or now, for a late one). */
export const leaseEnd = (sendAt: string, now: Date): string =>
  new Date(Math.max(Date.parse(sendAt), now.getTime()) + LEASE_MS).toISOString();

/** The ticket's connection, else the contact's latest ticket's, else the default one. */
async function connectionFor(record: store.ScheduleRecord): Promise<{ connection?: ConnectionRecord; ticket?: TicketRecord }> {
  const { companyId } = record;
  const ticket = record.ticketId ? await getTicket(companyId, record.ticketId) : undefined;
  const candidates = [ticket?.whatsappId, record.whatsappId];
  if (!ticket && !record.whatsappId) candidates.push((await listContactTickets(companyId, record.contactId, 1))[0]?.whatsappId);
  for (const id of candidates) {
    const connection = id ? await getConnection(companyId, id) : undefined;
    if (connection) return { connection, ticket };
  }
  return { connection: await getDefaultConnection(companyId), ticket };
}

/** Why the company may not send now, or undefined. */
async function companyRefusal(companyId: number): Promise<ErrorCode | 'gone' | undefined> {
  const company = await getCompany(companyId);
  if (!company) return 'gone';
  if (company.status === false) return 'ERR_COMPANY_INACTIVE';
  if (company.dueDate && isExpired(company.dueDate)) return 'ERR_COMPANY_EXPIRED';
  const plan = await getPlan(company.planId);
  if (!plan?.useSchedules) return 'ERR_PLAN_FEATURE_DISABLED';
  return undefined;
}

async function publishUpdate(effects: Effects, companyId: number, id: number): Promise<void> {
  await effects.publish(companyId, channels.schedule(companyId), { action: 'update', id }, { kind: 'company' });
}

async function fail(effects: Effects, record: store.ScheduleRecord, messageId: string, error: string): Promise<SendOutcome> {
  const settled = await store.settleSchedule(record, messageId, { status: 'ERRO', error });
  if (!settled) return 'skipped';
  await publishUpdate(effects, record.companyId, record.id);
  return 'failed';
}

/** Claims one due schedule and, if this run wins it, sends it at its time. */
export async function sendDueSchedule(due: store.DueSchedule, deps: SenderDeps = defaultSenderDeps): Promise<SendOutcome> {
  const { effects } = deps;
  const now = effects.now();
  const sendAtMs = Math.max(Date.parse(due.record.sendAt), now.getTime());
  const claimed = await store.claimSchedule(due, leaseEnd(due.record.sendAt, now), messageIdAt(sendAtMs));
  if (!claimed?.messageId) return 'skipped';
  const messageId = claimed.messageId;
  await publishUpdate(effects, claimed.companyId, claimed.id);

  const wait = sendAtMs - effects.now().getTime();
  if (wait > 0) await deps.sleep(wait);
  // Deleted while this run waited for the send time: nothing to send.
  const record = await store.getSchedule(claimed.companyId, claimed.id);
  if (!record || record.messageId !== messageId) return 'skipped';

  const refusal = await companyRefusal(record.companyId);
  if (refusal === 'gone') return 'skipped';
  if (refusal) return fail(effects, record, messageId, refusal);
  const contact = await getContact(record.companyId, record.contactId);
  if (!contact) return fail(effects, record, messageId, 'ERR_NO_CONTACT_FOUND');

  const at = effects.now();
  const { connection, ticket: origin } = await connectionFor(record);
  const decision = decideConnection(connection, record, at);
  if (decision.kind === 'fail') return fail(effects, record, messageId, decision.error);
  if (decision.kind === 'wait') {
    const deferred = await store.deferSchedule(record, messageId, decision.retryAt, decision.waitingSince);
    return deferred ? 'deferred' : 'skipped';
  }

  const connectionId = decision.connection.id;
  const reuse = origin && isActive(origin.status) && origin.whatsappId === connectionId && origin.contactId === contact.id;
  const { ticket, previous } = reuse
    ? { ticket: origin, previous: undefined }
    : await findOrCreateTicket({
        companyId: record.companyId,
        connectionId,
        contact,
        reopenWithinHours: Number(await getCompanySetting(record.companyId, 'timeCreateNewTicket')) || 0,
        now: at,
      });
  // Before the send exists: a failure the phone reports later finds this schedule (scheduleSendFailed).
  await store.linkScheduleMessage(record.companyId, record.id, messageId);
  await queueOutgoingMessage(
    {
      companyId: record.companyId,
      ticket,
      id: messageId,
      body: record.body,
      media: record.mediaPath
        ? { key: record.mediaPath, mimetype: record.mediaType || 'application/octet-stream', filename: record.mediaName || undefined }
        : undefined,
      userId: record.userId,
      origin: 'schedule',
    },
    effects,
  );
  const settled = await store.settleSchedule(record, messageId, {
    status: 'ENVIADA',
    sentAt: effects.now().toISOString(),
    ticketId: ticket.id,
    whatsappId: connectionId,
  });
  // Reopened without its attendant: who saw it only as theirs drops it (tickets/notify).
  if (previous) await publishTicketLost(effects, previous, ticket);
  if (!settled) return 'skipped';
  await publishUpdate(effects, record.companyId, record.id);
  return 'sent';
}

/**
 * The phone could not send a message: when a schedule sent it, that schedule is ERRO with the reason
 * (BEHAVIOUR "Scheduled messages"), not ENVIADA, and can be edited to try again.
 */
export async function scheduleSendFailed(effects: Effects, companyId: number, messageId: string, error: string): Promise<void> {
  const scheduleId = await store.scheduleOfMessage(companyId, messageId);
  if (scheduleId === undefined) return;
  const failed = await store.failSentSchedule(companyId, scheduleId, messageId, error);
  if (failed) await publishUpdate(effects, companyId, scheduleId);
}

/** One run: every shard's due schedules, page by page, a few at a time. */
export async function runScheduleSends(deps: SenderDeps = defaultSenderDeps): Promise<SendReport> {
  const report: SendReport = { read: 0, sent: 0, failed: 0, deferred: 0, skipped: 0, errors: 0 };
  const until = new Date(deps.effects.now().getTime() + LOOKAHEAD_MS).toISOString();
  const shards = Array.from({ length: store.DUE_SHARDS }, (_, shard) => shard);
  await Promise.all(
    shards.map(async (shard) => {
      let cursor: Record<string, unknown> | undefined;
      do {
        const page = await store.dueSchedulesPage(shard, until, { limit: PAGE, cursor });
        report.read += page.due.length;
        const outcomes = await mapWithConcurrency(page.due, CONCURRENCY, (due) =>
          sendDueSchedule(due, deps).catch((error: unknown) => {
            // The claim stays AGENDADA until its lease ends, then the next run tries again.
            logger.error('schedule send failed', { companyId: due.record.companyId, scheduleId: due.record.id, error });
            return 'error' as const;
          }),
        );
        for (const outcome of outcomes) {
          if (outcome === 'error') report.errors++;
          else report[outcome]++;
        }
        cursor = page.cursor;
      } while (cursor);
    }),
  );
  return report;
}
