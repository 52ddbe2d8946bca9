import type { Queue } from '@conversa/functions/contracts';
import Add from '@mui/icons-material/Add';
import { Box, Button } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { EmptyTableHint } from '../../../components/empty-state.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { EditDeleteActions } from '../../../components/row-actions.tsx';
import { useConfirmedDelete } from '../../../components/use-confirmed-delete.ts';
import { useQueues } from '../../../lib/lookups/queues.ts';
import { useDeleteQueue } from '../api/queues.ts';
import { QueueDialog } from './queue-dialog.tsx';

/** SPEC 2 "Queues": id, name, colour, order, greeting, actions. */
export function QueuesPage() {
  const { t } = useTranslation();
  const queues = useQueues();
  const remove = useDeleteQueue();
  const deletion = useConfirmedDelete((queue: Queue) => remove.mutateAsync(queue.id), t('queues.deleted'));
  const [editing, setEditing] = useState<{ queue: Queue | undefined } | undefined>(undefined);

  const columns: Column<Queue>[] = [
    { id: 'id', label: t('queues.fields.id'), render: (queue) => queue.id },
    { id: 'name', label: t('queues.fields.name'), render: (queue) => queue.name },
    {
      id: 'color',
      label: t('queues.fields.color'),
      align: 'center',
      render: (queue) => (
        <Box
          component="span"
          title={queue.color}
          sx={{ display: 'inline-block', width: 60, height: 20, borderRadius: 0.5, bgcolor: queue.color }}
        />
      ),
    },
    { id: 'orderQueue', label: t('queues.fields.orderQueue'), align: 'center', render: (queue) => queue.orderQueue ?? '' },
    {
      id: 'greetingMessage',
      label: t('queues.fields.greetingMessage'),
      sx: { maxWidth: 320, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
      render: (queue) => queue.greetingMessage,
    },
    {
      id: 'actions',
      label: t('common.actions'),
      align: 'right',
      render: (queue) => <EditDeleteActions onEdit={() => setEditing({ queue })} onDelete={() => deletion.ask(queue)} />,
    },
  ];

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
      <DataTable
        columns={columns}
        rows={queues.data ?? []}
        rowKey={(queue) => queue.id}
        pending={queues.isPending}
        error={queues.error}
        empty={
          <EmptyTableHint
            text={t('emptyStates.queues')}
            action={t('emptyStates.queuesAction')}
            onAction={() => setEditing({ queue: undefined })}
          />
        }
        maxHeight="none"
      />
      {editing && <QueueDialog queue={editing.queue} onClose={() => setEditing(undefined)} />}
      <ConfirmDialog
        {...deletion.dialog}
        title={t('queues.deleteTitle', { name: deletion.target?.name ?? '' })}
        message={t('queues.deleteMessage')}
      />
    </>
  );
}
