import type { Ticket } from '@conversa/functions/contracts/tickets';
import { useDraggable } from '@dnd-kit/core';
import DragIndicator from '@mui/icons-material/DragIndicator';
import { Box, Button, Card, CardActions, CardContent, Typography } from '@mui/material';
import type { ComponentProps, Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { formatPhoneNumber } from '../../../lib/phone-numbers.ts';
import { lastMessagePreview } from '../../../lib/ticket-preview.ts';

type CardProps = ComponentProps<typeof Card> & { 'data-testid'?: string; ref?: Ref<HTMLDivElement> };

/**
 * What a card shows: the contact's name (issue 25: only the number showed), the ticket's number and
 * the contact's number (SPEC 2), the last message, a button opening the ticket. `handle` is the
 * grip's props: the keyboard's way to pick the card up (the mouse or a finger takes the whole card).
 */
export function KanbanCardView({ ticket, handle, ...card }: { ticket: Ticket; handle?: Record<string, unknown> } & CardProps) {
  const { t } = useTranslation();
  return (
    <Card variant="outlined" {...card}>
      <CardContent sx={{ display: 'flex', gap: 1, pb: 0 }}>
        <Box
          {...handle}
          aria-label={handle ? t('kanban.hint') : undefined}
          data-testid={handle ? `kanban-handle-${ticket.id}` : undefined}
          sx={{
            color: 'text.secondary',
            display: 'flex',
            alignItems: 'flex-start',
            borderRadius: 1,
            '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main' },
          }}
        >
          <DragIndicator fontSize="small" />
        </Box>
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="subtitle2" noWrap title={ticket.contact.name}>
            {ticket.contact.name || formatPhoneNumber(ticket.contact.number, ticket.isGroup)}
          </Typography>
          <Typography variant="caption" color="text.secondary" component="p">
            #{ticket.id} · {formatPhoneNumber(ticket.contact.number, ticket.isGroup)}
          </Typography>
          <Typography variant="body2" color="text.secondary" noWrap title={lastMessagePreview(ticket, t)}>
            {lastMessagePreview(ticket, t) || t('kanban.noMessage')}
          </Typography>
        </Box>
      </CardContent>
      <CardActions sx={{ justifyContent: 'flex-end', pt: 0 }}>
        <Button size="small" component={Link} to={`/tickets/${ticket.uuid}`}>
          {t('kanban.openTicket')}
        </Button>
      </CardActions>
    </Card>
  );
}

/**
 * A ticket on the board. The whole card is grabbed with the mouse or a finger (issue 25: only a small
 * handle was); the keyboard picks it up from the grip, whose key presses alone start a move (Enter on
 * the Open button must open the ticket). While dragged the card stays as a faded placeholder and its
 * copy travels in the board's DragOverlay, above every lane.
 */
export function KanbanCard({ ticket, laneId }: { ticket: Ticket; laneId: number }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, isDragging } = useDraggable({ id: ticket.id, data: { laneId } });
  const { onKeyDown, ...grab } = listeners ?? {};
  return (
    <KanbanCardView
      ref={setNodeRef}
      ticket={ticket}
      handle={{ ...attributes, onKeyDown, ref: setActivatorNodeRef }}
      {...grab}
      sx={{ mb: 1, opacity: isDragging ? 0.4 : 1, cursor: 'grab', userSelect: 'none' }}
      data-testid={`kanban-card-${ticket.id}`}
    />
  );
}
