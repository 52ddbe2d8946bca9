import type { Connection } from '@conversa/functions/contracts';
import { Button, CircularProgress, Stack } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useErrorToast } from '../../../lib/use-api-error.ts';
import { type SessionAction, useSessionAction } from '../api/connections.ts';
import { sessionButtonsFor } from '../api/session-rules.ts';

export function SessionActions({ connection, onShowQr }: { connection: Connection; onShowQr: () => void }) {
  const { t } = useTranslation();
  const action = useSessionAction();
  const showError = useErrorToast();
  const run = (kind: SessionAction) => action.mutate({ id: connection.id, action: kind }, { onError: showError });
  const busy = action.isPending;

  return (
    <Stack direction="row" spacing={1} sx={{ justifyContent: 'center' }}>
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
              <Button key={button} size="small" variant="outlined" color="secondary" disabled={busy} onClick={() => run('disconnect')}>
                {t('connections.buttons.disconnect')}
              </Button>
            );
          case 'connecting':
            return (
              <Button key={button} size="small" variant="outlined" disabled startIcon={<CircularProgress size={14} />}>
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
