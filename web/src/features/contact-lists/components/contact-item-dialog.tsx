import { createContactListItemSchema, updateContactListItemSchema } from '@conversa/functions/contracts/contact-lists';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../lib/toast.ts';
import { useErrorToast } from '../../../lib/use-api-error.ts';
import { type FieldErrors, fieldErrors } from '../../../lib/validation.ts';
import { type ContactListItem, useSaveContactListItem } from '../api/contact-lists.ts';

type Fields = { name: string; number: string; email: string };

/** SPEC 5 "Contact list item: name required, 2-50; number 8-50; email valid". */
export function ContactItemDialog({
  contactListId,
  item,
  onClose,
}: {
  contactListId: number;
  item: ContactListItem | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [values, setValues] = useState<Fields>({ name: item?.name ?? '', number: item?.number ?? '', email: item?.email ?? '' });
  const [errors, setErrors] = useState<FieldErrors<Fields>>({});
  const save = useSaveContactListItem();
  const showError = useErrorToast();

  const field = (name: keyof Fields, extra: { type?: string; placeholder?: string } = {}) => (
    <TextField
      label={t(`contactLists.items.fields.${name}`)}
      name={name}
      value={values[name]}
      onChange={(e) => {
        setValues((current) => ({ ...current, [name]: e.target.value }));
        setErrors((current) => ({ ...current, [name]: undefined }));
      }}
      error={Boolean(errors[name])}
      helperText={errors[name] ?? (name === 'number' ? t('contactLists.items.numberHint') : undefined)}
      {...extra}
    />
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = item
      ? updateContactListItemSchema.safeParse(values)
      : createContactListItemSchema.safeParse({ ...values, contactListId });
    if (!parsed.success) {
      setErrors(fieldErrors<Fields>(parsed.error.issues, t));
      return;
    }
    try {
      await save.mutateAsync({ id: item?.id, input: parsed.data });
      toast.success(t('contactLists.items.saved'));
      onClose();
    } catch (failure) {
      showError(failure);
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" data-testid="contact-item-dialog">
      <form onSubmit={submit} noValidate>
        <DialogTitle>{item ? t('contactLists.items.editTitle') : t('contactLists.items.addTitle')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {field('name')}
            {field('number', { placeholder: '5511999999999' })}
            {field('email', { type: 'email' })}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} color="inherit">
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={save.isPending}>
            {item ? t('common.save') : t('common.add')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
