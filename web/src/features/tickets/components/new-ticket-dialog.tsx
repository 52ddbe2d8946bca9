import type { Contact } from '@conversa/functions/contracts/contacts';
import {
  Autocomplete,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  MenuItem,
  Stack,
  TextField,
} from '@mui/material';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useDebouncedValue } from '../../../hooks/use-debounced-value.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { isAdmin, useAuth } from '../../../lib/auth/auth-provider.tsx';
import { useConnections } from '../../../lib/lookups/connections.ts';
import { CONTACT_SEARCH_MIN, useContactSearch } from '../../../lib/lookups/contacts.ts';
import { toast } from '../../../lib/toast.ts';
import { useErrorToast } from '../../../lib/use-api-error.ts';
import { type OtherOpenTicket, useCreateTicket } from '../api/tickets.ts';
import type { QueueChoice } from './queue-select.tsx';

interface NewTicketDialogProps {
  open: boolean;
  queues: QueueChoice[];
  onClose: () => void;
}

/** SPEC 2 "Modals" / 5 "New ticket": a queue is required unless admin; a connection is required. */
export function NewTicketDialog({ open, queues, onClose }: NewTicketDialogProps) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const admin = isAdmin(user);
  const navigate = useNavigate();
  const showError = useErrorToast();
  const create = useCreateTicket();
  const connections = useConnections(open);
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search);
  const contacts = useContactSearch(debounced);
  const [contact, setContact] = useState<Contact | null>(null);
  const [queueId, setQueueId] = useState<number | ''>('');
  const [whatsappId, setWhatsappId] = useState<number | ''>('');
  const [taken, setTaken] = useState<OtherOpenTicket | null>(null);

  useEffect(() => {
    if (!open) return;
    setContact(null);
    setSearch('');
    setQueueId(queues.length === 1 && queues[0] ? queues[0].id : '');
  }, [open, queues]);

  useEffect(() => {
    if (!open || whatsappId !== '' || !connections.data) return;
    const preferred = connections.data.find((c) => c.id === user?.whatsappId) ?? connections.data.find((c) => c.isDefault);
    if (preferred) setWhatsappId(preferred.id);
  }, [open, whatsappId, connections.data, user?.whatsappId]);

  const submit = async () => {
    if (!contact || !user) return;
    if (queueId === '' && !admin) {
      toast.error(t('inbox.newTicketDialog.selectQueue'));
      return;
    }
    if (whatsappId === '') {
      toast.error(t('inbox.newTicketDialog.selectConnection'));
      return;
    }
    try {
      const ticket = await create.mutateAsync({
        contactId: contact.id,
        queueId: queueId === '' ? null : queueId,
        whatsappId,
        userId: user.id,
      });
      onClose();
      navigate(`/tickets/${ticket.uuid}`);
    } catch (error) {
      const body = error instanceof ApiError && error.code === 'ERR_OTHER_OPEN_TICKET' ? (error.body as unknown as OtherOpenTicket) : null;
      if (!body) return showError(error);
      // SPEC 8: someone else attends the contact: say who and where. Ours: just open it.
      if (body.userId !== null && body.userId !== user.id) return setTaken(body);
      onClose();
      if (body.uuid) navigate(`/tickets/${body.uuid}`);
    }
  };

  const options = debounced.trim().length >= CONTACT_SEARCH_MIN ? (contacts.data?.contacts ?? []) : [];
  return (
    <>
      <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" data-testid="new-ticket-dialog">
        <DialogTitle>{t('inbox.newTicketDialog.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Autocomplete
              options={options}
              value={contact}
              onChange={(_, value) => setContact(value)}
              inputValue={search}
              onInputChange={(_, value) => setSearch(value)}
              filterOptions={(all) => all}
              getOptionLabel={(option) => `${option.name} - ${option.number}`}
              isOptionEqualToValue={(a, b) => a.id === b.id}
              loading={contacts.isFetching}
              noOptionsText={
                search.trim().length < CONTACT_SEARCH_MIN ? t('inbox.newTicketDialog.contactHint') : t('inbox.newTicketDialog.noContacts')
              }
              renderInput={(params) => <TextField {...params} label={t('inbox.newTicketDialog.contact')} autoFocus />}
            />
            <TextField
              select
              label={t('inbox.newTicketDialog.queue')}
              value={queueId}
              onChange={(event) => setQueueId(event.target.value === '' ? '' : Number(event.target.value))}
            >
              {admin && <MenuItem value="">{t('inbox.noQueue')}</MenuItem>}
              {queues.map((queue) => (
                <MenuItem key={queue.id} value={queue.id}>
                  {queue.name}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              label={t('inbox.newTicketDialog.connection')}
              value={whatsappId}
              onChange={(event) => setWhatsappId(event.target.value === '' ? '' : Number(event.target.value))}
            >
              {(connections.data ?? []).map((connection) => (
                <MenuItem key={connection.id} value={connection.id}>
                  {connection.name}
                </MenuItem>
              ))}
            </TextField>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} color="inherit">
            {t('common.cancel')}
          </Button>
          <Button variant="contained" onClick={() => void submit()} disabled={!contact} loading={create.isPending}>
            {t('inbox.newTicketDialog.create')}
          </Button>
        </DialogActions>
      </Dialog>
      <Dialog open={Boolean(taken)} onClose={() => setTaken(null)} maxWidth="xs" data-testid="other-open-ticket-dialog">
        <DialogTitle>{t('inbox.otherOpen.title')}</DialogTitle>
        <DialogContent>
          <DialogContentText>
            {t('inbox.otherOpen.message', { user: taken?.user?.name ?? '-', queue: taken?.queue?.name ?? t('inbox.noQueue') })}
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setTaken(null)}>{t('inbox.close')}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
