import Add from '@mui/icons-material/Add';
import ArrowBack from '@mui/icons-material/ArrowBack';
import CheckCircle from '@mui/icons-material/CheckCircle';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import HelpOutline from '@mui/icons-material/HelpOutlined';
import RemoveCircleOutline from '@mui/icons-material/RemoveCircleOutlined';
import { Button, IconButton, Stack, Tooltip } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { RowAction } from '../../../components/row-actions.tsx';
import { SearchField } from '../../../components/search-field.tsx';
import { useConfirmedDelete } from '../../../components/use-confirmed-delete.ts';
import { useDebouncedValue } from '../../../hooks/use-debounced-value.ts';
import { isAdmin, useAuth } from '../../../lib/auth/auth-provider.tsx';
import { useContactListItemsLive } from '../../../lib/lookups/contact-lists.ts';
import { type ContactListItem, useContactList, useContactListItems, useDeleteContactListItem } from '../api/contact-lists.ts';
import { ContactItemDialog } from './contact-item-dialog.tsx';
import { ListImport } from './list-import.tsx';

/** SPEC 2 "List contacts": green when the number is on WhatsApp, grey otherwise (a dash until checked). */
function WhatsappMarker({ valid }: { valid: boolean | null }) {
  const { t } = useTranslation();
  const label = t(`contactLists.items.whatsapp.${valid === null ? 'unchecked' : valid ? 'valid' : 'invalid'}`);
  const Icon = valid === null ? HelpOutline : valid ? CheckCircle : RemoveCircleOutline;
  return (
    <Tooltip title={label}>
      <Icon
        fontSize="small"
        sx={{ color: valid ? 'success.main' : 'text.disabled', verticalAlign: 'middle' }}
        aria-label={label}
        data-testid="whatsapp-marker"
        data-valid={String(valid)}
      />
    </Tooltip>
  );
}

/** SPEC 2 "List contacts": list name, back, import, add; table of WhatsApp marker, name, number, email, actions. */
export function ListContactsPage() {
  const { t } = useTranslation();
  const { contactListId: param } = useParams();
  const contactListId = Number(param);
  const { user } = useAuth();
  const admin = isAdmin(user);
  useContactListItemsLive(user?.companyId, contactListId);
  const list = useContactList(contactListId);
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim());
  const items = useContactListItems(contactListId, searchParam);
  const remove = useDeleteContactListItem();
  const deletion = useConfirmedDelete((item: ContactListItem) => remove.mutateAsync(item.id), t('contactLists.items.deleted'));
  const [editing, setEditing] = useState<{ record: ContactListItem | undefined } | undefined>(undefined);
  const rows = items.data?.pages.flatMap((page) => page.contacts) ?? [];

  const columns: Column<ContactListItem>[] = [
    { id: 'valid', label: '', sx: { width: 40 }, render: (item) => <WhatsappMarker valid={item.isWhatsappValid} /> },
    { id: 'name', label: t('contactLists.items.fields.name'), render: (item) => item.name },
    { id: 'number', label: t('contactLists.items.fields.number'), render: (item) => item.number },
    { id: 'email', label: t('contactLists.items.fields.email'), hideBelow: 'md', render: (item) => item.email || '-' },
    {
      id: 'actions',
      label: t('common.actions'),
      align: 'right',
      sx: { whiteSpace: 'nowrap' },
      // The API lets admins delete a list's contact (SPEC 2 "delete for permitted roles").
      render: (item) => (
        <>
          <RowAction label={t('common.edit')} onClick={() => setEditing({ record: item })}>
            <EditOutlined fontSize="small" />
          </RowAction>
          <RowAction label={t('common.delete')} onClick={() => deletion.ask(item)} disabled={!admin}>
            <DeleteOutline fontSize="small" />
          </RowAction>
        </>
      ),
    },
  ];

  return (
    <>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
        <Tooltip title={t('contactLists.back')}>
          <IconButton component={RouterLink} to="/contact-lists" aria-label={t('contactLists.back')} size="small">
            <ArrowBack />
          </IconButton>
        </Tooltip>
      </Stack>
      <PageHeader
        title={list.data?.name ?? t('contactLists.items.title')}
        actions={
          <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1, alignItems: 'center' }}>
            <SearchField value={search} onChange={setSearch} width={220} />
            <ListImport contactListId={contactListId} />
            <Button variant="contained" startIcon={<Add />} onClick={() => setEditing({ record: undefined })} sx={{ flexShrink: 0 }}>
              {t('contactLists.items.add')}
            </Button>
          </Stack>
        }
      />
      <DataTable
        data-testid="list-contacts-table"
        columns={columns}
        rows={rows}
        rowKey={(item) => item.id}
        rowTestId={() => 'list-contact'}
        pending={items.isPending}
        error={items.error ?? list.error}
        hasMore={items.hasNextPage}
        loadingMore={items.isFetchingNextPage}
        onLoadMore={() => void items.fetchNextPage()}
      />
      {editing && <ContactItemDialog contactListId={contactListId} item={editing.record} onClose={() => setEditing(undefined)} />}
      <ConfirmDialog
        {...deletion.dialog}
        title={t('contactLists.items.deleteTitle', { name: deletion.target?.name ?? '' })}
        message={t('contactLists.items.deleteMessage')}
      />
    </>
  );
}
