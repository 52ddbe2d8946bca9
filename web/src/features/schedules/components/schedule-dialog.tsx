import type { Contact } from '@conversa/functions/contracts/contacts';
import { createScheduleSchema, updateScheduleSchema } from '@conversa/functions/contracts/schedule-requests';
import AttachFile from '@mui/icons-material/AttachFile';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import { Alert, Autocomplete, Button, Chip, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DayTimeField } from '../../../components/date-fields.tsx';
import { useDebouncedValue } from '../../../hooks/use-debounced-value.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { formatDayTime } from '../../../lib/dates.ts';
import { SENDABLE_ACCEPT } from '../../../lib/direct-upload.ts';
import { CONTACT_SEARCH_MIN, useContact, useContactSearch } from '../../../lib/lookups/contacts.ts';
import { toast } from '../../../lib/toast.ts';
import { useApiErrorMessage, useErrorToast } from '../../../lib/use-api-error.ts';
import { canSave, defaultSendAt, dialogTitleKey, fromLocalInput, toLocalInput, validationKeys } from '../api/schedule-rules.ts';
import { type Schedule, useSaveSchedule } from '../api/schedules.ts';

/** SPEC 9-ish: the message area's rows, as the quick message dialog's. */
const BODY_ROWS = 7;

type ContactChoice = Pick<Contact, 'id' | 'name' | 'number'>;
type Field = 'body' | 'contactId' | 'sendAt';

export interface ScheduleDialogProps {
  /** The schedule to edit; undefined adds one. */
  schedule?: Schedule;
  /** A new schedule's contact (the conversation's, or `?contactId=`) and the ticket it comes from. */
  preset?: { contactId: number; ticketId?: number };
  onClose: () => void;
}

/**
 * SPEC 2 "Modals" / 3 "Schedule message": contact, message, send time (one hour ahead by default),
 * attachment. The title shows the status ('Erro de Envio' for ERRO, with the reason); once sent the
 * form is read-only and has no save button.
 */
