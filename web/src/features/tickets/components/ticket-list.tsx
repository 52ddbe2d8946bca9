import type { Ticket } from '@conversa/functions/contracts/tickets';
import { Box, Button, List, Typography } from '@mui/material';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { Spinner } from '../../../components/spinner.tsx';
import { isAdmin, useAuth } from '../../../lib/auth/auth-provider.tsx';
import { toast } from '../../../lib/toast.ts';
import { useFillBox } from '../../../lib/use-fill-box.ts';
import { type TicketFilters, useTicketList } from '../api/tickets.ts';
import { useAcceptTicket } from '../hooks/use-accept-ticket.ts';
import { BulkBar } from './bulk-bar.tsx';
import { TicketRow } from './ticket-row.tsx';

/** SPEC 9: the next page loads within 100 px of the bottom. */
const NEXT_PAGE_PX = 100;

interface TicketListProps {
  filters: TicketFilters;
  /** False until the queue selection is known, so the first read already has its filter. */
  enabled?: boolean;
  /** The admin's spy icon, and a click on a pending row: the conversation read-only, Accept at hand. */
  onSpy: (ticket: Ticket) => void;
  onAccepted?: (ticket: Ticket) => void;
}

export function TicketList({ filters, enabled = true, onSpy, onAccepted }: TicketListProps) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const admin = isAdmin(user);
  const navigate = useNavigate();
  const { ticketId: selectedUuid } = useParams();
  const query = useTicketList(filters, enabled);
  const { accept, acceptingId } = useAcceptTicket(onAccepted);
  const tickets = query.data?.pages.flatMap((page) => page.tickets) ?? [];
  const selection = useSelection(tickets);

  useEffect(() => {
    if (query.isError) toast.error(t('inbox.loadError'));
  }, [query.isError, t]);

  // Next page on a scroll near the end, and while a short page leaves nothing to scroll; then a button (lib/use-fill-box.ts).
  const boxRef = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetching, fetchNextPage } = query;
  const fill = useFillBox(boxRef, {
    rows: tickets.length,
    hasMore: hasNextPage,
    loading: isFetching,
    load: () => void fetchNextPage(),
    nextPagePx: NEXT_PAGE_PX,
  });

  return (
    <>
      {selection.ids.length > 0 && <BulkBar ids={selection.ids} onDone={selection.drop} onClear={selection.clear} />}
      <Box
        ref={boxRef}
        onScroll={fill.onScroll}
        sx={{ flex: 1, minHeight: 0, overflowY: 'auto' }}
        data-testid="ticket-list"
        data-status={filters.status ?? 'search'}
      >
        <List disablePadding>
          {tickets.map((ticket) => (
            <TicketRow
              key={ticket.id}
              ticket={ticket}
              selected={ticket.uuid === selectedUuid}
              admin={admin}
              accepting={acceptingId === ticket.id}
              onOpen={(row) => navigate(`/tickets/${row.uuid}`)}
              onAccept={accept}
              onSpy={onSpy}
              checked={selection.has(ticket.id)}
              onCheck={selection.toggle}
            />
          ))}
        </List>
        {(query.isPending || query.isFetchingNextPage) && (
          <Box sx={{ display: 'flex', justifyContent: 'center', py: 2 }}>
            <Spinner size={24} />
          </Box>
        )}
        {fill.showButton && (
          <Box sx={{ display: 'flex', justifyContent: 'center', py: 1 }}>
            <Button size="small" onClick={() => void fetchNextPage()} data-testid="ticket-list-more">
              {t('common.loadMore')}
            </Button>
          </Box>
        )}
        {!query.isPending && !hasNextPage && tickets.length === 0 && (
          <Box sx={{ p: 3, textAlign: 'center' }}>
            <Typography variant="subtitle1">{t('inbox.noTicketsTitle')}</Typography>
            <Typography variant="body2" sx={{ color: 'text.secondary' }}>
              {t('inbox.noTicketsMessage')}
            </Typography>
          </Box>
        )}
      </Box>
    </>
  );
}

/**
 * The rows checked for a bulk action (issue 22 §5). A click toggles one row and makes it the anchor;
 * a shift-click sets every row between the anchor and it (in the list's order) to the clicked row's
 * new state, as a file manager does. Rows that left the list (resolved, moved) leave the selection.
 */
function useSelection(tickets: Ticket[]) {
  const [checked, setChecked] = useState<Set<number>>(() => new Set());
  const [anchor, setAnchor] = useState<number | null>(null);
  const order = useMemo(() => tickets.map((ticket) => ticket.id), [tickets]);
  const ids = useMemo(() => order.filter((id) => checked.has(id)), [order, checked]);

  const toggle = (ticket: Ticket, range: boolean) => {
    const on = !checked.has(ticket.id);
    const next = new Set(checked);
    const from = anchor === null ? -1 : order.indexOf(anchor);
    const to = order.indexOf(ticket.id);
    if (range && from >= 0 && to >= 0) {
      for (const id of order.slice(Math.min(from, to), Math.max(from, to) + 1)) {
        if (on) next.add(id);
        else next.delete(id);
      }
    } else if (on) next.add(ticket.id);
    else next.delete(ticket.id);
    setChecked(next);
    setAnchor(ticket.id);
  };

  return {
    ids,
    has: (id: number) => checked.has(id),
    toggle,
    clear: () => {
      setChecked(new Set());
      setAnchor(null);
    },
    drop: (done: number[]) => setChecked((current) => new Set([...current].filter((id) => !done.includes(id)))),
  };
}

/** Badge count of a list: the rows it holds (loaded pages, kept live by the realtime events). */
export function useTicketCount(filters: TicketFilters, enabled = true): number {
  const query = useTicketList(filters, enabled);
  return query.data?.pages.reduce((sum, page) => sum + page.tickets.length, 0) ?? 0;
}
