import type { SlaFilter } from '@conversa/functions/contracts/sla';
import type { Ticket, TicketStatus } from '@conversa/functions/contracts/tickets';
import Add from '@mui/icons-material/Add';
import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import MoveToInbox from '@mui/icons-material/MoveToInbox';
import Search from '@mui/icons-material/Search';
import { Badge, Box, Button, FormControlLabel, Paper, Stack, Switch, Tab, Tabs, useMediaQuery, useTheme } from '@mui/material';
import { type ReactElement, type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { useDebouncedValue } from '../../../hooks/use-debounced-value.ts';
import { isAdmin, useAuth } from '../../../lib/auth/auth-provider.tsx';
import { useQueues } from '../../../lib/lookups/queues.ts';
import { type TicketFilters, useTicketByUuid } from '../api/tickets.ts';
import { useAcceptTicket } from '../hooks/use-accept-ticket.ts';
import { NewTicketDialog } from './new-ticket-dialog.tsx';
import { type QueueChoice, QueueSelect } from './queue-select.tsx';
import { SearchFilters } from './search-filters.tsx';
import { SlaFilterSelect } from './sla-filter.tsx';
import { SpyDialog } from './spy-dialog.tsx';
import { TicketList, useTicketCount } from './ticket-list.tsx';

type TopTab = 'open' | 'closed' | 'search';
/** `snoozed` (issue 22 §5): the caller's snoozed tickets, which no other list holds until they wake. */
type OpenTab = 'assigned' | 'pending' | 'snoozed';

function CountLabel({ label, count }: { label: string; count: number }) {
  return (
    <Badge badgeContent={count} color="secondary" max={999} sx={{ '& .MuiBadge-badge': { right: -14 } }}>
      {label}
    </Badge>
  );
}

/** SPEC 2 "Ticket manager": Open (Assigned / Pending), Closed and Search lists with their filters. */
export function TicketsManager({ renderSpy }: { renderSpy: (ticket: Ticket) => ReactNode }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const admin = isAdmin(user);
  const companyQueues = useQueues();
  // Admins choose among every queue; a user among their own (by id: the session may carry ids only).
  const queues: QueueChoice[] = useMemo(() => {
    const all = companyQueues.data ?? [];
    if (admin) return all;
    const own = new Set(user?.queueIds ?? user?.queues?.map((q) => q.id) ?? []);
    return all.length > 0 ? all.filter((q) => own.has(q.id)) : (user?.queues ?? []);
  }, [admin, companyQueues.data, user?.queueIds, user?.queues]);
  // On a phone the three tabs keep their words and drop their icons, so "Resolvidos" is not cut.
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const tabIcon = (icon: ReactElement) => (narrow ? undefined : icon);
  const [tab, setTab] = useState<TopTab>('open');
  const [openTab, setOpenTab] = useState<OpenTab>('assigned');
  // Until the user picks a sub-tab, the manager may pick it for them (new work in Pending).
  const [openTabChosen, setOpenTabChosen] = useState(false);
  const [showAll, setShowAll] = useState(false);
  const [sla, setSla] = useState<SlaFilter | ''>('');
  const [selectedQueues, setSelectedQueues] = useState<number[] | null>(null);
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim());
  const [tags, setTags] = useState<number[]>([]);
  const [users, setUsers] = useState<number[]>([]);
  const [creating, setCreating] = useState(false);
  const [spying, setSpying] = useState<Ticket | null>(null);

  // Every queue is selected at first; later changes to the queue list keep the user's choice.
  useEffect(() => {
    if (selectedQueues === null && !companyQueues.isPending) setSelectedQueues(queues.map((q) => q.id));
  }, [selectedQueues, companyQueues.isPending, queues]);

  const queueIds = queues.length > 0 ? (selectedQueues ?? queues.map((q) => q.id)) : undefined;
  const base = { showAll: admin && showAll, queueIds, ...(sla ? { sla } : {}) };
  const assigned: TicketFilters = { ...base, status: 'open' };
  const pending: TicketFilters = { ...base, status: 'pending' };
  const closed: TicketFilters = { ...base, status: 'closed' };
  const snoozed: TicketFilters = { ...base, status: 'snoozed' };
  const searching: TicketFilters = { searchParam, tags, users: admin ? users : [], showAll: admin, queueIds };
  const ready = !companyQueues.isPending;
  const assignedCount = useTicketCount(assigned, ready);
  const pendingCount = useTicketCount(pending, ready);

  // A new conversation lands in Pending: with nothing assigned, show it rather than "Nothing here!".
  // And back: a conversation that automatic assignment gave to this user a moment later (issue 22 §2)
  // leaves Pending for Assigned, where it now lives; the list follows it instead of showing an empty Pending.
  useEffect(() => {
    if (openTabChosen) return;
    if (openTab === 'assigned' && assignedCount === 0 && pendingCount > 0) setOpenTab('pending');
    else if (openTab === 'pending' && pendingCount === 0 && assignedCount > 0) setOpenTab('assigned');
  }, [openTabChosen, openTab, assignedCount, pendingCount]);

  // After Accept the ticket lives in Assigned: show it there.
  const showAccepted = () => {
    setSpying(null);
    setTab('open');
    setOpenTab('assigned');
    setOpenTabChosen(true);
  };
  const preview = useAcceptTicket(showAccepted);

  // The opened ticket became open again (Reopen from Resolvidos, Accept in its header): the list
  // moves to Assigned, where it now lives, instead of staying on a tab it has left. Only that change
  // moves it: Resolve and Return leave the ticket (back to the list as it was), and browsing other
  // tabs while a ticket is open is left alone.
  const { ticketId } = useParams();
  const openedStatus = useTicketByUuid(ticketId).data?.status;
  const lastSeen = useRef<{ uuid?: string; status?: TicketStatus }>({});
  useEffect(() => {
    const before = lastSeen.current;
    lastSeen.current = { uuid: ticketId, status: openedStatus };
    if (openedStatus !== 'open' || before.uuid !== ticketId || !before.status || before.status === openedStatus) return;
    setTab('open');
    setOpenTab('assigned');
    setOpenTabChosen(true);
  }, [ticketId, openedStatus]);

  return (
    <Paper
      variant="outlined"
      sx={{ height: '100%', display: 'flex', flexDirection: 'column', overflow: 'hidden' }}
      data-testid="tickets-manager"
    >
      <Tabs value={tab} onChange={(_, value: TopTab) => setTab(value)} variant="fullWidth" sx={{ borderBottom: 1, borderColor: 'divider' }}>
        <Tab
          value="open"
          icon={tabIcon(<MoveToInbox fontSize="small" />)}
          iconPosition="start"
          label={t('inbox.tabs.open')}
          sx={{ minHeight: 48 }}
        />
        <Tab
          value="closed"
          icon={tabIcon(<CheckCircleOutlined fontSize="small" />)}
          iconPosition="start"
          label={t('inbox.tabs.closed')}
          sx={{ minHeight: 48 }}
        />
        <Tab
          value="search"
          icon={tabIcon(<Search fontSize="small" />)}
          iconPosition="start"
          label={t('inbox.tabs.search')}
          sx={{ minHeight: 48 }}
        />
      </Tabs>
      {/* Wraps on a phone: New, Show all and the service-level and queue filters do not fit 390 px in one row. */}
      <Stack
        direction="row"
        spacing={1}
        useFlexGap
        sx={{ alignItems: 'center', flexWrap: 'wrap', px: 1, py: 1, borderBottom: 1, borderColor: 'divider' }}
      >
        <Button variant="outlined" size="small" startIcon={<Add />} onClick={() => setCreating(true)}>
          {t('inbox.newTicket')}
        </Button>
        {admin && (
          <FormControlLabel
            control={<Switch size="small" checked={showAll} onChange={(event) => setShowAll(event.target.checked)} />}
            label={t('inbox.showAll')}
            slotProps={{ typography: { variant: 'body2' } }}
            sx={{ ml: 0.5 }}
          />
        )}
        <Box sx={{ flex: 1 }} />
        <SlaFilterSelect value={sla} onChange={setSla} />
        {queues.length > 0 && <QueueSelect queues={queues} selected={selectedQueues ?? []} onChange={setSelectedQueues} />}
      </Stack>
      {tab === 'search' && (
        <SearchFilters search={search} onSearch={setSearch} tags={tags} onTags={setTags} users={users} onUsers={setUsers} admin={admin} />
      )}
      {tab === 'open' && (
        <Tabs
          value={openTab}
          onChange={(_, value: OpenTab) => {
            setOpenTab(value);
            setOpenTabChosen(true);
          }}
          // Three sub-tabs with counts do not fit a phone at full width: they scroll there instead of cutting.
          variant="scrollable"
          scrollButtons={false}
          sx={{ borderBottom: 1, borderColor: 'divider', '& .MuiTab-root': { flexGrow: 1 } }}
        >
          <Tab
            value="assigned"
            label={<CountLabel label={t('inbox.subTabs.assigned')} count={assignedCount} />}
            data-testid="tab-assigned"
          />
          <Tab value="pending" label={<CountLabel label={t('inbox.subTabs.pending')} count={pendingCount} />} data-testid="tab-pending" />
          <Tab value="snoozed" label={t('snooze.tab')} data-testid="tab-snoozed" />
        </Tabs>
      )}
      {tab === 'open' && openTab === 'assigned' && (
        <TicketList filters={assigned} enabled={ready} onSpy={setSpying} onAccepted={showAccepted} />
      )}
      {tab === 'open' && openTab === 'pending' && (
        <TicketList filters={pending} enabled={ready} onSpy={setSpying} onAccepted={showAccepted} />
      )}
      {tab === 'open' && openTab === 'snoozed' && (
        <TicketList filters={snoozed} enabled={ready} onSpy={setSpying} onAccepted={showAccepted} />
      )}
      {tab === 'closed' && <TicketList filters={closed} enabled={ready} onSpy={setSpying} onAccepted={showAccepted} />}
      {tab === 'search' && <TicketList filters={searching} enabled={ready} onSpy={setSpying} onAccepted={showAccepted} />}
      <NewTicketDialog open={creating} queues={queues} onClose={() => setCreating(false)} />
      <SpyDialog
        ticket={spying}
        onClose={() => setSpying(null)}
        onAccept={preview.accept}
        accepting={spying !== null && preview.acceptingId === spying.id}
      >
        {renderSpy}
      </SpyDialog>
    </Paper>
  );
}
