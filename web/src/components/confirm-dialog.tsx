import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useTranslation } from 'react-i18next';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  message: string;
  busy?: boolean;
  /** Red for what cannot be undone (the default), primary for a step that can. */
  confirmColor?: 'error' | 'primary';
  onConfirm: () => void;
  onClose: () => void;
}

export function ConfirmDialog({ open, title, message, busy, confirmColor = 'error', onConfirm, onClose }: ConfirmDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs">
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText>{message}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} color="inherit">
          {t('common.cancel')}
        </Button>
        <Button onClick={onConfirm} color={confirmColor} variant="contained" loading={busy} data-testid="confirm-dialog-confirm">
          {t('common.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
