import type { Ticket } from '@conversa/functions/contracts/tickets';
import ForumOutlined from '@mui/icons-material/ForumOutlined';
import { Box, Button, Stack, Tab, Tabs, useMediaQuery, useTheme } from '@mui/material';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { EmptyState } from '../../../components/empty-state.tsx';
import { useTicketsLive } from '../hooks/use-tickets-live.ts';
import { TicketsManager } from './tickets-manager.tsx';

/** The inbox fills the viewport under the top bar (64 px, 56 px on phones) and the page padding. */
const pageHeight = { xs: 'calc(100dvh - 56px - 32px)', sm: 'calc(100dvh - 64px - 48px)' };

/**
 * /tickets/:ticketId? (SPEC 2 "Ticket manager"): wide screens show the list and the conversation side
 * by side; narrow ones two tabs, Ticket and Atendimentos. The URL (the ticket's uuid) drives both.
 */
interface TicketsPageProps {
  /** The open ticket's conversation; the app composes it from the tickets and messages features. */
  renderConversation: (uuid: string, onBack: (() => void) | undefined) => ReactNode;
  /** The admin's read-only view of a ticket's messages (spy dialog). */
  renderSpy: (ticket: Ticket) => ReactNode;
}

export function TicketsPage({ renderConversation, renderSpy }: TicketsPageProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('md'), { noSsr: true });
  const { ticketId } = useParams();
  const navigate = useNavigate();
  const [pane, setPane] = useState<'ticket' | 'tickets'>(ticketId ? 'ticket' : 'tickets');
  useTicketsLive();

  // Choosing a ticket in the list shows it; closing it goes back to the list.
  useEffect(() => setPane(ticketId ? 'ticket' : 'tickets'), [ticketId]);

  const conversation = ticketId ? (
    <Box key={ticketId} sx={{ height: '100%', minHeight: 0 }}>
      {renderConversation(ticketId, narrow ? () => navigate('/tickets') : undefined)}
    </Box>
  ) : (
    <Stack spacing={2} sx={{ height: '100%', justifyContent: 'center', alignItems: 'stretch' }}>
      <EmptyState icon={<ForumOutlined sx={{ fontSize: 48 }} />} title={t('inbox.emptyTitle')} description={t('inbox.emptyDescription')} />
      {narrow && (
        <Button variant="contained" onClick={() => setPane('tickets')} sx={{ alignSelf: 'center' }}>
          {t('inbox.selectTicket')}
        </Button>
      )}
    </Stack>
  );

  if (narrow) {
    return (
      <Box sx={{ height: pageHeight, display: 'flex', flexDirection: 'column', gap: 1 }} data-testid="tickets-page" data-layout="narrow">
        <Tabs value={pane} onChange={(_, value: 'ticket' | 'tickets') => setPane(value)} variant="fullWidth">
          <Tab value="ticket" label={t('inbox.narrowTabs.ticket')} data-testid="pane-ticket" />
          <Tab value="tickets" label={t('inbox.narrowTabs.tickets')} data-testid="pane-tickets" />
        </Tabs>
        <Box sx={{ flex: 1, minHeight: 0 }}>{pane === 'ticket' ? conversation : <TicketsManager renderSpy={renderSpy} />}</Box>
      </Box>
    );
  }
  return (
    <Box
      // minmax(0, 1fr): a plain 1fr column never shrinks below its content's width, so at 1280 px the
      // conversation's header and composer pushed past the window and clipped Resolver and Send.
      sx={{ display: 'grid', gap: 2, gridTemplateColumns: { md: '380px minmax(0, 1fr)', lg: '420px minmax(0, 1fr)' }, height: pageHeight }}
      data-testid="tickets-page"
      data-layout="wide"
    >
      <TicketsManager renderSpy={renderSpy} />
      {conversation}
    </Box>
  );
}
