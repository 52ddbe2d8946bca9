import type { Connection } from '@conversa/functions/contracts';
import Add from '@mui/icons-material/Add';
import CheckCircle from '@mui/icons-material/CheckCircle';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import {
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
import { isAdmin, useAuth } from '../../../lib/auth/auth-provider.tsx';
import { toast } from '../../../lib/toast.ts';
import { useApiErrorMessage, useErrorToast } from '../../../lib/use-api-error.ts';
import { useConnections, useDeleteConnection } from '../api/connections.ts';
import { formatUpdatedAt } from '../api/session-rules.ts';
import { ConnectionDialog } from './connection-dialog.tsx';
import { ConnectionStatusIcon } from './connection-status.tsx';
import { QrModal } from './qr-modal.tsx';
import { SessionActions } from './session-actions.tsx';

const COLUMNS = 6;

export function ConnectionsPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  // Permission keys connections-page:addConnection, :actionButtons, :editOrDeleteConnection (SPEC 6): admins.
  const admin = isAdmin(user);
  const connections = useConnections();
  const remove = useDeleteConnection();
  const showError = useErrorToast();
  const errorText = useApiErrorMessage();
  const [editing, setEditing] = useState<{ id: number | undefined } | undefined>(undefined);
  const [deleting, setDeleting] = useState<Connection | undefined>(undefined);
  const [qrFor, setQrFor] = useState<number | undefined>(undefined);
  const rows = connections.data ?? [];

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      toast.success(t('connections.deleted'));
    } catch (error) {
      showError(error);
    } finally {
      setDeleting(undefined);
    }
  };

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
      <TableContainer component={Paper} variant="outlined">
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{t('connections.fields.name')}</TableCell>
              <TableCell align="center">{t('connections.columns.status')}</TableCell>
              {admin && <TableCell align="center">{t('connections.columns.session')}</TableCell>}
              <TableCell align="center">{t('connections.columns.lastUpdate')}</TableCell>
              <TableCell align="center">{t('connections.columns.default')}</TableCell>
              {admin && <TableCell align="right">{t('common.actions')}</TableCell>}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((connection) => (
              <TableRow key={connection.id} hover data-testid={`connection-row-${connection.id}`}>
                <TableCell>{connection.name}</TableCell>
                <TableCell align="center">
                  <ConnectionStatusIcon status={connection.status} />
                </TableCell>
                {admin && (
                  <TableCell align="center">
                    <SessionActions connection={connection} onShowQr={() => setQrFor(connection.id)} />
                  </TableCell>
                )}
                <TableCell align="center">{formatUpdatedAt(connection.updatedAt)}</TableCell>
                <TableCell align="center">
                  {connection.isDefault && <CheckCircle color="success" fontSize="small" aria-label={t('connections.columns.default')} />}
                </TableCell>
                {admin && (
                  <TableCell align="right">
                    <Tooltip title={t('common.edit')}>
                      <IconButton size="small" onClick={() => setEditing({ id: connection.id })}>
                        <EditOutlined fontSize="small" />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title={t('common.delete')}>
                      <IconButton size="small" onClick={() => setDeleting(connection)}>
                        <DeleteOutline fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </TableCell>
                )}
              </TableRow>
            ))}
            {connections.isPending && (
              <TableRow>
                <TableCell colSpan={COLUMNS} align="center">
                  <CircularProgress size={24} />
                </TableCell>
              </TableRow>
            )}
            {connections.isError && (
              <TableRow>
                <TableCell colSpan={COLUMNS} align="center" sx={{ color: 'error.main' }}>
                  {errorText(connections.error)}
                </TableCell>
              </TableRow>
            )}
            {connections.isSuccess && rows.length === 0 && (
              <TableRow>
                <TableCell colSpan={COLUMNS} align="center" sx={{ color: 'text.secondary' }}>
                  {t('common.noRecords')}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      {editing && <ConnectionDialog connectionId={editing.id} onClose={() => setEditing(undefined)} />}
      {qrFor !== undefined && user && <QrModal connectionId={qrFor} companyId={user.companyId} onClose={() => setQrFor(undefined)} />}
      <ConfirmDialog
        open={Boolean(deleting)}
        title={t('connections.deleteTitle', { name: deleting?.name ?? '' })}
        message={t('connections.deleteMessage')}
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(undefined)}
      />
    </>
  );
}
