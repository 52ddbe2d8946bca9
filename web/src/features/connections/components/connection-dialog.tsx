import { type Connection, type ConnectionInput, connectionInputSchema } from '@conversa/functions/contracts';
import Autorenew from '@mui/icons-material/Autorenew';
import {
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  InputAdornment,
  MenuItem,
  Stack,
  Switch,
  TextField,
} from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BotSelects } from '../../../components/bot-selects.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useConnection } from '../../../lib/lookups/connections.ts';
import { useQueues } from '../../../lib/lookups/queues.ts';
import { toast } from '../../../lib/toast.ts';
import { useErrorToast } from '../../../lib/use-api-error.ts';
import { type FieldErrors, fieldErrors } from '../../../lib/validation.ts';
import { useSaveConnection } from '../api/connections.ts';

type FormValues = ConnectionInput;
type MessageField = 'greetingMessage' | 'complationMessage' | 'outOfHoursMessage' | 'ratingMessage' | 'expiresInactiveMessage';
type NumberField = 'timeToTransfer' | 'expiresTicket' | 'timeUseBotQueues' | 'maxUseBotQueues';

const defaults = connectionInputSchema.parse({ name: 'xx' });

function initialValues(connection: Connection | undefined): FormValues {
  if (!connection) return { ...defaults, name: '' };
  const { id, companyId, status, qrcode, retries, number, queues, createdAt, updatedAt, ...form } = connection;
  return { ...defaults, ...form };
}

/** A random API token for the external messages API: 32 url-safe characters (24 random bytes), never guessable. */
export function generateToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** The connection editor (SPEC 2 "Modals", 3 "Connection"); loads the record fresh to get its token. */
export function ConnectionDialog({ connectionId, onClose }: { connectionId: number | undefined; onClose: () => void }) {
  const existing = useConnection(connectionId);
  if (connectionId !== undefined && !existing.data) {
    return (
      <Dialog open onClose={onClose}>
        <DialogContent>
          <Spinner />
        </DialogContent>
      </Dialog>
    );
  }
  return <ConnectionForm connection={existing.data} onClose={onClose} />;
}

function ConnectionForm({ connection, onClose }: { connection: Connection | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const [values, setValues] = useState<FormValues>(() => initialValues(connection));
  const [errors, setErrors] = useState<FieldErrors<FormValues>>({});
  const queues = useQueues().data ?? [];
  const save = useSaveConnection();
  const showError = useErrorToast();

  const setText = (field: 'name' | 'token' | MessageField) => (event: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [field]: event.target.value }));
  const setNumber = (field: NumberField) => (event: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [field]: event.target.value === '' ? (field === 'timeToTransfer' ? null : 0) : Number(event.target.value) }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = connectionInputSchema.safeParse(values);
    if (!parsed.success) {
      setErrors(fieldErrors<FormValues>(parsed.error.issues, t));
      return;
    }
    setErrors({});
    try {
      await save.mutateAsync({ id: connection?.id, input: parsed.data });
      toast.success(t('connections.saved'));
      onClose();
    } catch (error) {
      // A rule the server names a field for (greeting with several queues, a taken token) shows there too.
      if (error instanceof ApiError && typeof error.body === 'object' && error.body.field) {
        const field = String(error.body.field).split('.')[0] as keyof FormValues & string;
        setErrors({ [field]: t(`backendErrors.${error.code}`, { defaultValue: error.body.message ?? error.code }) });
      }
      showError(error);
    }
  };

  const multiline = (field: MessageField) => (
    <TextField
      label={t(`connections.fields.${field}`)}
      value={values[field]}
      onChange={setText(field)}
      error={Boolean(errors[field])}
      helperText={errors[field]}
      multiline
      minRows={3}
      fullWidth
    />
  );
  const number = (field: NumberField) => (
    <TextField
      label={t(`connections.fields.${field}`)}
      type="number"
      value={values[field] ?? ''}
      onChange={setNumber(field)}
      error={Boolean(errors[field])}
      helperText={errors[field]}
      slotProps={{ htmlInput: { min: 0 } }}
      fullWidth
    />
  );

  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth scroll="paper">
      <form onSubmit={submit} noValidate>
        <DialogTitle>{connection ? t('connections.dialog.editTitle') : t('connections.dialog.addTitle')}</DialogTitle>
        <DialogContent dividers>
          <Stack spacing={2}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: 'center' }}>
              <TextField
                label={t('connections.fields.name')}
                value={values.name}
                onChange={setText('name')}
                error={Boolean(errors.name)}
                helperText={errors.name}
                autoFocus
                fullWidth
              />
              <FormControlLabel
                control={<Switch checked={values.isDefault} onChange={(e) => setValues((v) => ({ ...v, isDefault: e.target.checked }))} />}
                label={t('connections.fields.isDefault')}
                sx={{ flexShrink: 0 }}
              />
            </Stack>
            {multiline('greetingMessage')}
            {multiline('complationMessage')}
            {multiline('outOfHoursMessage')}
            {multiline('ratingMessage')}
            <TextField
              label={t('connections.fields.token')}
              value={values.token}
              onChange={setText('token')}
              error={Boolean(errors.token)}
              helperText={errors.token}
              fullWidth
              slotProps={{
                input: {
                  endAdornment: (
                    <InputAdornment position="end">
                      <Button size="small" startIcon={<Autorenew />} onClick={() => setValues((v) => ({ ...v, token: generateToken() }))}>
                        {t('connections.dialog.generateToken')}
                      </Button>
                    </InputAdornment>
                  ),
                },
              }}
            />
            <TextField
              select
              label={t('connections.fields.queues')}
              value={values.queueIds}
              onChange={(e) => setValues((v) => ({ ...v, queueIds: (e.target.value as unknown as number[]).map(Number) }))}
              error={Boolean(errors.queueIds)}
              helperText={errors.queueIds}
              fullWidth
              slotProps={{
                select: {
                  multiple: true,
                  renderValue: (selected) => (
                    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                      {(selected as number[]).map((id) => {
                        const queue = queues.find((q) => q.id === id);
                        return <Chip key={id} size="small" label={queue?.name ?? id} sx={{ bgcolor: queue?.color, color: '#fff' }} />;
                      })}
                    </Box>
                  ),
                },
              }}
            >
              {queues.map((queue) => (
                <MenuItem key={queue.id} value={queue.id}>
                  {queue.name}
                </MenuItem>
              ))}
            </TextField>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                select
                label={t('connections.fields.transferQueueId')}
                value={values.transferQueueId ?? ''}
                onChange={(e) => setValues((v) => ({ ...v, transferQueueId: e.target.value === '' ? null : Number(e.target.value) }))}
                error={Boolean(errors.transferQueueId)}
                helperText={errors.transferQueueId}
                fullWidth
              >
                <MenuItem value="">{t('common.none')}</MenuItem>
                {queues.map((queue) => (
                  <MenuItem key={queue.id} value={queue.id}>
                    {queue.name}
                  </MenuItem>
                ))}
              </TextField>
              {number('timeToTransfer')}
            </Stack>
            <BotSelects
              promptId={values.promptId}
              integrationId={values.integrationId}
              onChange={(next) => setValues((v) => ({ ...v, ...next }))}
              errors={errors}
            />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              {number('expiresTicket')}
              {number('timeUseBotQueues')}
              {number('maxUseBotQueues')}
            </Stack>
            {multiline('expiresInactiveMessage')}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={save.isPending}>
            {save.isPending ? <Spinner size={20} /> : t('common.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
