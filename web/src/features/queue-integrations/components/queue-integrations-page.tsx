import Add from '@mui/icons-material/Add';
import { Button, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { IntegrationLogo } from '../../../components/integration-logo.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { EditDeleteActions } from '../../../components/row-actions.tsx';
import { SearchField } from '../../../components/search-field.tsx';
import { useConfirmedDelete } from '../../../components/use-confirmed-delete.ts';
import { useDebouncedValue } from '../../../hooks/use-debounced-value.ts';
import { useAuth } from '../../../lib/auth/auth-provider.tsx';
import { useQueueIntegrationsLive } from '../../../lib/lookups/bot-choices.ts';
import { type QueueIntegration, useDeleteQueueIntegration, useQueueIntegrations } from '../api/queue-integrations.ts';
import { QueueIntegrationDialog } from './queue-integration-dialog.tsx';

/** SPEC 2 "Queue integrations": a table of type logo, id, name and actions; add, edit, delete. */
export function QueueIntegrationsPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  useQueueIntegrationsLive(user?.companyId);
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim());
  const list = useQueueIntegrations(searchParam);
  const remove = useDeleteQueueIntegration();
  const deletion = useConfirmedDelete(
    (integration: QueueIntegration) => remove.mutateAsync(integration.id),
    t('queueIntegrations.deleted'),
  );
  const [editing, setEditing] = useState<{ integration: QueueIntegration | undefined } | undefined>(undefined);
  const rows = list.data?.pages.flatMap((page) => page.queueIntegrations) ?? [];

  const columns: Column<QueueIntegration>[] = [
    {
      id: 'type',
      label: t('queueIntegrations.fields.type'),
      sx: { width: 64 },
      render: (integration) => (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} title={t(`queueIntegrations.types.${integration.type}`)}>
          <IntegrationLogo type={integration.type} size={28} />
        </Stack>
      ),
    },
    { id: 'id', label: t('queueIntegrations.fields.id'), align: 'center', sx: { width: 64 }, render: (integration) => integration.id },
    {
      id: 'name',
      label: t('queueIntegrations.fields.name'),
      render: (integration) => (
        <>
          <Typography variant="body2">{integration.name}</Typography>
          <Typography variant="caption" color="text.secondary">
            {t(`queueIntegrations.types.${integration.type}`)}
          </Typography>
        </>
      ),
    },
    {
      id: 'actions',
      label: t('common.actions'),
      align: 'right',
      sx: { whiteSpace: 'nowrap' },
      render: (integration) => <EditDeleteActions onEdit={() => setEditing({ integration })} onDelete={() => deletion.ask(integration)} />,
    },
  ];

  return (
    <>
      <PageHeader
        title={t('queueIntegrations.title')}
        actions={
          <>
            <SearchField value={search} onChange={setSearch} />
            <Button variant="contained" startIcon={<Add />} onClick={() => setEditing({ integration: undefined })} sx={{ flexShrink: 0 }}>
              {t('queueIntegrations.add')}
            </Button>
          </>
        }
      />
      <DataTable
        data-testid="queue-integrations-table"
        columns={columns}
        rows={rows}
        rowKey={(integration) => integration.id}
        rowTestId={(integration) => `queue-integration-${integration.id}`}
        pending={list.isPending}
        error={list.error}
        hasMore={list.hasNextPage}
        loadingMore={list.isFetchingNextPage}
        onLoadMore={() => void list.fetchNextPage()}
      />
      {editing && <QueueIntegrationDialog integration={editing.integration} onClose={() => setEditing(undefined)} />}
      <ConfirmDialog
        {...deletion.dialog}
        title={t('queueIntegrations.deleteTitle', { name: deletion.target?.name ?? '' })}
        message={t('queueIntegrations.deleteMessage')}
      />
    </>
  );
}
