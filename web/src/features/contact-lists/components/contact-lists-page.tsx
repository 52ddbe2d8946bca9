import Add from '@mui/icons-material/Add';
import Download from '@mui/icons-material/FileDownloadOutlined';
import People from '@mui/icons-material/PeopleAltOutlined';
import { Button } from '@mui/material';
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
import { useContactListsLive } from '../../../lib/lookups/contact-lists.ts';
import { useErrorToast } from '../../../lib/use-api-error.ts';
import { type ContactList, useContactListsPages, useDeleteContactList } from '../api/contact-lists.ts';
import { downloadSampleSheet } from '../api/list-import.ts';
import { ContactListDialog } from './contact-list-dialog.tsx';

/** SPEC 2 "Contact lists": name, contact count, actions (sample sheet, contacts, edit, delete); search, add. */
export function ContactListsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useAuth();
  useContactListsLive(user?.companyId);
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim());
  const lists = useContactListsPages(searchParam);
  const remove = useDeleteContactList();
  const deletion = useConfirmedDelete((list: ContactList) => remove.mutateAsync(list.id), t('contactLists.deleted'));
  const [editing, setEditing] = useState<{ record: ContactList | undefined } | undefined>(undefined);
  const showError = useErrorToast();
  const rows = lists.data?.pages.flatMap((page) => page.records) ?? [];

  const columns: Column<ContactList>[] = [
    { id: 'name', label: t('contactLists.fields.name'), render: (list) => list.name },
    { id: 'count', label: t('contactLists.fields.contacts'), align: 'center', render: (list) => list.contactsCount },
    {
      id: 'actions',
      label: t('common.actions'),
      align: 'right',
      sx: { whiteSpace: 'nowrap' },
      render: (list) => (
        <>
          <RowAction label={t('contactLists.sample')} onClick={() => void downloadSampleSheet().catch(showError)}>
            <Download fontSize="small" />
          </RowAction>
          <RowAction label={t('contactLists.openContacts')} onClick={() => navigate(`/contact-lists/${list.id}/contacts`)}>
            <People fontSize="small" />
          </RowAction>
          <EditDeleteActions onEdit={() => setEditing({ record: list })} onDelete={() => deletion.ask(list)} />
        </>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title={t('contactLists.title')}
        actions={
          <>
            <SearchField value={search} onChange={setSearch} />
            <Button variant="contained" startIcon={<Add />} onClick={() => setEditing({ record: undefined })} sx={{ flexShrink: 0 }}>
              {t('contactLists.add')}
            </Button>
          </>
        }
      />
      <DataTable
        data-testid="contact-lists-table"
        columns={columns}
        rows={rows}
        rowKey={(list) => list.id}
        rowTestId={(list) => `contact-list-${list.id}`}
        pending={lists.isPending}
        error={lists.error}
        hasMore={lists.hasNextPage}
        loadingMore={lists.isFetchingNextPage}
        onLoadMore={() => void lists.fetchNextPage()}
      />
      {editing && <ContactListDialog contactList={editing.record} onClose={() => setEditing(undefined)} />}
      <ConfirmDialog
        {...deletion.dialog}
        title={t('contactLists.deleteTitle', { name: deletion.target?.name ?? '' })}
        message={t('contactLists.deleteMessage')}
      />
    </>
  );
}
