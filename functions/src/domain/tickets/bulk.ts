/**
 * POST /tickets/bulk (issue 22 §5): one action on up to 100 tickets, answered per ticket in the
 * order given. Each ticket goes through the single-ticket path (actions.ts applyTicketUpdate, or the
 * tag route's addTicketTag) with its own read, so its own rules hold: visibility (another tenant's
 * id is not found, a ticket outside a plain user's queues is ERR_NO_PERMISSION), the revision check
 * (a concurrent change is ERR_TICKET_CHANGED for that ticket alone), its history, its automatic
 * messages and its realtime events. One ticket's failure never stops the others.
 *
 * What the whole request names (the user, queue or tag) is checked once first: a missing one is
 * the body's 400, not a hundred identical failures. The tickets run BULK_CONCURRENCY at a time, so
 * 100 of them take about 13 single-ticket changes' time and stay well inside the Lambda's limit.
 *
 * Closed tickets are refused (ERR_TICKET_CLOSED) for assign, transfer and resolve: on the single
 * route those bodies would reopen the ticket (or do nothing), which is not what a person selecting
 * rows of a list to act on meant. Tags go on closed tickets as on any other.
 */
import { AppError, ValidationError } from '#commons/errors';
import { logger } from '#commons/logger';
import type { BulkTicketResult, BulkTicketsInput, BulkTicketsResponse, UpdateTicketInput } from '#contracts/ticket-requests';
import type { Ticket } from '#contracts/tickets';
import { defaultEffects, type Effects } from '#domain/messages/effects';
import { addTicketTag } from '#domain/tags/ticket-tags';
import { mapWithConcurrency } from '#realtime/concurrency';
import { getQueue } from '#storage/queues/queues';
import { listTags } from '#storage/tags';
import type { TicketRecord } from '#storage/tickets/record';
import { getUser } from '#storage/users/users';
import { loadVisibleTicket, type Viewer } from './access.ts';
import { applyTicketUpdate } from './actions.ts';
import { TicketClosedError } from './snooze.ts';

export const BULK_CONCURRENCY = 8;

async function checkReferences(viewer: Viewer, input: BulkTicketsInput): Promise<void> {
  const { companyId } = viewer;
  const [user, queue, tags] = await Promise.all([
    input.userId !== undefined && (input.action === 'assign' || input.action === 'transfer') ? getUser(companyId, input.userId) : true,
    input.queueId !== undefined && input.action === 'transfer' ? getQueue(companyId, input.queueId) : true,
    input.action === 'tag' ? listTags(companyId) : undefined,
  ]);
  if (!user) throw new ValidationError('userId', 'User not found');
  if (!queue) throw new ValidationError('queueId', 'Queue not found');
  if (tags && !tags.some((tag) => tag.id === input.tagId)) throw new ValidationError('tagId', 'Tag not found');
}

/** The PUT /tickets/{id} body that does `input.action` to this ticket. */
function updateFor(viewer: Viewer, ticket: TicketRecord, input: BulkTicketsInput): UpdateTicketInput {
  switch (input.action) {
    case 'assign':
      // Without a user it is the caller's accept (which a stale row must not turn into taking a
      // colleague's ticket: actions.ts refuses that with ERR_TICKET_CHANGED). With a user it is
      // an assignment, as the transfer dialog's to an attendant of the same queue.
      return input.userId === undefined
        ? { status: 'open', userId: viewer.userId }
        : { status: 'open', userId: input.userId, queueId: ticket.queueId };
    case 'transfer':
      return { queueId: input.queueId, ...(input.userId !== undefined ? { userId: input.userId, status: 'open' as const } : {}) };
    case 'resolve':
      // As the conversation header's Resolve (SPEC 4): user and queue, integration, prompt and integration id off.
      return {
        status: 'closed',
        userId: ticket.userId ?? viewer.userId,
        queueId: ticket.queueId,
        useIntegration: false,
        promptId: false,
        integrationId: false,
      };
    case 'tag':
      return {};
  }
}

async function actOn(viewer: Viewer, id: number, input: BulkTicketsInput, effects: Effects): Promise<Ticket> {
  if (input.action === 'tag') return addTicketTag(viewer, id, input.tagId as number);
  const ticket = await loadVisibleTicket(viewer, id);
  if (ticket.status === 'closed') throw new TicketClosedError();
  return applyTicketUpdate(viewer, ticket, updateFor(viewer, ticket, input), effects);
}

export async function bulkTicketAction(
  viewer: Viewer,
  input: BulkTicketsInput,
  effects: Effects = defaultEffects,
): Promise<BulkTicketsResponse> {
  await checkReferences(viewer, input);
  const results = await mapWithConcurrency(input.ids, BULK_CONCURRENCY, async (id): Promise<BulkTicketResult> => {
    try {
      return { id, ok: true, ticket: await actOn(viewer, id, input, effects) };
    } catch (error) {
      if (error instanceof AppError) return { id, ok: false, error: error.code };
      logger.error('bulk ticket action failed on a ticket', { companyId: viewer.companyId, ticketId: id, error: error as Error });
      return { id, ok: false, error: 'ERR_INTERNAL' };
    }
  });
  return { results };
}
