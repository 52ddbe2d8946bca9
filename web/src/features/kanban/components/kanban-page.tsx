import type { Ticket } from '@conversa/functions/contracts/tickets';
import {
  type Announcements,
  closestCenter,
  DndContext,
  type DragEndEvent,
  DragOverlay,
  type KeyboardCoordinateGetter,
  KeyboardSensor,
  MouseSensor,
  TouchSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { Alert, Box, Button, Typography, useTheme } from '@mui/material';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PageHeader } from '../../../components/page-header.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { isAdmin, managesKanbanLanes, useAuth } from '../../../lib/auth/auth-provider.tsx';
import { openProfile } from '../../../lib/profile-request.ts';
import { type KanbanLane as Lane, useKanbanLanes, useKanbanTickets, useMoveCard } from '../api/kanban.ts';
import { useKanbanLive } from '../hooks/use-kanban-live.ts';
import { KanbanCardView } from './kanban-card.tsx';
import { KanbanLane } from './kanban-lane.tsx';

/** The card's lane: its first kanban tag's, or Open (0) when it carries none. */
const laneOf = (ticket: Ticket, laneIds: Set<number>) => ticket.tags.find((tag) => laneIds.has(tag.id))?.id ?? 0;

/**
 * Keyboard moves go lane to lane (the default moves 25 px a key press): Left/Right put the card over
 * the neighbouring lane's top, where closestCenter picks that lane.
 */
const laneToLane: KeyboardCoordinateGetter = (event, { context, currentCoordinates }) => {
  const step = event.code === 'ArrowRight' ? 1 : event.code === 'ArrowLeft' ? -1 : 0;
  if (!step) return undefined;
  event.preventDefault();
  const lanes = context.droppableContainers
    .getEnabled()
    .flatMap((container) => {
      const rect = context.droppableRects.get(container.id);
      return rect ? [{ id: container.id, rect }] : [];
    })
    .sort((a, b) => a.rect.left - b.rect.left);
  const at = lanes.findIndex((lane) => lane.id === context.over?.id);
  const target = lanes[(at === -1 ? 0 : at) + step];
  if (!target) return currentCoordinates;
  const width = context.collisionRect?.width ?? 0;
  return { x: target.rect.left + (target.rect.width - width) / 2, y: target.rect.top + 48 };
};

