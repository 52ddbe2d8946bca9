import type { Message } from '@conversa/functions/contracts/messages';
import type { Ticket } from '@conversa/functions/contracts/tickets';
import { lazy, Suspense, useState } from 'react';
import { MessageInput } from '../../features/messages/components/message-input.tsx';
import { MessageList } from '../../features/messages/components/message-list.tsx';
import { Conversation } from '../../features/tickets/components/conversation/conversation.tsx';
import { TicketsPage } from '../../features/tickets/components/tickets-page.tsx';
import { useAuth } from '../../lib/auth/auth-provider.tsx';
import { useCompanyPlan } from '../../lib/auth/session-api.ts';
import { ContactEditor } from './contact-editor.tsx';

/** Loaded when the header's schedule button is first used: the inbox's first paint does not carry it. */
const ScheduleDialog = lazy(async () => ({
  default: (await import('../../features/schedules/components/schedule-dialog.tsx')).ScheduleDialog,
}));

/** The messages of the open ticket: the list and the input share the message being replied to. */
function TicketMessages({ ticket }: { ticket: Ticket }) {
  const [replyTo, setReplyTo] = useState<Message | null>(null);
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
