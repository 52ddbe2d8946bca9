import type { Queue } from '@conversa/functions/contracts';
import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import {
  Box,
  Button,
  CircularProgress,
  IconButton,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tooltip,
} from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { toast } from '../../../lib/toast.ts';
import { useApiErrorMessage, useErrorToast } from '../../../lib/use-api-error.ts';
import { useDeleteQueue, useQueues } from '../api/queues.ts';
import { QueueDialog } from './queue-dialog.tsx';

const COLUMNS = 6;

/** SPEC 2 "Queues": id, name, colour, order, greeting, actions. */
export function QueuesPage() {
  const { t } = useTranslation();
  const queues = useQueues();
  const remove = useDeleteQueue();
  const showError = useErrorToast();
  const errorText = useApiErrorMessage();
  const [editing, setEditing] = useState<{ queue: Queue | undefined } | undefined>(undefined);
  const [deleting, setDeleting] = useState<Queue | undefined>(undefined);
  const rows = queues.data ?? [];

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      toast.success(t('queues.deleted'));
    } catch (error) {
      showError(error);
    } finally {
      setDeleting(undefined);
    }
  };

  return (
    <>
      <PageHeader
        title={t('queues.title')}
        actions={
          <Button variant="contained" startIcon={<Add />} onClick={() => setEditing({ queue: undefined })}>
            {t('queues.add')}
          </Button>
        }
      />
      <TableContainer component={Paper} variant="outlined">
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{t('queues.fields.id')}</TableCell>
              <TableCell>{t('queues.fields.name')}</TableCell>
              <TableCell align="center">{t('queues.fields.color')}</TableCell>
              <TableCell align="center">{t('queues.fields.orderQueue')}</TableCell>
              <TableCell>{t('queues.fields.greetingMessage')}</TableCell>
              <TableCell align="right">{t('common.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((queue) => (
              <TableRow key={queue.id} hover>
                <TableCell>{queue.id}</TableCell>
                <TableCell>{queue.name}</TableCell>
                <TableCell align="center">
                  <Box
                    component="span"
                    title={queue.color}
                    sx={{ display: 'inline-block', width: 60, height: 20, borderRadius: 0.5, bgcolor: queue.color }}
                  />
                </TableCell>
                <TableCell align="center">{queue.orderQueue ?? ''}</TableCell>
                <TableCell sx={{ maxWidth: 320, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                  {queue.greetingMessage}
                </TableCell>
                <TableCell align="right">
                  <Tooltip title={t('common.edit')}>
                    <IconButton size="small" onClick={() => setEditing({ queue })}>
                      <EditOutlined fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={t('common.delete')}>
                    <IconButton size="small" onClick={() => setDeleting(queue)}>
                      <DeleteOutline fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </TableCell>
              </TableRow>
            ))}
            {queues.isPending && (
              <TableRow>
                <TableCell colSpan={COLUMNS} align="center">
                  <CircularProgress size={24} />
                </TableCell>
              </TableRow>
            )}
            {queues.isError && (
              <TableRow>
                <TableCell colSpan={COLUMNS} align="center" sx={{ color: 'error.main' }}>
                  {errorText(queues.error)}
                </TableCell>
              </TableRow>
            )}
            {queues.isSuccess && rows.length === 0 && (
              <TableRow>
                <TableCell colSpan={COLUMNS} align="center" sx={{ color: 'text.secondary' }}>
                  {t('common.noRecords')}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      {editing && <QueueDialog queue={editing.queue} onClose={() => setEditing(undefined)} />}
      <ConfirmDialog
        open={Boolean(deleting)}
        title={t('queues.deleteTitle', { name: deleting?.name ?? '' })}
        message={t('queues.deleteMessage')}
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(undefined)}
      />
    </>
  );
}
