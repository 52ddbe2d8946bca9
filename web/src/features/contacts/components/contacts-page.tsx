import type { Contact } from '@conversa/functions/contracts/contacts';
import type { OtherOpenTicketError } from '@conversa/functions/contracts/ticket-requests';
import Add from '@mui/icons-material/Add';
import DeleteForeverOutlined from '@mui/icons-material/DeleteForeverOutlined';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Download from '@mui/icons-material/FileDownloadOutlined';
import SaveAlt from '@mui/icons-material/SaveAltOutlined';
import WhatsApp from '@mui/icons-material/WhatsApp';
import { Avatar, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Menu, MenuItem, Stack } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { EmptyTableHint } from '../../../components/empty-state.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { RowAction } from '../../../components/row-actions.tsx';
import { SearchField } from '../../../components/search-field.tsx';
import { useConfirmedDelete } from '../../../components/use-confirmed-delete.ts';
import { useDebouncedValue } from '../../../hooks/use-debounced-value.ts';
import { isAdmin, useAuth } from '../../../lib/auth/auth-provider.tsx';
import { contactSearchParam } from '../../../lib/lookups/contacts.ts';
import { formatPhoneNumber } from '../../../lib/phone-numbers.ts';
import { toast } from '../../../lib/toast.ts';
import { useErrorToast } from '../../../lib/use-api-error.ts';
import { downloadContactData } from '../api/contact-data.ts';
import { fetchAllContacts, useContacts, useDeleteContact } from '../api/contacts.ts';
import { CONTACTS_CSV_NAME, contactsCsv, downloadText } from '../api/export-csv.ts';
import { useOpenTicket } from '../api/open-ticket.ts';
import { ContactDialog } from './contact-dialog.tsx';
import { ContactsImport } from './contacts-import.tsx';
import { ContactsPhoneImport } from './contacts-phone-import.tsx';
import { EraseContactDialog } from './erase-contact-dialog.tsx';

