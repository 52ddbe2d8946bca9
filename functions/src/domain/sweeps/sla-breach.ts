/**
 * Service-level breaches (issue 22 §3), found by the ticket sweeps' run every minute: a tenant's
 * due items (storage/tickets/sla.ts) due by now, oldest first, one Query; their tickets, one
 * BatchGet. A ticket still waiting on that very due time (same map, unanswered or unresolved, not
 * closed) gets its breach recorded with a conditional write, and only the run that wrote it tells
 * the queue's admins and supervisors, once: the `slaBreach` event (the web plays the sound and adds
 * it to the bell's list) and the ticket's update, so every list shows the badge. Then the items go.
 *
 * After the stack was down, the items are still there, due in the past: the first run back finds
 * and notifies them. A run that fails midway leaves the rest of its items for the next; one that
 * crashes between the claim and the event loses that event (never sends it twice), and the
 * ticket still reads breached.
 */

import { logger } from '#commons/logger';
import { channels } from '#contracts/channels';
import type { SlaBreachEvent } from '#contracts/sla';
import type { Effects } from '#domain/messages/effects';
import { loadTicketRefs, presentTicket } from '#domain/tickets/present';
import { publishTicket } from '#domain/tickets/publish';
import { isAdmin } from '#realtime/audience';
import { getTickets } from '#storage/tickets/lists';
import type { TicketRecord } from '#storage/tickets/record';
import { claimSlaBreach, deleteSlaDueEntries, dueSlaEntries, type SlaDueEntry, slaDueAt } from '#storage/tickets/sla';

/** Whether the ticket still waits on `entry` (the item may be older than the ticket's latest map). */
function stillWaiting(
  ticket: TicketRecord | undefined,
  entry: SlaDueEntry,
): ticket is TicketRecord & { sla: NonNullable<TicketRecord['sla']> } {
  const sla = ticket?.sla;
  if (!ticket || !sla || ticket.status === 'closed' || sla.resolvedAt) return false;
  if (slaDueAt(sla, entry.target) !== entry.dueAt) return false;
  return entry.target === 'resolution' || !sla.firstRespondedAt;
}

/** The breach's audience: the company's admins, and the supervisors who are members of the ticket's queue. */
export const breachAudience = (queueId: number | null) => (connection: { profile: string; super: boolean; queueIds: number[] }) =>
  isAdmin(connection as Parameters<typeof isAdmin>[0]) ||
  (connection.profile === 'supervisor' && queueId !== null && connection.queueIds.includes(queueId));

/** One tenant's breaches due by `now`. Returns how many it notified. */
export async function sweepSlaBreaches(companyId: number, now: Date, effects: Effects): Promise<number> {
  const entries = await dueSlaEntries(companyId, now.toISOString());
  if (!entries.length) return 0;
  const tickets = new Map((await getTickets(companyId, [...new Set(entries.map((e) => e.ticketId))], true)).map((t) => [t.id, t]));
  const handled: SlaDueEntry[] = [];
  let notified = 0;
  for (const entry of entries) {
    const ticket = tickets.get(entry.ticketId);
    try {
      if (stillWaiting(ticket, entry) && (await claimSlaBreach(companyId, ticket.id, entry.target, entry.dueAt, now.toISOString()))) {
        const breached: TicketRecord = { ...ticket, sla: { ...ticket.sla, [`${entry.target}BreachedAt`]: now.toISOString() } };
        tickets.set(ticket.id, breached);
        const presented = presentTicket(breached, await loadTicketRefs(breached));
        await effects.publish(
          companyId,
          channels.slaBreach(companyId),
          { action: 'breach', target: entry.target, dueAt: entry.dueAt, ticket: presented } satisfies SlaBreachEvent,
          breachAudience(breached.queueId),
        );
        await publishTicket(effects, presented);
        notified++;
      }
      handled.push(entry);
    } catch (error) {
      // Left in the index: the next run tries it again (the claim keeps it to one notification).
      logger.error('sla breach sweep failed on a ticket', { companyId, ticketId: entry.ticketId, error: error as Error });
    }
  }
  await deleteSlaDueEntries(companyId, handled);
  return notified;
}
