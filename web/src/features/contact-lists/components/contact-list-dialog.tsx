import { contactListInputSchema } from '@conversa/functions/contracts/contact-lists';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../lib/toast.ts';
import { useErrorToast } from '../../../lib/use-api-error.ts';
import { fieldErrors } from '../../../lib/validation.ts';
import { type ContactList, useSaveContactList } from '../api/contact-lists.ts';

/** SPEC 5 "Contact list: name 2-50 required". */
export function ContactListDialog({ contactList, onClose }: { contactList: ContactList | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState(contactList?.name ?? '');
  const [error, setError] = useState<string | undefined>(undefined);
  const save = useSaveContactList();
  const showError = useErrorToast();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = contactListInputSchema.safeParse({ name });
    if (!parsed.success) {
      setError(fieldErrors<{ name: string }>(parsed.error.issues, t).name);
      return;
    }
    try {
      await save.mutateAsync({ id: contactList?.id, input: parsed.data });
      toast.success(t('contactLists.saved'));
      onClose();
    } catch (failure) {
      showError(failure);
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" data-testid="contact-list-dialog">
      <form onSubmit={submit} noValidate>
        <DialogTitle>{contactList ? t('contactLists.editTitle') : t('contactLists.addTitle')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              label={t('contactLists.fields.name')}
              name="name"
              value={name}
              onChange={(e) => {
                setName(e.target.value);
                setError(undefined);
              }}
              error={Boolean(error)}
              helperText={error}
              autoFocus
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} color="inherit">
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={save.isPending}>
            {contactList ? t('common.save') : t('common.add')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
