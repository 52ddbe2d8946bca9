import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { SecretField } from '../../../components/secret-field.tsx';

/** The signing secret, shown once (after create or rotate): the server never shows it again. */
export function SecretDialog({ secret, onClose }: { secret: string; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" data-testid="webhook-secret-dialog">
      <DialogTitle>{t('webhooks.secret.title')}</DialogTitle>
      <DialogContent dividers>
        <Alert severity="warning" sx={{ mb: 2 }}>
          {t('webhooks.secret.once')}
        </Alert>
        <SecretField
          label={t('webhooks.secret.label')}
          value={secret}
          testId="webhook-secret"
          copyLabel={t('webhooks.secret.copy')}
          copiedMessage={t('webhooks.secret.copied')}
        />
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose}>
          {t('webhooks.secret.done')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