/** SPEC 2 "Contacts": searchable infinite list, add, edit, delete, import, CSV export, open a ticket. */
export function ContactsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useAuth();
  const admin = isAdmin(user);
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(contactSearchParam(search));
  const contacts = useContacts(searchParam);
  const remove = useDeleteContact();
  const deletion = useConfirmedDelete((contact: Contact) => remove.mutateAsync(contact.id), t('contacts.deleted'));
  const openTicket = useOpenTicket(user?.id);
  const showError = useErrorToast();
  const [editing, setEditing] = useState<{ contactId?: number } | undefined>(undefined);
  const [queueMenu, setQueueMenu] = useState<{ anchor: HTMLElement; contact: Contact } | undefined>(undefined);
  const [taken, setTaken] = useState<OtherOpenTicketError | undefined>(undefined);
  const [exporting, setExporting] = useState(false);
  const [erasing, setErasing] = useState<Contact | undefined>(undefined);
  const rows = contacts.data?.pages.flatMap((page) => page.contacts) ?? [];
  const userQueues = user?.queues ?? [];

  const startTicket = async (contact: Contact, queueId: number | null) => {
    setQueueMenu(undefined);
    try {
      const outcome = await openTicket.mutateAsync({ contactId: contact.id, queueId });
      if (outcome.kind === 'taken') setTaken(outcome.other);
      else navigate(`/tickets/${outcome.uuid}`);
    } catch (error) {
      showError(error);
    }
  };

  // A user with several queues picks one; with one it is used; admins may open without a queue.
  const askTicket = (contact: Contact, anchor: HTMLElement) => {
    if (userQueues.length > 1) setQueueMenu({ anchor, contact });
    else void startTicket(contact, userQueues[0]?.id ?? null);
  };

  const exportCsv = async () => {
    setExporting(true);
    try {
      const all = await fetchAllContacts();
      downloadText(CONTACTS_CSV_NAME, contactsCsv(all));
      toast.success(t('contacts.export.done', { count: all.length }));
    } catch (error) {
      showError(error);
    } finally {
      setExporting(false);
    }
  };

  const exportContactData = async (contact: Contact) => {
    try {
      await downloadContactData(contact);
    } catch (error) {
      showError(error);
    }
  };

  const columns: Column<Contact>[] = [
    {
      id: 'avatar',
      label: '',
      hideBelow: 'sm',
      sx: { width: 56 },
      render: (contact) => (
        <Avatar src={contact.profilePicUrl || undefined} alt={contact.name} sx={{ width: 32, height: 32 }}>
          {contact.name.charAt(0).toUpperCase()}
        </Avatar>
      ),
    },
    { id: 'name', label: t('contacts.fields.name'), render: (contact) => contact.name },
    { id: 'number', label: t('contacts.fields.number'), render: (contact) => formatPhoneNumber(contact.number, contact.isGroup) },
    { id: 'email', label: t('contacts.fields.email'), hideBelow: 'md', render: (contact) => contact.email },
    {
      id: 'actions',
      label: t('common.actions'),
      align: 'right',
      sx: { whiteSpace: 'nowrap' },
      render: (contact) => (
        <>
          <RowAction
            label={t('contacts.openTicket')}
            disabled={openTicket.isPending}
            onClick={(event) => askTicket(contact, event.currentTarget)}
          >
            <WhatsApp fontSize="small" />
          </RowAction>
          <RowAction label={t('common.edit')} onClick={() => setEditing({ contactId: contact.id })}>
            <EditOutlined fontSize="small" />
          </RowAction>
          {/* SPEC 6 contacts-page:deleteContact: admins only; so are the data export and erasure (issue 21). */}
          {admin && (
            <>
              <RowAction label={t('common.delete')} onClick={() => deletion.ask(contact)}>
                <DeleteOutline fontSize="small" />
              </RowAction>
              <RowAction label={t('contacts.data.export')} onClick={() => void exportContactData(contact)}>
                <SaveAlt fontSize="small" />
              </RowAction>
              <RowAction label={t('contacts.data.erase')} onClick={() => setErasing(contact)}>
                <DeleteForeverOutlined fontSize="small" color="error" />
              </RowAction>
            </>
          )}
        </>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title={t('contacts.title')}
        actions={
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
            <SearchField value={search} onChange={setSearch} placeholder={t('contacts.searchPlaceholder')} width={320} />
            <ContactsImport />
            <ContactsPhoneImport />
            <Button variant="outlined" startIcon={<Download />} onClick={exportCsv} loading={exporting} sx={{ flexShrink: 0 }}>
              {t('contacts.export.button')}
            </Button>
            <Button variant="contained" startIcon={<Add />} onClick={() => setEditing({})} sx={{ flexShrink: 0 }}>
              {t('contacts.add')}
            </Button>
          </Stack>
        }
      />
      <DataTable
        data-testid="contacts-table"
        columns={columns}
        rows={rows}
        rowKey={(contact) => contact.id}
        pending={contacts.isPending}
        error={contacts.error}
        empty={
          search ? undefined : (
            <EmptyTableHint text={t('emptyStates.contacts')} action={t('emptyStates.contactsAction')} onAction={() => setEditing({})} />
          )
        }
        hasMore={contacts.hasNextPage}
        loadingMore={contacts.isFetchingNextPage}
        onLoadMore={() => void contacts.fetchNextPage()}
      />
      {erasing && <EraseContactDialog contact={erasing} onClose={() => setErasing(undefined)} />}
      {editing && <ContactDialog open contactId={editing.contactId} onClose={() => setEditing(undefined)} />}
      <ConfirmDialog
        {...deletion.dialog}
        title={t('contacts.deleteTitle', { name: deletion.target?.name ?? '' })}
        message={t('contacts.deleteMessage')}
      />
      <Menu open={Boolean(queueMenu)} anchorEl={queueMenu?.anchor} onClose={() => setQueueMenu(undefined)}>
        <MenuItem disabled dense>
          {t('contacts.ticket.chooseQueue')}
        </MenuItem>
        {userQueues.map((queue) => (
          <MenuItem key={queue.id} onClick={() => queueMenu && void startTicket(queueMenu.contact, queue.id)}>
            {queue.name}
          </MenuItem>
        ))}
      </Menu>
      <Dialog open={Boolean(taken)} onClose={() => setTaken(undefined)} maxWidth="xs">
        <DialogTitle>{t('contacts.ticket.takenTitle')}</DialogTitle>
        <DialogContent>
          <DialogContentText>
            {t('contacts.ticket.takenMessage', {
              user: taken?.user?.name ?? t('contacts.ticket.someone'),
              queue: taken?.queue?.name ?? t('contacts.ticket.noQueue'),
            })}
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setTaken(undefined)}>{t('contacts.import.close')}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
