import Add from '@mui/icons-material/Add';
import { Button, Chip, type Theme } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { EditDeleteActions } from '../../../components/row-actions.tsx';
import { SearchField } from '../../../components/search-field.tsx';
import { useConfirmedDelete } from '../../../components/use-confirmed-delete.ts';
import { useDebouncedValue } from '../../../hooks/use-debounced-value.ts';
import { managesKanbanLanes, useAuth } from '../../../lib/auth/auth-provider.tsx';
import { type Tag, useDeleteTag, useTags } from '../api/tags.ts';
import { useTagCountsLive } from '../hooks/use-tag-counts-live.ts';
import { TagDialog } from './tag-dialog.tsx';

/** Text colour readable on a tag's colour (free text, so an unknown colour keeps the theme's). */
function readableOn(theme: Theme, color: string): string {
  try {
    return theme.palette.getContrastText(color);
  } catch {
    return theme.palette.text.primary;
  }
}

/** SPEC 2 "Tags": searchable list with ticket counts; add, edit, delete. */
export function TagsPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  useTagCountsLive(user?.companyId);
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim());
  const tags = useTags(searchParam);
  const remove = useDeleteTag();
  const deletion = useConfirmedDelete((tag: Tag) => remove.mutateAsync(tag.id), t('tags.deleted'));
  const [editing, setEditing] = useState<{ tag: Tag | undefined } | undefined>(undefined);
  const rows = tags.data?.pages.flatMap((page) => page.tags) ?? [];
  const canSetKanban = managesKanbanLanes(user);

  const columns: Column<Tag>[] = [
    {
      id: 'name',
      label: t('tags.fields.name'),
      render: (tag) => (
        <Chip
          label={tag.name}
          size="small"
          sx={(theme) => ({ bgcolor: tag.color, color: readableOn(theme, tag.color), fontWeight: 500 })}
        />
      ),
    },
    { id: 'tickets', label: t('tags.fields.tickets'), align: 'center', render: (tag) => tag.ticketsCount },
    {
      id: 'kanban',
      label: t('tags.fields.kanban'),
      align: 'center',
      render: (tag) => (tag.kanban === 1 ? t('common.yes') : t('common.no')),
    },
    {
      id: 'actions',
      label: t('common.actions'),
      align: 'right',
      sx: { whiteSpace: 'nowrap' },
      // A kanban lane is changed or deleted only by those who may create one (the server refuses the rest).
      render: (tag) => (
        <EditDeleteActions
          onEdit={() => setEditing({ tag })}
          onDelete={() => deletion.ask(tag)}
          disabled={tag.kanban === 1 && !canSetKanban}
        />
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title={t('tags.title')}
        actions={
          <>
            <SearchField value={search} onChange={setSearch} />
            <Button variant="contained" startIcon={<Add />} onClick={() => setEditing({ tag: undefined })} sx={{ flexShrink: 0 }}>
              {t('tags.add')}
            </Button>
          </>
        }
      />
      <DataTable
        data-testid="tags-table"
        columns={columns}
        rows={rows}
        rowKey={(tag) => tag.id}
        pending={tags.isPending}
        error={tags.error}
        hasMore={tags.hasNextPage}
        loadingMore={tags.isFetchingNextPage}
        onLoadMore={() => void tags.fetchNextPage()}
      />
      {editing && <TagDialog tag={editing.tag} canSetKanban={canSetKanban} onClose={() => setEditing(undefined)} />}
      <ConfirmDialog
        {...deletion.dialog}
        title={t('tags.deleteTitle', { name: deletion.target?.name ?? '' })}
        message={t('tags.deleteMessage')}
      />
    </>
  );
}
