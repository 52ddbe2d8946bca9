import type { OtherOpenTicketError } from '@conversa/functions/contracts/ticket-requests';
import type { Ticket } from '@conversa/functions/contracts/tickets';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, api } from '../../../lib/api-client.ts';
import { ticketKeys } from '../../../lib/lookups/tickets.ts';

export type OpenTicketOutcome = { kind: 'opened'; uuid: string } | { kind: 'taken'; other: OtherOpenTicketError };

/**
 * POST /tickets for a contact (SPEC 7), on the company's default connection. ERR_OTHER_OPEN_TICKET
 * (SPEC 8): the caller's own (or an unattended) ticket is simply opened; one attended by someone
 * else comes back as `taken` so the page can say who and where.
 */
export function useOpenTicket(userId: number | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (args: { contactId: number; queueId: number | null }): Promise<OpenTicketOutcome> => {
      try {
        const ticket = await api<Ticket>('/tickets', {
          method: 'POST',
          body: { contactId: args.contactId, queueId: args.queueId, userId, status: 'open' },
        });
        return { kind: 'opened', uuid: ticket.uuid };
      } catch (error) {
        if (!(error instanceof ApiError) || error.code !== 'ERR_OTHER_OPEN_TICKET' || typeof error.body !== 'object') throw error;
        const other = error.body as unknown as OtherOpenTicketError;
        if (!other.uuid) throw error;
        if (other.userId !== null && other.userId !== userId) return { kind: 'taken', other };
        return { kind: 'opened', uuid: other.uuid };
      }
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ticketKeys.all }),
  });
}
