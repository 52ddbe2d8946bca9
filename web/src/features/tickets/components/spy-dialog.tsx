import type { Ticket } from '@conversa/functions/contracts/tickets';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { MessageList } from '../../messages/components/message-list.tsx';

/** SPEC 2/6: the admin's "spy on conversation": the ticket's messages, read-only, without opening it. */
export function SpyDialog({ ticket, onClose }: { ticket: Ticket | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog open={Boolean(ticket)} onClose={onClose} fullWidth maxWidth="md" data-testid="spy-dialog">
      <DialogTitle>{t('inbox.spyTitle', { name: ticket?.contact.name ?? '' })}</DialogTitle>
      <DialogContent dividers sx={{ p: 0, height: '70vh', display: 'flex', flexDirection: 'column' }}>
        {ticket && <MessageList ticketId={ticket.id} isGroup={ticket.isGroup} readOnly />}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('inbox.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
