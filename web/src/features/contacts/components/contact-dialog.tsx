import { createContactSchema, updateContactSchema } from '@conversa/functions/contracts/contact-requests';
import type { Contact, ContactExtraInfo } from '@conversa/functions/contracts/contacts';
import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, IconButton, Stack, TextField, Typography } from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useContact } from '../../../lib/lookups/contacts.ts';
import { toast } from '../../../lib/toast.ts';
import { useApiErrorMessage } from '../../../lib/use-api-error.ts';
import { type FieldErrors, fieldErrors } from '../../../lib/validation.ts';
import { useSaveContact } from '../api/contacts.ts';

interface FormValues {
  name: string;
  number: string;
  email: string;
  extraInfo: ContactExtraInfo[];
}

type ExtraErrors = Record<number, Partial<Record<keyof ContactExtraInfo, string>>>;

export interface ContactDialogProps {
  open: boolean;
  /** The contact to edit, by id (loaded here) or as already loaded; neither to add one. */
  contactId?: number;
  contact?: Contact;
  onClose: () => void;
  onSaved?: (contact: Contact) => void;
}

/**
 * SPEC 2 "Modals": contact add/edit (name, number, email, extra information as name/value rows),
 * SPEC 5 "Contact" messages. Reused by the conversation's contact drawer for its Edit button.
 */
export function ContactDialog({ open, contactId, contact, onClose, onSaved }: ContactDialogProps) {
  const { t } = useTranslation();
  const id = contact?.id ?? contactId;
  const loaded = useContact(contact ? undefined : contactId);
  const current = contact ?? loaded.data;
  const waiting = Boolean(id) && !current;

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" data-testid="contact-dialog">
      <DialogTitle>{id ? t('contacts.dialog.editTitle') : t('contacts.dialog.addTitle')}</DialogTitle>
      {waiting ? (
        <DialogContent>
          <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
            {loaded.isError ? <Typography color="error">{t('errors.generic')}</Typography> : <Spinner size={28} />}
          </Box>
        </DialogContent>
      ) : (
        <ContactForm key={current?.id ?? 'new'} contact={current} onClose={onClose} onSaved={onSaved} />
      )}
    </Dialog>
  );
}

function initialValues(contact: Contact | undefined): FormValues {
  return {
    name: contact?.name ?? '',
    number: contact?.number ?? '',
    email: contact?.email ?? '',
    extraInfo: contact?.extraInfo?.map((info) => ({ ...info })) ?? [],
  };
}

function ContactForm({ contact, onClose, onSaved }: { contact: Contact | undefined; onClose: () => void; onSaved?: (c: Contact) => void }) {
  const { t } = useTranslation();
  const [values, setValues] = useState<FormValues>(() => initialValues(contact));
  const [errors, setErrors] = useState<FieldErrors<FormValues>>({});
  const [extraErrors, setExtraErrors] = useState<ExtraErrors>({});
  const save = useSaveContact();
  const errorText = useApiErrorMessage();

  // Typing in a field clears its message; the next submit checks again.
  const set = (field: 'name' | 'number' | 'email') => (event: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [field]: event.target.value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };
  const setExtra = (index: number, field: keyof ContactExtraInfo, value: string) =>
    setValues((v) => ({ ...v, extraInfo: v.extraInfo.map((info, i) => (i === index ? { ...info, [field]: value } : info)) }));
  const addExtra = () => setValues((v) => ({ ...v, extraInfo: [...v.extraInfo, { name: '', value: '' }] }));
  const removeExtra = (index: number) => setValues((v) => ({ ...v, extraInfo: v.extraInfo.filter((_, i) => i !== index) }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // Blank rows are dropped; `kept` maps a sent row back to the row on screen for its messages.
    const kept = values.extraInfo.flatMap((info, index) => (info.name.trim() || info.value.trim() ? [index] : []));
    const raw = { ...values, extraInfo: kept.map((index) => values.extraInfo[index] as ContactExtraInfo) };
    const parsed = contact ? updateContactSchema.safeParse(raw) : createContactSchema.safeParse(raw);
    if (!parsed.success) {
      setErrors(
        fieldErrors<FormValues>(
          parsed.error.issues.filter((issue) => issue.path[0] !== 'extraInfo'),
          t,
        ),
      );
      const rows: ExtraErrors = {};
      for (const issue of parsed.error.issues) {
        const [field, index, key] = issue.path;
        if (field !== 'extraInfo' || typeof index !== 'number' || (key !== 'name' && key !== 'value')) continue;
        const row = kept[index] ?? index;
        rows[row] = { ...rows[row], [key]: fieldErrors<ContactExtraInfo>([{ path: [key], message: issue.message }], t)[key] };
      }
      setExtraErrors(rows);
      return;
    }
    setErrors({});
    setExtraErrors({});
    try {
      const saved = await save.mutateAsync({ id: contact?.id, input: parsed.data });
      toast.success(t('contacts.saved'));
      onSaved?.(saved);
      onClose();
    } catch (error) {
      const message = errorText(error);
      // SPEC 8: a taken number names the field as well as toasting.
      if (error instanceof ApiError && error.code === 'ERR_DUPLICATED_CONTACT') setErrors({ number: message });
      toast.error(message);
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Typography variant="subtitle2" color="text.secondary">
            {t('contacts.dialog.contactData')}
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField
              label={t('contacts.fields.name')}
              name="name"
              value={values.name}
              onChange={set('name')}
              error={Boolean(errors.name)}
              helperText={errors.name}
              autoFocus
              fullWidth
            />
            <TextField
              label={t('contacts.fields.number')}
              name="number"
              value={values.number}
              onChange={set('number')}
              error={Boolean(errors.number)}
              helperText={errors.number ?? t('contacts.dialog.numberHint')}
              placeholder="5513912344321"
              slotProps={{ htmlInput: { inputMode: 'tel' } }}
              fullWidth
            />
          </Stack>
          <TextField
            label={t('contacts.fields.email')}
            name="email"
            type="email"
            value={values.email}
            onChange={set('email')}
            error={Boolean(errors.email)}
            helperText={errors.email}
          />
          <Typography variant="subtitle2" color="text.secondary">
            {t('contacts.fields.extraInfo')}
          </Typography>
          {values.extraInfo.map((info, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id; their order is their identity while editing.
            <Stack key={index} direction="row" spacing={1} sx={{ alignItems: 'flex-start' }} data-testid="extra-info-row">
              <TextField
                label={t('contacts.dialog.extraName')}
                value={info.name}
                onChange={(e) => setExtra(index, 'name', e.target.value)}
                error={Boolean(extraErrors[index]?.name)}
                helperText={extraErrors[index]?.name}
                fullWidth
              />
              <TextField
                label={t('contacts.dialog.extraValue')}
                value={info.value}
                onChange={(e) => setExtra(index, 'value', e.target.value)}
                error={Boolean(extraErrors[index]?.value)}
                helperText={extraErrors[index]?.value}
                fullWidth
              />
              <IconButton aria-label={t('contacts.dialog.removeExtra')} onClick={() => removeExtra(index)} sx={{ mt: 1 }}>
                <DeleteOutline fontSize="small" />
              </IconButton>
            </Stack>
          ))}
          <Box>
            <Button startIcon={<Add />} onClick={addExtra} size="small">
              {t('contacts.dialog.addExtra')}
            </Button>
          </Box>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} color="inherit">
          {t('common.cancel')}
        </Button>
        <Button type="submit" variant="contained" loading={save.isPending}>
          {contact ? t('common.save') : t('common.add')}
        </Button>
      </DialogActions>
    </form>
  );
}
