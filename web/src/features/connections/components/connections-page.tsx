import type { Connection } from '@conversa/functions/contracts';
import Add from '@mui/icons-material/Add';
import CheckCircle from '@mui/icons-material/CheckCircle';
import { Button } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { EmptyTableHint } from '../../../components/empty-state.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { EditDeleteActions } from '../../../components/row-actions.tsx';
import { useConfirmedDelete } from '../../../components/use-confirmed-delete.ts';
import { isAdmin, useAuth } from '../../../lib/auth/auth-provider.tsx';
import { useConnections } from '../../../lib/lookups/connections.ts';
import { useDeleteConnection } from '../api/connections.ts';
import { formatUpdatedAt } from '../api/session-rules.ts';
import { ConnectionDialog } from './connection-dialog.tsx';
import { ConnectionStatusIcon } from './connection-status.tsx';
import { QrModal } from './qr-modal.tsx';
import { SessionActions } from './session-actions.tsx';

export function ConnectionsPage() {
  const { t, i18n } = useTranslation();
  const { user } = useAuth();
  // Permission keys connections-page:addConnection, :actionButtons, :editOrDeleteConnection (SPEC 6): admins.
  const admin = isAdmin(user);
  const connections = useConnections();
  const remove = useDeleteConnection();
  const deletion = useConfirmedDelete((connection: Connection) => remove.mutateAsync(connection.id), t('connections.deleted'));
  const [editing, setEditing] = useState<{ id: number | undefined } | undefined>(undefined);
  const [qrFor, setQrFor] = useState<number | undefined>(undefined);

  const adminOnly = (column: Column<Connection>) => (admin ? [column] : []);
  const columns: Column<Connection>[] = [
    { id: 'name', label: t('connections.fields.name'), render: (connection) => connection.name },
    {
      id: 'status',
      label: t('connections.columns.status'),
      align: 'center',
      render: (connection) => <ConnectionStatusIcon status={connection.status} />,
    },
    ...adminOnly({
      id: 'session',
      label: t('connections.columns.session'),
      align: 'center',
      render: (connection) => <SessionActions connection={connection} onShowQr={() => setQrFor(connection.id)} />,
    }),
    {
      id: 'lastUpdate',
      label: t('connections.columns.lastUpdate'),
      align: 'center',
      render: (connection) => formatUpdatedAt(connection.updatedAt, i18n.language),
    },
    {
      id: 'default',
      label: t('connections.columns.default'),
      align: 'center',
      render: (connection) =>
        connection.isDefault && <CheckCircle color="success" fontSize="small" aria-label={t('connections.columns.default')} />,
    },
    ...adminOnly({
      id: 'actions',
      label: t('common.actions'),
      align: 'right',
      render: (connection) => (
        <EditDeleteActions onEdit={() => setEditing({ id: connection.id })} onDelete={() => deletion.ask(connection)} />
      ),
    }),
  ];

  return (
    <>
      <PageHeader
        title={t('connections.title')}
        actions={
          admin && (
            <Button variant="contained" startIcon={<Add />} onClick={() => setEditing({ id: undefined })}>
              {t('connections.add')}
            </Button>
          )
        }
      />
      <DataTable
        columns={columns}
        rows={connections.data ?? []}
        rowKey={(connection) => connection.id}
        rowTestId={(connection) => `connection-row-${connection.id}`}
        pending={connections.isPending}
        error={connections.error}
        empty={
          <EmptyTableHint
            text={t('emptyStates.connections')}
            action={admin ? t('emptyStates.connectionsAction') : undefined}
            onAction={() => setEditing({ id: undefined })}
          />
        }
        maxHeight="none"
      />
      {editing && <ConnectionDialog connectionId={editing.id} onClose={() => setEditing(undefined)} />}
      {qrFor !== undefined && user && <QrModal connectionId={qrFor} companyId={user.companyId} onClose={() => setQrFor(undefined)} />}
      <ConfirmDialog
        {...deletion.dialog}
        title={t('connections.deleteTitle', { name: deletion.target?.name ?? '' })}
        message={t('connections.deleteMessage')}
      />
    </>
  );
}
