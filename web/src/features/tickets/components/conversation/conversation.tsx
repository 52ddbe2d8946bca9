import { channels } from '@conversa/functions/contracts/channels';
import type { Ticket, TicketEvent } from '@conversa/functions/contracts/tickets';
import { Box, Paper } from '@mui/material';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { Spinner } from '../../../../components/spinner.tsx';
import { ApiError } from '../../../../lib/api-client.ts';
import { useAuth } from '../../../../lib/auth/auth-provider.tsx';
import { useRealtimeEvent } from '../../../../lib/realtime/realtime-provider.tsx';
import { DENIAL_REDIRECT_MS, toast } from '../../../../lib/toast.ts';
import { useTicketByUuid } from '../../api/tickets.ts';
import { ContactDrawer } from './contact-drawer.tsx';
import { ConversationHeader } from './conversation-header.tsx';
import { TagPicker } from './tag-picker.tsx';

interface ConversationProps {
  uuid: string;
  onBack?: () => void;
  /** The contact's edit dialog (contacts feature), composed by the app. */
  onEditContact?: (contactId: number) => void;
  /** The schedule message dialog (schedules feature), composed by the app when the plan has useSchedules. */
  onScheduleMessage?: (ticket: Ticket) => void;
  /** The messages and the input (messages feature), composed by the app under the header. */
  children: (ticket: Ticket) => ReactNode;
}

/**
 * The conversation of /tickets/:uuid (SPEC 2 "Conversation"): header, tag picker and contact drawer;
 * the app puts the messages in. A ticket outside the user's queues answers 403: 'Acesso não
 * permitido', then back to /tickets after 1 s (SPEC 5).
 */
export function Conversation({ uuid, onBack, onEditContact, onScheduleMessage, children }: ConversationProps) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const navigate = useNavigate();
  const query = useTicketByUuid(uuid);
  const ticket = query.data;
  const [contactOpen, setContactOpen] = useState(false);
  const reported = useRef<unknown>(null);
  const redirect = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => {
    if (!query.isError || reported.current === query.error) return;
    reported.current = query.error;
    const denied = query.error instanceof ApiError && query.error.status === 403;
    toast.error(denied ? t('conversation.accessDenied') : t('conversation.loadError'));
    // Not undone by a re-render meanwhile (the profile's language arriving changes `t`): only by
    // opening another ticket or leaving.
    redirect.current = setTimeout(() => navigate('/tickets', { replace: true }), DENIAL_REDIRECT_MS);
  }, [query.isError, query.error, navigate, t]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: another ticket opened ends the wait, as leaving does.
  useEffect(() => () => clearTimeout(redirect.current), [uuid]);

  // A ticket deleted elsewhere closes its conversation.
  useRealtimeEvent<TicketEvent>(user?.companyId ? channels.ticket(user.companyId) : undefined, (data) => {
    if (data?.action === 'delete' && ticket && data.ticketId === ticket.id) navigate('/tickets', { replace: true });
  });

  return (
    <Paper
      variant="outlined"
      sx={{ height: '100%', display: 'flex', flexDirection: 'column', overflow: 'hidden' }}
      data-testid="conversation"
    >
      {!ticket ? (
        <Box sx={{ flex: 1, display: 'grid', placeItems: 'center' }}>{query.isPending && <Spinner />}</Box>
      ) : (
        <>
          <ConversationHeader
            ticket={ticket}
            onBack={onBack}
            onOpenContact={() => setContactOpen(true)}
            onSchedule={onScheduleMessage ? () => onScheduleMessage(ticket) : undefined}
          />
          {!ticket.readOnly && <TagPicker ticket={ticket} />}
          {children(ticket)}
          <ContactDrawer ticket={ticket} open={contactOpen} onClose={() => setContactOpen(false)} onEditContact={onEditContact} />
        </>
      )}
    </Paper>
  );
}
