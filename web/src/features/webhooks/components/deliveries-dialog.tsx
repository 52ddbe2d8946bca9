import Replay from '@mui/icons-material/Replay';
import { Button, Chip, Dialog, DialogActions, DialogContent, DialogTitle, IconButton, Tooltip, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { formatDayTime } from '../../../lib/dates.ts';
import { toast } from '../../../lib/toast.ts';
import { useErrorToast } from '../../../lib/use-api-error.ts';
import { useResendDelivery, useWebhookDeliveries, type Webhook, type WebhookDelivery } from '../api/webhooks.ts';

const statusColor = { pending: 'warning', succeeded: 'success', failed: 'error' } as const;

/** An endpoint's delivery log, newest first: event, status, attempts, answer, latency, next retry; resend. */
export function DeliveriesDialog({ webhook, onClose }: { webhook: Webhook; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const log = useWebhookDeliveries(webhook.id);
  const resend = useResendDelivery();
  const showError = useErrorToast();
  const rows = log.data?.pages.flatMap((page) => page.deliveries) ?? [];
  const when = (at: string | null) => (at ? formatDayTime(at, i18n.language) : '—');

  const columns: Column<WebhookDelivery>[] = [
    { id: 'createdAt', label: t('webhooks.log.createdAt'), render: (d) => when(d.createdAt) },
    {
      id: 'event',
      label: t('webhooks.log.event'),
      render: (d) => (
        <Typography variant="body2" sx={{ fontFamily: 'monospace' }}>
          {d.event}
        </Typography>
      ),
    },
    {
      id: 'status',
      label: t('webhooks.log.status'),
      render: (d) => <Chip size="small" color={statusColor[d.status]} label={t(`webhooks.log.statuses.${d.status}`)} />,
    },
    { id: 'attempts', label: t('webhooks.log.attempts'), align: 'center', render: (d) => d.attempts },
    {
      id: 'response',
      label: t('webhooks.log.response'),
      render: (d) => (
        <Tooltip title={d.error ?? ''}>
          <span>{d.responseCode ?? d.error ?? '—'}</span>
        </Tooltip>
      ),
    },
    { id: 'latency', label: t('webhooks.log.latency'), hideBelow: 'sm', render: (d) => (d.latencyMs === null ? '—' : `${d.latencyMs} ms`) },
    { id: 'nextRetryAt', label: t('webhooks.log.nextRetry'), hideBelow: 'md', render: (d) => when(d.nextRetryAt) },
    {
      id: 'actions',
      label: t('common.actions'),
      align: 'right',
      render: (d) => (
        <Tooltip title={t('webhooks.log.resend')}>
          <IconButton
            aria-label={t('webhooks.log.resend')}
            data-testid={`resend-${d.id}`}
            onClick={async () => {
              try {
                await resend.mutateAsync({ id: webhook.id, deliveryId: d.id });
                toast.success(t('webhooks.log.resent'));
              } catch (error) {
                showError(error);
              }
            }}
          >
            <Replay fontSize="small" />
          </IconButton>
        </Tooltip>
      ),
    },
  ];

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="lg" scroll="paper" data-testid="webhook-deliveries-dialog">
      <DialogTitle>
        {t('webhooks.log.title')}
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {webhook.url}
        </Typography>
      </DialogTitle>
      <DialogContent dividers>
        <DataTable
          data-testid="webhook-deliveries"
          columns={columns}
          rows={rows}
          rowKey={(d) => d.id}
          rowTestId={(d) => `delivery-${d.id}`}
          pending={log.isPending}
          error={log.error}
          hasMore={log.hasNextPage}
          loadingMore={log.isFetchingNextPage}
          onLoadMore={() => void log.fetchNextPage()}
          empty={t('webhooks.log.empty')}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={() => void log.refetch()}>{t('webhooks.log.refresh')}</Button>
        <Button variant="contained" onClick={onClose}>
          {t('webhooks.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
