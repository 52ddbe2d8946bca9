import type { Ticket } from '@conversa/functions/contracts/tickets';
import { useDraggable } from '@dnd-kit/core';
import DragIndicator from '@mui/icons-material/DragIndicator';
import { Box, Button, Card, CardActions, CardContent, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

/** A ticket on the board: its number and last message, a handle to drag it, a button to open it. */
export function KanbanCard({ ticket, laneId }: { ticket: Ticket; laneId: number }) {
  const { t } = useTranslation();
  const { attributes, listeners, setNodeRef, transform, isDragging } = useDraggable({ id: ticket.id, data: { laneId } });
  const style = transform ? { transform: `translate3d(${transform.x}px, ${transform.y}px, 0)` } : undefined;
  return (
    <Card
      ref={setNodeRef}
      variant="outlined"
      style={style}
      sx={{ mb: 1, opacity: isDragging ? 0.85 : 1, zIndex: isDragging ? 10 : 'auto', position: 'relative' }}
      data-testid={`kanban-card-${ticket.id}`}
    >
      <CardContent sx={{ display: 'flex', gap: 1, pb: 0 }}>
        <Box
          {...listeners}
          {...attributes}
          aria-label={t('kanban.hint')}
          data-testid={`kanban-handle-${ticket.id}`}
          sx={{
            cursor: 'grab',
            color: 'text.secondary',
            display: 'flex',
            alignItems: 'flex-start',
            touchAction: 'none',
            borderRadius: 1,
            '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main' },
          }}
        >
          <DragIndicator fontSize="small" />
        </Box>
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="subtitle2">
            #{ticket.id} · {ticket.contact.number}
          </Typography>
          <Typography variant="body2" color="text.secondary" noWrap title={ticket.lastMessage}>
            {ticket.lastMessage || t('kanban.noMessage')}
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
