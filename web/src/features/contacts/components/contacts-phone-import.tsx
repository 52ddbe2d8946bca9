import PhoneAndroid from '@mui/icons-material/PhoneAndroidOutlined';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../lib/toast.ts';
import { useErrorToast } from '../../../lib/use-api-error.ts';
import { useImportPhoneContacts } from '../api/import-contacts.ts';

/**
 * Import from the phone (SPEC 2 Contacts "import"): after a confirmation, asks the server to import
 * the default connection's phone contacts and says it started; they show in the list live, through
 * the contact events, since a phone may hold thousands.
 */
export function ContactsPhoneImport() {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  const start = useImportPhoneContacts();
  const showError = useErrorToast();

  const confirm = async () => {
    try {
      await start.mutateAsync();
      toast.success(t('contacts.importPhone.started'));
    } catch (error) {
      showError(error);
    } finally {
      setConfirming(false);
    }
  };

  return (
    <>
      <Button variant="outlined" startIcon={<PhoneAndroid />} onClick={() => setConfirming(true)} sx={{ flexShrink: 0 }}>
        {t('contacts.importPhone.button')}
      </Button>
      <Dialog open={confirming} onClose={() => setConfirming(false)} maxWidth="xs">
        <DialogTitle>{t('contacts.importPhone.confirmTitle')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{t('contacts.importPhone.confirmMessage')}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirming(false)} color="inherit">
            {t('common.cancel')}
          </Button>
          <Button onClick={confirm} variant="contained" loading={start.isPending}>
            {t('common.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
