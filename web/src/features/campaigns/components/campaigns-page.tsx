import Add from '@mui/icons-material/Add';
import Assessment from '@mui/icons-material/AssessmentOutlined';
import PauseCircle from '@mui/icons-material/PauseCircleOutlined';
import PlayCircle from '@mui/icons-material/PlayCircleOutlined';
import { Button, Chip } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { EditDeleteActions, RowAction } from '../../../components/row-actions.tsx';
import { SearchField } from '../../../components/search-field.tsx';
import { useConfirmedDelete } from '../../../components/use-confirmed-delete.ts';
import { useDebouncedValue } from '../../../hooks/use-debounced-value.ts';
import { useAuth } from '../../../lib/auth/auth-provider.tsx';
import { toast } from '../../../lib/toast.ts';
import { useApiErrorMessage } from '../../../lib/use-api-error.ts';
import { canCancel, canRestart, formatDateTime, statusColor } from '../api/campaign-rules.ts';
import { type Campaign, useCampaignsPages, useCancelCampaign, useDeleteCampaign, useRestartCampaign } from '../api/campaigns.ts';
import { useCampaignsLive } from '../hooks/use-campaigns-live.ts';
import { CampaignDialog } from './campaign-dialog.tsx';

type Action = { kind: 'cancel' | 'restart'; campaign: Campaign };

/**
 * SPEC 2 "Campaigns": name, status, contact list, connection, scheduled at, completed at,
 * confirmation, actions (stop when in progress, restart when cancelled, report, edit, delete).
 */
export function CampaignsPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { user } = useAuth();
  useCampaignsLive(user?.companyId);
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim());
  const campaigns = useCampaignsPages(searchParam);
  const remove = useDeleteCampaign();
  const cancel = useCancelCampaign();
  const restart = useRestartCampaign();
  const errorText = useApiErrorMessage();
  const deletion = useConfirmedDelete((campaign: Campaign) => remove.mutateAsync(campaign.id), t('campaigns.deleted'));
  const [editing, setEditing] = useState<{ record: Campaign | undefined } | undefined>(undefined);
  const [action, setAction] = useState<Action | undefined>(undefined);
  const rows = campaigns.data?.pages.flatMap((page) => page.records) ?? [];
  const when = (at: string | null) => formatDateTime(at, i18n.language);

  // SPEC 8: "Campaign cancel and restart failures show the error message as an error toast."
  const runAction = async () => {
    if (!action) return;
    const mutation = action.kind === 'cancel' ? cancel : restart;
    try {
      await mutation.mutateAsync(action.campaign.id);
      toast.success(t(action.kind === 'cancel' ? 'campaigns.cancelled' : 'campaigns.restarted'));
    } catch (error) {
      toast.error(errorText(error));
    } finally {
      setAction(undefined);
    }
  };

  const columns: Column<Campaign>[] = [
    { id: 'name', label: t('campaigns.fields.name'), render: (c) => c.name },
    {
      id: 'status',
      label: t('campaigns.fields.status'),
      render: (c) => (
        <Chip size="small" color={statusColor[c.status]} label={t(`campaigns.status.${c.status}`)} data-testid="campaign-status" />
      ),
    },
    { id: 'list', label: t('campaigns.fields.contactList'), hideBelow: 'md', render: (c) => c.contactList?.name ?? t('common.none') },
    { id: 'connection', label: t('campaigns.fields.connection'), hideBelow: 'md', render: (c) => c.whatsapp?.name ?? t('common.none') },
    { id: 'scheduledAt', label: t('campaigns.fields.scheduledAt'), hideBelow: 'sm', render: (c) => when(c.scheduledAt) },
    { id: 'completedAt', label: t('campaigns.fields.completedAt'), hideBelow: 'md', render: (c) => when(c.completedAt) },
    {
      id: 'confirmation',
      label: t('campaigns.fields.confirmation'),
      hideBelow: 'md',
      render: (c) => (c.confirmation ? t('common.enabled') : t('common.disabled')),
    },
    {
      id: 'actions',
      label: t('common.actions'),
      align: 'right',
      sx: { whiteSpace: 'nowrap' },
      render: (c) => (
        <>
          {canCancel(c) && (
            <RowAction label={t('campaigns.actions.cancel')} onClick={() => setAction({ kind: 'cancel', campaign: c })}>
              <PauseCircle fontSize="small" />
            </RowAction>
          )}
          {canRestart(c) && (
            <RowAction label={t('campaigns.actions.restart')} onClick={() => setAction({ kind: 'restart', campaign: c })}>
              <PlayCircle fontSize="small" />
            </RowAction>
          )}
          <RowAction label={t('campaigns.actions.report')} onClick={() => navigate(`/campaign/${c.id}/report`)}>
            <Assessment fontSize="small" />
          </RowAction>
          <EditDeleteActions onEdit={() => setEditing({ record: c })} onDelete={() => deletion.ask(c)} />
        </>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title={t('campaigns.title')}
        actions={
          <>
            <SearchField value={search} onChange={setSearch} />
            <Button variant="contained" startIcon={<Add />} onClick={() => setEditing({ record: undefined })} sx={{ flexShrink: 0 }}>
              {t('campaigns.add')}
            </Button>
          </>
        }
      />
      <DataTable
        data-testid="campaigns-table"
        columns={columns}
        rows={rows}
        rowKey={(c) => c.id}
        rowTestId={(c) => `campaign-${c.id}`}
        pending={campaigns.isPending}
        error={campaigns.error}
        hasMore={campaigns.hasNextPage}
        loadingMore={campaigns.isFetchingNextPage}
        onLoadMore={() => void campaigns.fetchNextPage()}
      />
      {editing && <CampaignDialog campaign={editing.record} onClose={() => setEditing(undefined)} />}
      <ConfirmDialog
        {...deletion.dialog}
        title={t('campaigns.deleteTitle', { name: deletion.target?.name ?? '' })}
        message={t('campaigns.deleteMessage')}
      />
      <ConfirmDialog
        open={Boolean(action)}
        busy={cancel.isPending || restart.isPending}
        onConfirm={() => void runAction()}
        onClose={() => setAction(undefined)}
        title={t(action?.kind === 'restart' ? 'campaigns.restartTitle' : 'campaigns.cancelTitle', { name: action?.campaign.name ?? '' })}
        message={t(action?.kind === 'restart' ? 'campaigns.restartMessage' : 'campaigns.cancelMessage')}
      />
    </>
  );
}
