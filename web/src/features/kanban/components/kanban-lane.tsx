import type { Ticket } from '@conversa/functions/contracts/tickets';
import { useDroppable } from '@dnd-kit/core';
import { Box, Paper, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { KanbanCard } from './kanban-card.tsx';

/** One lane: a kanban tag in its colour (or Open), a drop target for the cards. */
export function KanbanLane({ id, name, color, tickets }: { id: number; name: string; color: string; tickets: Ticket[] }) {
  const { t } = useTranslation();
  const { setNodeRef, isOver } = useDroppable({ id, data: { name } });
  const title = t('kanban.lane', { name, count: tickets.length });
  return (
    <Paper
      ref={setNodeRef}
      variant="outlined"
      role="region"
      aria-label={title}
      data-testid={`kanban-lane-${id}`}
      sx={{
        width: 300,
        flex: '0 0 300px',
        display: 'flex',
        flexDirection: 'column',
        borderTop: 4,
        borderTopColor: color,
        bgcolor: isOver ? 'action.hover' : 'background.default',
        maxHeight: '100%',
      }}
    >
      <Box sx={{ px: 2, py: 1.5, display: 'flex', alignItems: 'center', gap: 1 }}>
        <Box sx={{ width: 12, height: 12, borderRadius: '50%', bgcolor: color, flex: '0 0 12px' }} />
        <Typography variant="subtitle1" component="h2" noWrap>
          {title}
        </Typography>
      </Box>
      <Box sx={{ px: 1, pb: 1, overflowY: 'auto', minHeight: 120, flex: 1 }}>
        {tickets.map((ticket) => (
          <KanbanCard key={ticket.id} ticket={ticket} laneId={id} />
        ))}
        {!tickets.length && (
          <Typography variant="body2" color="text.secondary" sx={{ p: 1 }}>
            {t('kanban.empty')}
          </Typography>
        )}
      </Box>
    </Paper>
  );
}
