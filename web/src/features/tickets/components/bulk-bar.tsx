import type { BulkTicketAction, BulkTicketsInput, BulkTicketsResponse } from '@conversa/functions/contracts/ticket-requests';
import Close from '@mui/icons-material/Close';
import {
  Autocomplete,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  MenuItem,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { useQueues } from '../../../lib/lookups/queues.ts';
import { useTagOptions } from '../../../lib/lookups/tags.ts';
import { type UserName, useUserNames } from '../../../lib/lookups/users.ts';
import { toast } from '../../../lib/toast.ts';
import { useErrorToast } from '../../../lib/use-api-error.ts';
import { useBulkTickets } from '../api/tickets.ts';

/** Failures named in the toast; the rest are counted. */
const LISTED_FAILURES = 5;

type Picking = 'assign' | 'transfer' | 'tag' | null;

/**
 * The bar over the ticket list while rows are selected (issue 22 §5): accept them, assign them to a
 * user, transfer them to a queue, resolve them (asked first, as Resolve is) or tag them, in one
 * POST /tickets/bulk. A toast then says how many went through and names the ones that did not, with
 * the reason the server gave for each; the rows that went through leave the selection.
 */
export function BulkBar({ ids, onDone, onClear }: { ids: number[]; onDone: (doneIds: number[]) => void; onClear: () => void }) {
  const { t, i18n } = useTranslation();
  const showError = useErrorToast();
  const bulk = useBulkTickets();
  const [picking, setPicking] = useState<Picking>(null);
  const [confirming, setConfirming] = useState(false);
  const [user, setUser] = useState<UserName | null>(null);
  const [queueId, setQueueId] = useState<number | ''>('');
  const [tagId, setTagId] = useState<number | ''>('');
  const users = useUserNames(picking === 'assign');
  const queues = useQueues(picking === 'transfer');
  const tags = useTagOptions(picking === 'tag');
  const count = ids.length;

  const report = ({ results }: BulkTicketsResponse) => {
    const failed = results.filter((result) => !result.ok);
    const reason = (code = '') => (i18n.exists(`backendErrors.${code}`) ? t(`backendErrors.${code}`) : code);
    if (!failed.length) toast.success(t('bulk.done', { count: results.length }));
    else {
      const listed = failed.slice(0, LISTED_FAILURES).map((result) => t('bulk.failure', { id: result.id, reason: reason(result.error) }));
      const more = failed.length > LISTED_FAILURES ? ` +${failed.length - LISTED_FAILURES}` : '';
      const message = t('bulk.partial', { ok: results.length - failed.length, total: results.length, failures: listed.join('; ') + more });
      (failed.length === results.length ? toast.error : toast.warning)(message);
    }
    onDone(results.filter((result) => result.ok).map((result) => result.id));
  };

  const run = async (action: BulkTicketAction, extra: Omit<BulkTicketsInput, 'ids' | 'action'> = {}) => {
    try {
      report(await bulk.mutateAsync({ ids, action, ...extra }));
      setPicking(null);
    } catch (error) {
      showError(error);
    } finally {
      setConfirming(false);
    }
  };

  const pick = (what: Picking) => {
    setUser(null);
    setQueueId('');
    setTagId('');
    setPicking(what);
  };

  const busy = bulk.isPending;
  const chosen = picking === 'assign' ? user !== null : picking === 'transfer' ? queueId !== '' : tagId !== '';
  const apply = () => {
    if (picking === 'assign' && user) void run('assign', { userId: user.id });
    if (picking === 'transfer' && queueId !== '') void run('transfer', { queueId });
    if (picking === 'tag' && tagId !== '') void run('tag', { tagId });
  };

  return (
    <Stack
      direction="row"
      data-testid="bulk-bar"
      sx={{
        alignItems: 'center',
        flexWrap: 'wrap',
        gap: 0.5,
        px: 1,
        py: 0.5,
        borderBottom: 1,
        borderColor: 'divider',
        bgcolor: 'action.selected',
      }}
    >
      <Tooltip title={t('bulk.clear')}>
        <IconButton size="small" aria-label={t('bulk.clear')} onClick={onClear}>
          <Close fontSize="small" />
        </IconButton>
      </Tooltip>
      <Typography variant="body2" sx={{ mr: 1, fontWeight: 600 }} data-testid="bulk-count">
        {t('bulk.selected', { count })}
      </Typography>
      <Button size="small" disabled={busy} onClick={() => void run('assign')}>
        {t('bulk.accept')}
      </Button>
      <Button size="small" disabled={busy} onClick={() => pick('assign')}>
        {t('bulk.assign')}
      </Button>
      <Button size="small" disabled={busy} onClick={() => pick('transfer')}>
        {t('bulk.transfer')}
      </Button>
      <Button size="small" disabled={busy} onClick={() => pick('tag')}>
        {t('bulk.tag')}
      </Button>
      <Button size="small" variant="contained" disabled={busy} onClick={() => setConfirming(true)}>
        {t('bulk.resolve')}
      </Button>
      <ConfirmDialog
        open={confirming}
        title={t('bulk.resolveTitle', { count })}
        message={t('bulk.resolveMessage')}
        confirmColor="primary"
        busy={busy}
        onConfirm={() => void run('resolve')}
        onClose={() => setConfirming(false)}
      />
      <Dialog open={picking !== null} onClose={() => setPicking(null)} fullWidth maxWidth="xs" data-testid="bulk-dialog">
        <DialogTitle>
          {picking === 'assign' && t('bulk.assignTitle', { count })}
          {picking === 'transfer' && t('bulk.transferTitle', { count })}
          {picking === 'tag' && t('bulk.tagTitle', { count })}
        </DialogTitle>
        <DialogContent>
          <Stack sx={{ pt: 1 }}>
            {picking === 'assign' && (
              <Autocomplete
                options={users.data ?? []}
                value={user}
                onChange={(_, value) => setUser(value)}
                getOptionLabel={(option) => option.name}
                isOptionEqualToValue={(a, b) => a.id === b.id}
                openOnFocus
                renderInput={(params) => <TextField {...params} label={t('bulk.user')} />}
              />
            )}
            {picking === 'transfer' && (
              <TextField
                select
                label={t('bulk.queue')}
                value={queueId}
                onChange={(event) => setQueueId(event.target.value === '' ? '' : Number(event.target.value))}
              >
                {(queues.data ?? []).map((queue) => (
                  <MenuItem key={queue.id} value={queue.id}>
                    {queue.name}
                  </MenuItem>
                ))}
              </TextField>
            )}
            {picking === 'tag' && (
              <TextField
                select
                label={t('bulk.tagLabel')}
                value={tagId}
                onChange={(event) => setTagId(event.target.value === '' ? '' : Number(event.target.value))}
              >
                {(tags.data ?? []).map((tag) => (
                  <MenuItem key={tag.id} value={tag.id}>
                    {tag.name}
                  </MenuItem>
                ))}
              </TextField>
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setPicking(null)} color="inherit">
            {t('common.cancel')}
          </Button>
          <Button variant="contained" onClick={apply} disabled={!chosen} loading={busy}>
            {t('bulk.apply')}
          </Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}
