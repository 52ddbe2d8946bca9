/**
 * Message retention (issue 21 §5), the `message-retention` job (declarations/jobs.ts, hourly): for
 * every company whose setting `messageRetentionDays` is above 0, each message older than that many
 * days goes, with its media object when the object is the conversation's own (domain/media/keys.ts
 * isConversationMedia: a quick message's or campaign's file stays the company's), its id lookups and
 * its words in the search index (storage/retention/old-messages.ts), and a ticket whose preview
 * (lastMessage) is such a message loses the preview. Tickets stay, and so do the dashboard's
 * counters (separate aggregates, untouched). 0 keeps everything.
 *
 * Order makes a crash harmless: the object first, then the message's transaction; a run that dies
 * leaves the rest for the next, which finds the same messages (the object's delete succeeds again).
 * A company's mark moves only when its whole sweep finished within the run's time budget, so the
 * next run reads the tickets again from the same point. Each company succeeds or fails on its own.
 */

import { logger } from '#commons/logger';
import { deleteMediaObjects } from '#domain/media/bucket';
import { isConversationMedia, messageMediaKey } from '#domain/media/keys';
import { mapWithConcurrency } from '#realtime/concurrency';
import { getCompany, listCompanies } from '#storage/companies/companies';
import { listShardsOf } from '#storage/list-shards';
import {
  clearLastMessageBefore,
  getRetentionMark,
  messagesBefore,
  removeStoredMessage,
  setRetentionMark,
  ticketsUpdatedSince,
} from '#storage/retention/old-messages';
import { getSetting } from '#storage/settings';
import { MARK_OVERLAP_MS } from './mark-overlap.ts';

const DAY_MS = 86_400_000;
const COMPANY_CONCURRENCY = 4;

export interface RetentionReport {
  companies: number;
  messages: number;
  mediaObjects: number;
  /** Companies whose sweep failed or ran out of time: the next run goes on from their mark. */
  unfinished: number;
}

export interface RetentionDeps {
  deleteMediaObjects(keys: string[]): Promise<void>;
  /** Epoch ms after which a run starts no new ticket (the Lambda's timeout must not cut a company short). */
  deadline: number;
}

export function retentionDays(value: string): number {
  const days = Number(value);
  return Number.isInteger(days) && days > 0 ? days : 0;
}

/** Sweeps one company; false when it stopped at the deadline (its mark stays). */
export async function sweepCompanyRetention(
  companyId: number,
  days: number,
  now: Date,
  deps: RetentionDeps,
  report: Pick<RetentionReport, 'messages' | 'mediaObjects'>,
): Promise<boolean> {
  const cutoff = now.getTime() - days * DAY_MS;
  const [mark, company] = await Promise.all([getRetentionMark(companyId), getCompany(companyId)]);
  const since = mark === undefined ? undefined : new Date(Math.min(mark, cutoff) - MARK_OVERLAP_MS).toISOString();
  for await (const ticket of ticketsUpdatedSince(companyId, listShardsOf(company), since)) {
    if (Date.now() > deps.deadline) return false;
    for (
      let page = await messagesBefore(companyId, ticket.id, cutoff);
      page.length;
      page = await messagesBefore(companyId, ticket.id, cutoff)
    ) {
      // The page's objects first, in one call: a message whose object is gone but which is still
      // stored is found again by the next page or run, whose delete of the object succeeds again.
      const keys = page.map((message) => messageMediaKey(companyId, message)).filter((key) => key && isConversationMedia(companyId, key));
      await deps.deleteMediaObjects(keys);
      report.mediaObjects += keys.length;
      for (const message of page) if (await removeStoredMessage(message)) report.messages++;
    }
    await clearLastMessageBefore(ticket, cutoff);
  }
  await setRetentionMark(companyId, cutoff);
  return true;
}

/** One run over every company with retention on. Never throws for one company's failure. */
export async function runMessageRetention(
  now = new Date(),
  deps: RetentionDeps = { deleteMediaObjects, deadline: Infinity },
): Promise<RetentionReport> {
  const report: RetentionReport = { companies: 0, messages: 0, mediaObjects: 0, unfinished: 0 };
  await mapWithConcurrency(await listCompanies(), COMPANY_CONCURRENCY, async (company) => {
    try {
      const days = retentionDays(await getSetting(company.id, 'messageRetentionDays'));
      if (!days) return;
      report.companies++;
      if (!(await sweepCompanyRetention(company.id, days, now, deps, report))) report.unfinished++;
    } catch (error) {
      report.unfinished++;
      logger.error('message retention failed for a company', { companyId: company.id, error: error as Error });
    }
  });
  return report;
}
