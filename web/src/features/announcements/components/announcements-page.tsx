import type { Announcement } from '@conversa/functions/contracts/announcements';
import Add from '@mui/icons-material/Add';
import AttachFile from '@mui/icons-material/AttachFile';
import { Button, Chip, Stack } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { EditDeleteActions } from '../../../components/row-actions.tsx';
import { SearchField } from '../../../components/search-field.tsx';
import { useConfirmedDelete } from '../../../components/use-confirmed-delete.ts';
import { useDebouncedValue } from '../../../hooks/use-debounced-value.ts';
import { useAnnouncementsPage, useDeleteAnnouncement } from '../api/announcements.ts';
import { AnnouncementDialog } from './announcement-dialog.tsx';
import { priorityColor, priorityKey } from './priority.ts';

/** SPEC 2 "Announcements" (super users): table of title, priority, attachment name, status, actions. */
export function AnnouncementsPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim());
  const announcements = useAnnouncementsPage(searchParam);
  const remove = useDeleteAnnouncement();
  const deletion = useConfirmedDelete((record: Announcement) => remove.mutateAsync(record.id), t('announcements.deleted'));
  const [editing, setEditing] = useState<{ record: Announcement | undefined } | undefined>(undefined);
  const rows = announcements.data?.pages.flatMap((page) => page.records) ?? [];

  const columns: Column<Announcement>[] = [
    { id: 'title', label: t('announcements.fields.title'), render: (record) => record.title },
    {
      id: 'priority',
      label: t('announcements.fields.priority'),
      render: (record) => (
        <Chip
          size="small"
          label={t(priorityKey(record.priority))}
          sx={(theme) => ({ bgcolor: priorityColor(theme, record.priority), color: theme.palette.common.white })}
        />
      ),
    },
    {
      id: 'attachment',
      label: t('announcements.fields.attachment'),
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
      id: 'status',
      label: t('announcements.fields.status'),
      render: (record) => (
        <Chip
          size="small"
          variant="outlined"
          color={record.status ? 'success' : 'default'}
          label={record.status ? t('announcements.active') : t('announcements.inactive')}
        />
      ),
    },
    {
      id: 'actions',
      label: t('common.actions'),
      align: 'right',
      sx: { whiteSpace: 'nowrap' },
      render: (record) => <EditDeleteActions onEdit={() => setEditing({ record })} onDelete={() => deletion.ask(record)} />,
    },
  ];

  return (
    <>
      <PageHeader
        title={t('announcements.title')}
        actions={
          <>
            <SearchField value={search} onChange={setSearch} />
            <Button variant="contained" startIcon={<Add />} onClick={() => setEditing({ record: undefined })} sx={{ flexShrink: 0 }}>
              {t('announcements.add')}
            </Button>
          </>
        }
      />
      <DataTable
        data-testid="announcements-table"
        columns={columns}
        rows={rows}
        rowKey={(record) => record.id}
        pending={announcements.isPending}
        error={announcements.error}
        hasMore={announcements.hasNextPage}
        loadingMore={announcements.isFetchingNextPage}
        onLoadMore={() => void announcements.fetchNextPage()}
      />
      {editing && <AnnouncementDialog announcement={editing.record} onClose={() => setEditing(undefined)} />}
      <ConfirmDialog
        {...deletion.dialog}
        title={t('announcements.deleteTitle', { name: deletion.target?.title ?? '' })}
        message={t('announcements.deleteMessage')}
      />
    </>
  );
}
