import type { Ticket } from '@conversa/functions/contracts/tickets';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAuth } from '../../../lib/auth/auth-provider.tsx';
import { useErrorToast } from '../../../lib/use-api-error.ts';
import { useUpdateTicket } from '../api/tickets.ts';

/**
 * SPEC 4 "Accept": the ticket becomes the current user's and opens. Shared by the row's button and the
 * pending ticket's preview; `onAccepted` lets the manager show the ticket where it now lives (Assigned).
 */
export function useAcceptTicket(onAccepted?: (ticket: Ticket) => void) {
  const { user } = useAuth();
  const navigate = useNavigate();
  const showError = useErrorToast();
  const update = useUpdateTicket();
  const [acceptingId, setAcceptingId] = useState<number | null>(null);

  const accept = async (ticket: Ticket) => {
    if (!user) return;
    setAcceptingId(ticket.id);
    try {
      const accepted = await update.mutateAsync({ id: ticket.id, input: { status: 'open', userId: user.id, queueId: ticket.queueId } });
      onAccepted?.(accepted ?? ticket);
      navigate(`/tickets/${accepted?.uuid ?? ticket.uuid}`);
    } catch (error) {
      showError(error);
    } finally {
      setAcceptingId(null);
    }
  };
  return { accept, acceptingId };
}