/** SPEC 2 "Kanban": lane 0 Open, one lane per kanban tag in its colour; a drag retags the ticket. */
export function KanbanPage() {
  const { t } = useTranslation();
  const theme = useTheme();
  const { user } = useAuth();
  useKanbanLive(user?.companyId);
  const tickets = useKanbanTickets();
  const tagLanes = useKanbanLanes();
  const move = useMoveCard();
  const [dragged, setDragged] = useState<number>();
  // The whole card is grabbed: a mouse after 5 px (a click still opens the ticket), a finger after a
  // short press (a swipe still scrolls the lanes, so no touch-action: none on the cards).
  const sensors = useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: 5 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 200, tolerance: 8 } }),
    useSensor(KeyboardSensor, { coordinateGetter: laneToLane }),
  );

  const lanes: Lane[] = useMemo(
    () => [{ id: 0, name: t('kanban.open'), color: theme.palette.grey[500] }, ...(tagLanes.data ?? [])],
    [tagLanes.data, t, theme],
  );
  const laneIds = useMemo(() => new Set((tagLanes.data ?? []).map((lane) => lane.id)), [tagLanes.data]);
  const byLane = useMemo(() => {
    const map = new Map<number, Ticket[]>(lanes.map((lane) => [lane.id, []]));
    for (const ticket of tickets.data ?? []) map.get(laneOf(ticket, laneIds))?.push(ticket);
    return map;
  }, [lanes, laneIds, tickets.data]);

  const ticketOf = (id: string | number) => (tickets.data ?? []).find((ticket) => ticket.id === Number(id));
  const laneName = (id: string | number | undefined) => lanes.find((lane) => lane.id === Number(id))?.name ?? '';
  const announcements: Announcements = {
    onDragStart: ({ active }) =>
      t('kanban.announce.pickedUp', { ticket: active.id, lane: laneName(active.data.current?.laneId as number) }),
    onDragOver: ({ active, over }) =>
      over
        ? t('kanban.announce.over', { ticket: active.id, lane: laneName(over.id) })
        : t('kanban.announce.outside', { ticket: active.id }),
    onDragEnd: ({ active, over }) =>
      over
        ? t('kanban.announce.dropped', { ticket: active.id, lane: laneName(over.id) })
        : t('kanban.announce.outside', { ticket: active.id }),
    onDragCancel: ({ active }) =>
      t('kanban.announce.cancelled', { ticket: active.id, lane: laneName(active.data.current?.laneId as number) }),
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    setDragged(undefined);
    const ticket = ticketOf(active.id);
    if (!ticket || !over) return;
    const from = laneOf(ticket, laneIds);
    const to = Number(over.id);
    if (from === to) return;
    move.mutate({ ticket, from, to, lane: tagLanes.data?.find((lane) => lane.id === to) });
  };

  const failed = tickets.isError || tagLanes.isError;
  // An admin's board is the company's; anyone else's holds their queues' tickets, so none without queues.
  const withoutQueues = Boolean(user) && !isAdmin(user) && !user?.queueIds?.length;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
      <PageHeader title={t('menu.kanban')} />
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }} id="kanban-hint">
        {t('kanban.hint')}
      </Typography>
      {failed && <Alert severity="error">{t('kanban.loadError')}</Alert>}
      {withoutQueues && (
        <Alert
          severity="info"
          sx={{ mb: 2 }}
          data-testid="kanban-no-queues"
          action={
            <Button color="inherit" size="small" onClick={openProfile}>
              {t('kanban.seeQueues')}
            </Button>
          }
        >
          {t('kanban.noQueues')}
        </Alert>
      )}
      {tagLanes.data?.length === 0 && (
        // Only "Em aberto" so far: the lanes are tags with the kanban flag, made on the Tags page.
        <Alert
          severity="info"
          sx={{ mb: 2 }}
          data-testid="kanban-no-lanes"
          action={
            managesKanbanLanes(user) ? (
              <Button color="inherit" size="small" component={Link} to="/tags">
                {t('kanban.addLane')}
              </Button>
            ) : undefined
          }
        >
          {t(managesKanbanLanes(user) ? 'kanban.noLanes' : 'kanban.noLanesAskAdmin')}
        </Alert>
      )}
      {(tickets.isPending || tagLanes.isPending) && !failed ? (
        <Spinner aria-label={t('dashboard.loading')} />
      ) : (
        <DndContext
          sensors={sensors}
          collisionDetection={closestCenter}
          onDragStart={({ active }) => setDragged(Number(active.id))}
          onDragEnd={onDragEnd}
          onDragCancel={() => setDragged(undefined)}
          accessibility={{ announcements, screenReaderInstructions: { draggable: t('kanban.hint') } }}
        >
          <Box sx={{ display: 'flex', gap: 2, overflowX: 'auto', pb: 2, flex: 1, alignItems: 'stretch', minHeight: 400 }}>
            {lanes.map((lane) => (
              <KanbanLane key={lane.id} id={lane.id} name={lane.name} color={lane.color} tickets={byLane.get(lane.id) ?? []} />
            ))}
          </Box>
          {/* The travelling copy, fixed above the lanes: the card itself is clipped by its lane's scroll box. */}
          <DragOverlay zIndex={theme.zIndex.modal}>
            {dragged !== undefined && ticketOf(dragged) && (
              <KanbanCardView
                ticket={ticketOf(dragged) as Ticket}
                data-testid="kanban-drag-overlay"
                sx={{ cursor: 'grabbing', boxShadow: 8 }}
              />
            )}
          </DragOverlay>
        </DndContext>
      )}
    </Box>
  );
}
