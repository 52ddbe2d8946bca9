import type { Ticket } from '@conversa/functions/contracts/tickets';
import { Autocomplete, Button, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, Stack, TextField } from '@mui/material';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { isAdmin, useAuth } from '../../../../lib/auth/auth-provider.tsx';
import { useQueues } from '../../../../lib/lookups/queues.ts';
import { type UserName, useUserNames } from '../../../../lib/lookups/users.ts';
import { useErrorToast } from '../../../../lib/use-api-error.ts';
import { useUpdateTicket } from '../../api/tickets.ts';

/** SPEC 5: the transfer's user search starts at 3 characters. */
const USER_SEARCH_MIN = 3;

/**
 * SPEC 4 "Transfer": a queue with no user puts the ticket back to pending without a user; choosing
 * a user assigns it to them. A queue is required.
 */
export function TransferDialog({ ticket, open, onClose }: { ticket: Ticket; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const navigate = useNavigate();
  const showError = useErrorToast();
  const update = useUpdateTicket();
  const users = useUserNames(open);
  // Transfers go to any queue of the company, not only the attendant's own.
  const companyQueues = useQueues(open);
  const queues = companyQueues.data ?? (isAdmin(user) ? [] : (user?.queues ?? []));
  const [search, setSearch] = useState('');
  const [target, setTarget] = useState<UserName | null>(null);
  const [queueId, setQueueId] = useState<number | ''>('');

  useEffect(() => {
    if (!open) return;
    setTarget(null);
    setSearch('');
    setQueueId(ticket.queueId ?? '');
  }, [open, ticket.queueId]);

  const term = search.trim().toLowerCase();
  // Before the 3-character search (SPEC 5) the chosen queue's users are offered at once, so a
  // transfer to a colleague needs no typing; the search then looks through everyone.
  const options =
    term.length >= USER_SEARCH_MIN
      ? (users.data ?? []).filter((u) => u.name.toLowerCase().includes(term))
      : (users.data ?? []).filter((u) => queueId !== '' && u.queueIds?.includes(queueId));

  const submit = async () => {
    if (queueId === '') return;
    try {
      await update.mutateAsync({
        id: ticket.id,
        input: target ? { status: 'open', userId: target.id, queueId } : { status: 'pending', userId: null, queueId },
      });
      onClose();
      navigate('/tickets');
    } catch (error) {
      showError(error);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" data-testid="transfer-dialog">
      <DialogTitle>{t('conversation.transfer.title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Autocomplete
            options={options}
            value={target}
            onChange={(_, value) => setTarget(value)}
            inputValue={search}
            onInputChange={(_, value) => setSearch(value)}
            filterOptions={(all) => all}
            getOptionLabel={(option) => option.name}
            isOptionEqualToValue={(a, b) => a.id === b.id}
            openOnFocus
            noOptionsText={term.length < USER_SEARCH_MIN ? t('conversation.transfer.userHint') : t('conversation.transfer.noUsers')}
            renderInput={(params) => <TextField {...params} label={t('conversation.transfer.user')} />}
          />
          <TextField
            select
            required
            label={t('conversation.transfer.queue')}
            value={queueId}
            onChange={(event) => setQueueId(event.target.value === '' ? '' : Number(event.target.value))}
          >
            {queues.map((queue) => (
              <MenuItem key={queue.id} value={queue.id}>
                {queue.name}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} color="inherit">
          {t('common.cancel')}
        </Button>
        <Button variant="contained" onClick={() => void submit()} disabled={queueId === ''} loading={update.isPending}>
          {t('conversation.transfer.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
