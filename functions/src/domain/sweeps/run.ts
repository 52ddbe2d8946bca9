/**
 * The ticket sweeps, run once a minute (schedules.ts): for every company, for every connection with
 * the rule on, read the tickets of the rule's list that went idle since the previous run
 * (storage/sweeps/marks.ts, storage/sweeps/candidates.ts; every write shard of it, storage/list-shards.ts)
 * and apply the rule to each (expire.ts, transfer.ts); and route the queues of a company that just
 * switched automatic assignment on (tickets/auto-assign.ts routeSwitchedQueues).
 *
 * Independence: each company, and within it each (connection, rule), succeeds or fails on its own;
 * a failure is logged, leaves that mark where it was (the next run reads the range again) and
 * never stops the rest. Every write is conditional, so a range read twice, or by two overlapping
 * runs, changes each ticket once.
 */
import { logger } from '#commons/logger';
import { defaultEffects, type Effects } from '#domain/messages/effects';
import { routeSwitchedQueues } from '#domain/tickets/auto-assign';
import { mapWithConcurrency } from '#realtime/concurrency';
import { getCompany, listCompanies } from '#storage/companies/companies';
import { type ConnectionRecord, listConnections } from '#storage/connections';
import { listShardsOf } from '#storage/list-shards';
import { getQueue } from '#storage/queues/queues';
import { ticketsUpdatedWithin } from '#storage/sweeps/candidates';
import { advanceSweepMark, getSweepMarks, markOf, type SweepRule } from '#storage/sweeps/marks';
import { ticketLists } from '#storage/tickets/list-keys';
import type { TicketRecord } from '#storage/tickets/record';
import { expireTicket } from './expire.ts';
import { MARK_OVERLAP_MS } from './mark-overlap.ts';
import { sweepSlaBreaches } from './sla-breach.ts';
import { transferTicket } from './transfer.ts';

/** Companies swept at once (each is a handful of sequential Queries). */
const COMPANY_CONCURRENCY = 8;

export interface SweepReport {
  companies: number;
  closed: number;
  transferred: number;
  /** Service-level breaches notified (sla-breach.ts). */
  breached?: number;
  /** (company, connection, rule) sweeps that failed; retried by the next run. */
  failures: number;
}

interface RulePlan {
  rule: SweepRule;
  minutes: number;
  index: 'gsi1' | 'gsi3';
  /** The list's partitions: one per write shard of the tenant (storage/list-shards.ts). */
  partitions: string[];
  apply: (ticket: TicketRecord) => Promise<boolean>;
}

async function plansFor(companyId: number, shards: number, connection: ConnectionRecord, now: Date, effects: Effects): Promise<RulePlan[]> {
  const plans: RulePlan[] = [];
  const eachShard = (partition: (shard: number) => string) => Array.from({ length: shards }, (_, shard) => partition(shard));
  if (connection.expiresTicket > 0) {
    plans.push({
      rule: 'expire',
      minutes: connection.expiresTicket,
      index: 'gsi3',
      partitions: eachShard((shard) => ticketLists.byStatus(companyId, 'open', shard)),
      apply: (ticket) => expireTicket(ticket, connection, now, effects),
    });
  }
  const queueId = connection.transferQueueId;
  if ((connection.timeToTransfer ?? 0) > 0 && queueId) {
    // A transfer queue deleted since (queues.ts clears it from connections, but not atomically):
    // skip without moving the mark, so the tickets move once a queue is set again.
    if (await getQueue(companyId, queueId)) {
      plans.push({
        rule: 'transfer',
        minutes: connection.timeToTransfer as number,
        index: 'gsi1',
        partitions: eachShard((shard) => ticketLists.byStatusAndQueue(companyId, 'pending', null, shard)),
        apply: (ticket) => transferTicket(ticket, connection, queueId, now, effects),
      });
    } else logger.warn('transfer queue not found; timeToTransfer skipped', { companyId, connectionId: connection.id, queueId });
  }
  return plans;
}

/** Applies one rule over the tickets idle since its mark. Returns how many it changed; throws if any ticket failed. */
async function sweepRule(companyId: number, connectionId: number, plan: RulePlan, mark: string | undefined, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - plan.minutes * 60_000).toISOString();
  // The minutes went up since the last run: that range was already swept.
  if (mark && mark >= cutoff) return 0;
  const after = mark ? new Date(Date.parse(mark) - MARK_OVERLAP_MS).toISOString() : undefined;
  let changed = 0;
  let firstError: unknown;
  for (const partition of plan.partitions)
    for await (const ticket of ticketsUpdatedWithin(plan.index, partition, { after, until: cutoff }, connectionId)) {
      try {
        if (await plan.apply(ticket)) changed++;
      } catch (error) {
        firstError ??= error;
        logger.error('ticket sweep failed on a ticket', {
          companyId,
          connectionId,
          rule: plan.rule,
          ticketId: ticket.id,
          error: error as Error,
        });
      }
    }
  if (firstError) throw firstError;
  await advanceSweepMark(companyId, plan.rule, connectionId, cutoff);
  return changed;
}

export async function sweepCompany(
  companyId: number,
  now: Date,
  effects: Effects = defaultEffects,
): Promise<Omit<SweepReport, 'companies'>> {
  const report = { closed: 0, transferred: 0, failures: 0 };
  const connections = await listConnections(companyId);
  if (!connections.some((c) => c.expiresTicket > 0 || (c.timeToTransfer ?? 0) > 0)) return report;
  // Read fresh, not cached: a shard this run did not know of would keep its tickets from every rule.
  const [marks, company] = await Promise.all([getSweepMarks(companyId), getCompany(companyId)]);
  const shards = listShardsOf(company);
  for (const connection of connections) {
    for (const plan of await plansFor(companyId, shards, connection, now, effects)) {
      try {
        const changed = await sweepRule(companyId, connection.id, plan, markOf(marks, plan.rule, connection.id), now);
        if (plan.rule === 'expire') report.closed += changed;
        else report.transferred += changed;
      } catch (error) {
        report.failures++;
        logger.error('ticket sweep failed', { companyId, connectionId: connection.id, rule: plan.rule, error: error as Error });
      }
    }
  }
  return report;
}

/** One run over every company. Never throws for one company's failure. */
export async function runTicketSweeps(effects: Effects = defaultEffects): Promise<SweepReport> {
  const now = effects.now();
  const companies = await listCompanies();
  const report: SweepReport = { companies: companies.length, closed: 0, transferred: 0, failures: 0 };
  await mapWithConcurrency(companies, COMPANY_CONCURRENCY, async (company) => {
    try {
      // Breaches first: their due items are the tenant's own index, whatever its connections' rules.
      report.breached = (report.breached ?? 0) + (await sweepSlaBreaches(company.id, now, effects));
      const done = await sweepCompany(company.id, now, effects);
      // A queue switched automatic assignment on a moment ago: what other containers let by is routed.
      await routeSwitchedQueues(company, now, effects);
      report.closed += done.closed;
      report.transferred += done.transferred;
      report.failures += done.failures;
    } catch (error) {
      report.failures++;
      logger.error('ticket sweeps failed for a company', { companyId: company.id, error: error as Error });
    }
  });
  return report;
}
