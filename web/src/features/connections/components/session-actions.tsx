import type { Connection } from '@conversa/functions/contracts';
import { Button, Stack } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { toast } from '../../../lib/toast.ts';
import { useErrorToast } from '../../../lib/use-api-error.ts';
import { type SessionAction, useSessionAction } from '../api/connections.ts';
import { sessionButtonsFor } from '../api/session-rules.ts';

export function SessionActions({ connection, onShowQr }: { connection: Connection; onShowQr: () => void }) {
  const { t } = useTranslation();
  const action = useSessionAction();
  const showError = useErrorToast();
  const run = (kind: SessionAction) => action.mutate({ id: connection.id, action: kind }, { onError: showError });
  const busy = action.isPending;
  // Disconnect logs the phone out of WhatsApp: asked first, confirmed after.
  const [confirmingDisconnect, setConfirmingDisconnect] = useState(false);
  const disconnect = () =>
    action.mutate(
      { id: connection.id, action: 'disconnect' },
      {
        onSuccess: () => {
          setConfirmingDisconnect(false);
          toast.success(t('connections.disconnected'));
        },
        onError: showError,
      },
    );

  return (
    <Stack direction="row" spacing={1} sx={{ justifyContent: 'center' }}>
      <ConfirmDialog
        open={confirmingDisconnect}
        title={t('connections.disconnectTitle', { name: connection.name })}
        message={t('connections.disconnectMessage')}
        busy={busy}
        onConfirm={disconnect}
        onClose={() => setConfirmingDisconnect(false)}
      />
      {sessionButtonsFor(connection.status).map((button) => {
        switch (button) {
          case 'qr':
            return (
              <Button key={button} size="small" variant="contained" onClick={onShowQr}>
                {t('connections.buttons.qrcode')}
              </Button>
            );
          case 'start':
            return (
              <Button key={button} size="small" variant="contained" disabled={busy} onClick={() => run('start')}>
                {t('connections.buttons.tryAgain')}
              </Button>
            );
          case 'newQr':
            return (
              <Button key={button} size="small" variant="outlined" color="secondary" disabled={busy} onClick={() => run('newQr')}>
                {t('connections.buttons.newQr')}
              </Button>
            );
          case 'disconnect':
            return (
              <Button
                key={button}
                size="small"
                variant="outlined"
                color="secondary"
                disabled={busy}
                onClick={() => setConfirmingDisconnect(true)}
              >
                {t('connections.buttons.disconnect')}
              </Button>
            );
          case 'connecting':
            return (
              <Button key={button} size="small" variant="outlined" disabled startIcon={<Spinner size={14} />}>
                {t('connections.buttons.connecting')}
              </Button>
            );
          default:
            return null;
        }
      })}
    </Stack>
  );
}
