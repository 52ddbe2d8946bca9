import ContentCopy from '@mui/icons-material/ContentCopy';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  InputAdornment,
  TextField,
  Tooltip,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../lib/toast.ts';

/** The signing secret, shown once (after create or rotate): the server never shows it again. */
export function SecretDialog({ secret, onClose }: { secret: string; onClose: () => void }) {
  const { t } = useTranslation();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      toast.success(t('webhooks.secret.copied'));
    } catch {
      toast.error(t('errors.generic'));
    }
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" data-testid="webhook-secret-dialog">
      <DialogTitle>{t('webhooks.secret.title')}</DialogTitle>
      <DialogContent dividers>
        <Alert severity="warning" sx={{ mb: 2 }}>
          {t('webhooks.secret.once')}
        </Alert>
        <TextField
          label={t('webhooks.secret.label')}
          value={secret}
          fullWidth
          slotProps={{
            htmlInput: { readOnly: true, 'data-testid': 'webhook-secret', style: { fontFamily: 'monospace' } },
            input: {
              endAdornment: (
                <InputAdornment position="end">
                  <Tooltip title={t('webhooks.secret.copy')}>
                    <IconButton aria-label={t('webhooks.secret.copy')} onClick={() => void copy()} edge="end">
                      <ContentCopy fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </InputAdornment>
              ),
            },
          }}
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