export function ScheduleDialog({ schedule, preset, onClose }: ScheduleDialogProps) {
  const { t, i18n } = useTranslation();
  const errorMessage = useApiErrorMessage();
  const showError = useErrorToast();
  const save = useSaveSchedule();
  const editable = canSave(schedule);
  const presetContact = useContact(schedule ? undefined : preset?.contactId);
  const [picked, setPicked] = useState<ContactChoice | null>(schedule?.contact ?? null);
  const contact = picked ?? presetContact.data ?? null;
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search);
  const options = useContactSearch(debounced);
  const [body, setBody] = useState(schedule?.body ?? '');
  const [sendAt, setSendAt] = useState(schedule ? toLocalInput(schedule.sendAt) : defaultSendAt());
  // undefined: keep the current attachment; null: remove it; a File: upload it.
  const [attachment, setAttachment] = useState<File | null | undefined>(undefined);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const fileInput = useRef<HTMLInputElement>(null);

  const attachmentName = attachment ? attachment.name : attachment === null ? '' : (schedule?.mediaName ?? '');
  const contactOptions = debounced.trim().length >= CONTACT_SEARCH_MIN ? (options.data?.contacts ?? []) : [];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!editable) return;
    const raw = {
      body,
      contactId: contact?.id,
      sendAt: fromLocalInput(sendAt) || undefined,
      ...(schedule ? {} : { ticketId: preset?.contactId === contact?.id ? preset?.ticketId : undefined }),
    };
    const parsed = schedule ? updateScheduleSchema.safeParse(raw) : createScheduleSchema.safeParse(raw);
    const missing: Partial<Record<Field, string>> = {};
    // The update schema takes partial input: the dialog always sends all three, so all three are required.
    if (!raw.contactId) missing.contactId = t('schedules.validation.required');
    if (!raw.sendAt) missing.sendAt = t('schedules.validation.required');
    if (!parsed.success || Object.keys(missing).length) {
      const next = { ...missing };
      for (const issue of parsed.error?.issues ?? []) {
        const field = issue.path[0] as Field;
        if (!next[field]) next[field] = validationKeys[issue.message] ? t(validationKeys[issue.message] as string) : issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    try {
      await save.mutateAsync({ id: schedule?.id, input: parsed.data, attachment });
      toast.success(t('schedules.saved'));
      onClose();
    } catch (error) {
      showError(error);
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" data-testid="schedule-dialog">
      <form onSubmit={submit} noValidate>
        <DialogTitle>{t(dialogTitleKey(schedule?.status))}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {schedule?.status === 'ERRO' && schedule.error && (
              <Alert severity="error" data-testid="schedule-error">
                {errorMessage(new ApiError(0, { error: schedule.error }))}
              </Alert>
            )}
            <Autocomplete<ContactChoice>
              options={contactOptions}
              value={contact}
              onChange={(_, value) => {
                setPicked(value);
                setErrors((current) => ({ ...current, contactId: undefined }));
              }}
              inputValue={search}
              onInputChange={(_, value) => setSearch(value)}
              filterOptions={(all) => all}
              getOptionLabel={(option) => `${option.name} - ${option.number}`}
              isOptionEqualToValue={(a, b) => a.id === b.id}
              loading={options.isFetching}
              disabled={!editable}
              noOptionsText={
                search.trim().length < CONTACT_SEARCH_MIN ? t('schedules.dialog.contactHint') : t('schedules.dialog.noContacts')
              }
              renderInput={(params) => (
                <TextField
                  {...params}
                  label={t('schedules.fields.contact')}
                  name="contact"
                  error={Boolean(errors.contactId)}
                  helperText={errors.contactId}
                />
              )}
            />
            <TextField
              label={t('schedules.fields.body')}
              name="body"
              value={body}
              onChange={(e) => {
                setBody(e.target.value);
                setErrors((current) => ({ ...current, body: undefined }));
              }}
              error={Boolean(errors.body)}
              helperText={errors.body}
              multiline
              rows={BODY_ROWS}
              disabled={!editable}
              autoFocus={Boolean(contact)}
            />
            <DayTimeField
              label={t('schedules.fields.sendAt')}
              name="sendAt"
              value={sendAt}
              onChange={(value) => {
                setSendAt(value);
                setErrors((current) => ({ ...current, sendAt: undefined }));
              }}
              error={Boolean(errors.sendAt)}
              helperText={errors.sendAt}
              disabled={!editable}
            />
            {schedule?.sentAt && (
              <TextField
                label={t('schedules.fields.sentAt')}
                value={formatDayTime(schedule.sentAt, i18n.language)}
                disabled
                data-testid="schedule-sent-at"
              />
            )}
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
              {editable && (
                <Button size="small" startIcon={<AttachFile />} onClick={() => fileInput.current?.click()}>
                  {t('schedules.dialog.attach')}
                </Button>
              )}
              <input
                ref={fileInput}
                type="file"
                hidden
                accept={SENDABLE_ACCEPT}
                data-testid="schedule-file"
                onChange={(e) => {
                  const file = e.target.files?.[0];
                  if (file) setAttachment(file);
                  e.target.value = '';
                }}
              />
              {attachmentName && (
                <Chip
                  label={attachmentName}
                  icon={<AttachFile />}
                  onDelete={editable ? () => setAttachment(null) : undefined}
                  deleteIcon={<DeleteOutline aria-label={t('schedules.dialog.removeAttachment')} />}
                  data-testid="schedule-attachment"
                />
              )}
            </Stack>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} color="inherit">
            {editable ? t('common.cancel') : t('schedules.dialog.close')}
          </Button>
          {editable && (
            <Button type="submit" variant="contained" loading={save.isPending}>
              {schedule ? t('common.save') : t('schedules.dialog.schedule')}
            </Button>
          )}
        </DialogActions>
      </form>
    </Dialog>
  );
}
