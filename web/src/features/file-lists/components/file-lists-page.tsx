import Add from '@mui/icons-material/Add';
import { Button } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { EditDeleteActions } from '../../../components/row-actions.tsx';
import { SearchField } from '../../../components/search-field.tsx';
import { useConfirmedDelete } from '../../../components/use-confirmed-delete.ts';
import { useDebouncedValue } from '../../../hooks/use-debounced-value.ts';
import { useAuth } from '../../../lib/auth/auth-provider.tsx';
import { useFileListsLive } from '../../../lib/lookups/file-lists.ts';
import { type FileList, useDeleteFileList, useFileListsPages } from '../api/file-lists.ts';
import { FileListDialog } from './file-list-dialog.tsx';

/** SPEC 2 "Files": the company's file lists (a campaign may attach one), with add, edit and delete. */
export function FileListsPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  useFileListsLive(user?.companyId);
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim());
  const lists = useFileListsPages(searchParam);
  const remove = useDeleteFileList();
  const deletion = useConfirmedDelete((list: FileList) => remove.mutateAsync(list.id), t('fileLists.deleted'));
  const [editing, setEditing] = useState<{ record: FileList | undefined } | undefined>(undefined);
  const rows = lists.data?.pages.flatMap((page) => page.files) ?? [];

  const columns: Column<FileList>[] = [
    { id: 'name', label: t('fileLists.fields.name'), render: (list) => list.name },
    { id: 'files', label: t('fileLists.fields.files'), align: 'center', render: (list) => list.options?.length ?? 0 },
    {
      id: 'actions',
      label: t('common.actions'),
      align: 'right',
      sx: { whiteSpace: 'nowrap' },
      render: (list) => <EditDeleteActions onEdit={() => setEditing({ record: list })} onDelete={() => deletion.ask(list)} />,
    },
  ];

  return (
    <>
      <PageHeader
        title={t('fileLists.title')}
        actions={
          <>
            <SearchField value={search} onChange={setSearch} />
            <Button variant="contained" startIcon={<Add />} onClick={() => setEditing({ record: undefined })} sx={{ flexShrink: 0 }}>
              {t('fileLists.add')}
            </Button>
          </>
        }
      />
      <DataTable
        data-testid="file-lists-table"
        columns={columns}
        rows={rows}
        rowKey={(list) => list.id}
        pending={lists.isPending}
        error={lists.error}
        hasMore={lists.hasNextPage}
        loadingMore={lists.isFetchingNextPage}
        onLoadMore={() => void lists.fetchNextPage()}
      />
      {editing && <FileListDialog fileList={editing.record} onClose={() => setEditing(undefined)} />}
      <ConfirmDialog
        {...deletion.dialog}
        title={t('fileLists.deleteTitle', { name: deletion.target?.name ?? '' })}
        message={t('fileLists.deleteMessage')}
      />
    </>
  );
}
