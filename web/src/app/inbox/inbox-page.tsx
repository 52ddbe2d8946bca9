import type { Message } from '@conversa/functions/contracts/messages';
import type { Ticket } from '@conversa/functions/contracts/tickets';
import AlternateEmail from '@mui/icons-material/AlternateEmail';
import { Alert } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MessageInput } from '../../features/messages/components/message-input.tsx';
import { MessageList } from '../../features/messages/components/message-list.tsx';
import { Conversation } from '../../features/tickets/components/conversation/conversation.tsx';
import { TicketsPage } from '../../features/tickets/components/tickets-page.tsx';
import { useAuth } from '../../lib/auth/auth-provider.tsx';
import { useCompanyPlan } from '../../lib/auth/session-api.ts';
import { hasUnreadMention, markTicketMentionsRead, mentionsQueryOptions } from '../../lib/lookups/mentions.ts';
import { ContactEditor } from './contact-editor.tsx';

/** Loaded when the header's schedule button is first used: the inbox's first paint does not carry it. */
const ScheduleDialog = lazy(async () => ({
  default: (await import('../../features/schedules/components/schedule-dialog.tsx')).ScheduleDialog,
}));

/**
 * The messages of the open ticket: the list and the input share the message being replied to.
 * Opening it reads the user's mentions on it (issue 22 §6); one they read only through a mention
 * shows the thread without the input.
 */
function TicketMessages({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation();
  const [replyTo, setReplyTo] = useState<Message | null>(null);
  useReadMentionsOnOpen(ticket.id);
  if (ticket.readOnly)
    return (
      <>
        <MessageList key={ticket.id} ticketId={ticket.id} isGroup={ticket.isGroup} readOnly />
        <Alert severity="info" icon={<AlternateEmail />} sx={{ borderRadius: 0 }} data-testid="mention-read-only">
          {t('mentions.readOnly')}
        </Alert>
      </>
    );
  return (
    <>
      <MessageList
        key={ticket.id}
        ticketId={ticket.id}
        isGroup={ticket.isGroup}
        onReply={ticket.status === 'open' ? setReplyTo : undefined}
      />
      <MessageInput key={`input-${ticket.id}`} ticket={ticket} replyTo={replyTo} onClearReply={() => setReplyTo(null)} />
    </>
  );
}

/** Marks the user's unread mentions on the open ticket read (the bell and the menu's dot follow). */
function useReadMentionsOnOpen(ticketId: number) {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const mentions = useQuery({ ...mentionsQueryOptions(user?.id), enabled: false }).data;
  const unread = hasUnreadMention(mentions, ticketId);
  useEffect(() => {
    if (unread && user) void markTicketMentionsRead(queryClient, user.id, ticketId).catch(() => undefined);
  }, [unread, user, queryClient, ticketId]);
}

function ConversationPane({ uuid, onBack }: { uuid: string; onBack?: () => void }) {
  const { user } = useAuth();
  const plan = useCompanyPlan(user?.companyId);
  const [editing, setEditing] = useState<number | null>(null);
  // The header's schedule button: the schedules feature's dialog for the ticket's contact (SPEC 2 "Modals").
  const [scheduling, setScheduling] = useState<{ contactId: number; ticketId: number } | null>(null);
  return (
    <>
      <Conversation
        uuid={uuid}
        onBack={onBack}
        onEditContact={setEditing}
        onScheduleMessage={
          plan.data?.useSchedules ? (ticket) => setScheduling({ contactId: ticket.contactId, ticketId: ticket.id }) : undefined
        }
      >
        {(ticket) => <TicketMessages ticket={ticket} />}
      </Conversation>
      <ContactEditor contactId={editing} onClose={() => setEditing(null)} />
      {scheduling && (
        <Suspense fallback={null}>
          <ScheduleDialog preset={scheduling} onClose={() => setScheduling(null)} />
        </Suspense>
      )}
    </>
  );
}

/**
 * /tickets/:ticketId? (SPEC 2 "Ticket manager", "Conversation"). The tickets feature owns the page
 * and the conversation's frame, the messages feature the messages, the contacts feature the contact
 * dialog: they meet here, so no feature imports another (STYLE, bulletproof-react).
 */
export function InboxPage() {
  return (
    <TicketsPage
      renderConversation={(uuid, onBack) => <ConversationPane uuid={uuid} onBack={onBack} />}
      renderSpy={(ticket) => <MessageList ticketId={ticket.id} isGroup={ticket.isGroup} readOnly />}
    />
  );
}
