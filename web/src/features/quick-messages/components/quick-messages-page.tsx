import Add from '@mui/icons-material/Add';
import AttachFile from '@mui/icons-material/AttachFile';
import { Button, Chip, Stack, Tooltip, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { EmptyTableHint } from '../../../components/empty-state.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { EditDeleteActions } from '../../../components/row-actions.tsx';
import { SearchField } from '../../../components/search-field.tsx';
import { useConfirmedDelete } from '../../../components/use-confirmed-delete.ts';
import { useDebouncedValue } from '../../../hooks/use-debounced-value.ts';
import { isAdmin, useAuth } from '../../../lib/auth/auth-provider.tsx';
import { type QuickMessage, useDeleteQuickMessage, useQuickMessagesPage } from '../api/quick-messages.ts';
import { QuickMessageDialog } from './quick-message-dialog.tsx';

/** SPEC 2 "Quick messages": table of shortcode, attachment name, actions. */
export function QuickMessagesPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const admin = isAdmin(user);
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim());
  const quickMessages = useQuickMessagesPage(searchParam);
  const remove = useDeleteQuickMessage();
  const deletion = useConfirmedDelete((record: QuickMessage) => remove.mutateAsync(record.id), t('quickMessages.deleted'));
  const [editing, setEditing] = useState<{ record: QuickMessage | undefined } | undefined>(undefined);
  const rows = quickMessages.data?.pages.flatMap((page) => page.records) ?? [];
  // The server lets the author or an admin change one (geral ones are visible to all).
  const canChange = (record: QuickMessage) => admin || record.userId === user?.id;

  const columns: Column<QuickMessage>[] = [
    {
      id: 'shortcode',
      label: t('quickMessages.fields.shortcode'),
      // A reply not shared with everyone (geral) is its author's alone: said, so nobody wonders why a colleague lacks it.
      render: (record) => (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <span>{record.shortcode}</span>
          {!record.geral && (
            <Tooltip title={t('quickMessages.privateHint')}>
              <Chip size="small" variant="outlined" label={t('quickMessages.private')} />
            </Tooltip>
          )}
        </Stack>
      ),
    },
    // The reply itself, on two lines at most: the shortcode alone does not say what gets sent.
    {
      id: 'message',
      label: t('quickMessages.fields.message'),
      render: (record) => (
        <Typography
          variant="body2"
          title={record.message}
          sx={{
            display: '-webkit-box',
            WebkitLineClamp: 2,
            WebkitBoxOrient: 'vertical',
            overflow: 'hidden',
            whiteSpace: 'pre-line',
            maxWidth: 480,
          }}
        >
          {record.message}
        </Typography>
      ),
    },
    {
      id: 'attachment',
      label: t('quickMessages.fields.attachment'),
      render: (record) =>
        record.mediaName ? (
          <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
            <AttachFile fontSize="small" color="action" />
            <span>{record.mediaName}</span>
          </Stack>
        ) : (
          '-'
        ),
    },
    {
      id: 'actions',
      label: t('common.actions'),
      align: 'right',
      sx: { whiteSpace: 'nowrap' },
      render: (record) => (
        <EditDeleteActions onEdit={() => setEditing({ record })} onDelete={() => deletion.ask(record)} disabled={!canChange(record)} />
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title={t('quickMessages.title')}
        actions={
          <>
            <SearchField value={search} onChange={setSearch} />
            <Button variant="contained" startIcon={<Add />} onClick={() => setEditing({ record: undefined })} sx={{ flexShrink: 0 }}>
              {t('quickMessages.add')}
            </Button>
          </>
        }
      />
      <DataTable
        data-testid="quick-messages-table"
        columns={columns}
        rows={rows}
        rowKey={(record) => record.id}
        pending={quickMessages.isPending}
        error={quickMessages.error}
        empty={
          search ? undefined : (
            <EmptyTableHint
              text={t('emptyStates.quickMessages')}
              action={t('emptyStates.quickMessagesAction')}
              onAction={() => setEditing({ record: undefined })}
            />
          )
        }
        hasMore={quickMessages.hasNextPage}
        loadingMore={quickMessages.isFetchingNextPage}
        onLoadMore={() => void quickMessages.fetchNextPage()}
      />
      {editing && <QuickMessageDialog quickMessage={editing.record} canShare={admin} onClose={() => setEditing(undefined)} />}
      <ConfirmDialog
        {...deletion.dialog}
        title={t('quickMessages.deleteTitle', { name: deletion.target?.shortcode ?? '' })}
        message={t('quickMessages.deleteMessage')}
      />
    </>
  );
}
