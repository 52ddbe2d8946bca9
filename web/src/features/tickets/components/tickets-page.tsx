import ForumOutlined from '@mui/icons-material/ForumOutlined';
import { Box, Paper, Tab, Tabs } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/empty-state.tsx';

/** The inbox shell (/tickets/:ticketId?): the lists and the conversation arrive with the inbox issue. */
export function TicketsPage() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<'open' | 'closed' | 'search'>('open');
  return (
    <Box
      sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '360px 1fr' }, minHeight: 'calc(100vh - 140px)' }}
      data-testid="tickets-page"
    >
      <Paper variant="outlined">
        <Tabs value={tab} onChange={(_, value) => setTab(value)} variant="fullWidth">
          <Tab value="open" label={t('tickets.tabs.open')} />
          <Tab value="closed" label={t('tickets.tabs.closed')} />
          <Tab value="search" label={t('tickets.tabs.search')} />
        </Tabs>
        <Box sx={{ p: 3, color: 'text.secondary', textAlign: 'center' }}>{t('tickets.noTickets')}</Box>
      </Paper>
      <EmptyState
        icon={<ForumOutlined sx={{ fontSize: 48 }} />}
        title={t('tickets.emptyTitle')}
        description={t('tickets.emptyDescription')}
      />
    </Box>
  );
}
