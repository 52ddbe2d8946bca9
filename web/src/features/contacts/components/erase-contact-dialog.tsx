import type { Contact } from '@conversa/functions/contracts/contacts';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../lib/toast.ts';
import { useErrorToast } from '../../../lib/use-api-error.ts';
import { useEraseContact } from '../api/contact-data.ts';

const digits = (value: string) => value.replace(/\D/g, '');

/**
 * Erasing a contact cannot be undone and takes its whole history: the admin types the contact's
 * number (mask characters ignored) before the button is enabled, as the API checks it again.
 */
export function EraseContactDialog({ contact, onClose }: { contact: Contact; onClose: () => void }) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const erase = useEraseContact();
  const showError = useErrorToast();
  const matches = typed.trim() === contact.number || (digits(typed) !== '' && digits(typed) === contact.number);

  const confirm = async () => {
    try {
      await erase.mutateAsync({ contactId: contact.id, confirmNumber: typed });
      toast.success(t('contacts.data.erased', { name: contact.name }));
      onClose();
    } catch (error) {
      showError(error);
    }
  };

  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{t('contacts.data.eraseTitle', { name: contact.name })}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{t('contacts.data.eraseMessage')}</DialogContentText>
        <DialogContentText sx={{ mb: 2 }}>{t('contacts.data.eraseTypeNumber', { number: contact.number })}</DialogContentText>
        <TextField
          autoFocus
          fullWidth
          label={t('contacts.fields.number')}
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          slotProps={{ htmlInput: { 'data-testid': 'erase-contact-number', inputMode: 'tel' } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} color="inherit">
          {t('common.cancel')}
        </Button>
        <Button
          onClick={() => void confirm()}
          color="error"
          variant="contained"
          disabled={!matches}
          loading={erase.isPending}
          data-testid="erase-contact-confirm"
        >
          {t('contacts.data.eraseConfirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
