import type { Ticket } from '@conversa/functions/contracts/tickets';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface SpyDialogProps {
  ticket: Ticket | null;
  onClose: () => void;
  /** The read-only messages (messages feature), composed by the app. */
  children: (ticket: Ticket) => ReactNode;
  /** A pending ticket can be accepted from here. */
  onAccept?: (ticket: Ticket) => void;
  accepting?: boolean;
}

/** SPEC 2/6: the admin's "spy on conversation": the ticket's messages, read-only, without opening it. */
export function SpyDialog({ ticket, onClose, children, onAccept, accepting = false }: SpyDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog open={Boolean(ticket)} onClose={onClose} fullWidth maxWidth="md" data-testid="spy-dialog">
      <DialogTitle>{t('inbox.spyTitle', { name: ticket?.contact.name ?? '' })}</DialogTitle>
      <DialogContent dividers sx={{ p: 0, height: '70vh', display: 'flex', flexDirection: 'column' }}>
        {ticket && children(ticket)}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('inbox.close')}</Button>
        {ticket?.status === 'pending' && onAccept && (
          <Button variant="contained" color="success" loading={accepting} onClick={() => onAccept(ticket)} data-testid="preview-accept">
            {t('inbox.accept')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
