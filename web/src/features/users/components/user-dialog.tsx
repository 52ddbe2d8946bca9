import { type AllTicket, createUserSchema, type Profile, type User, updateUserSchema } from '@conversa/functions/contracts';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import {
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  IconButton,
  InputAdornment,
  MenuItem,
  Stack,
  Switch,
  TextField,
} from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConnections } from '../../../lib/lookups/connections.ts';
import { useQueues } from '../../../lib/lookups/queues.ts';
import { toast } from '../../../lib/toast.ts';
import { useErrorToast } from '../../../lib/use-api-error.ts';
import { type FieldErrors, fieldErrors } from '../../../lib/validation.ts';
import { useSaveUser } from '../api/users.ts';

interface FormValues {
  name: string;
  email: string;
  password: string;
  profile: Profile;
  allTicket: AllTicket;
  whatsappId: string;
  queueIds: number[];
  maxOpenTickets: string;
  autoAssign: boolean;
}

function initialValues(user: User | undefined): FormValues {
  return {
    name: user?.name ?? '',
    email: user?.email ?? '',
    password: '',
    profile: user?.profile ?? 'user',
    allTicket: user?.allTicket ?? 'desabled',
    whatsappId: user?.whatsappId ? String(user.whatsappId) : '',
    queueIds: user?.queueIds ?? [],
    maxOpenTickets: String(user?.maxOpenTickets ?? 0),
    autoAssign: user?.autoAssign ?? true,
  };
}

interface UserDialogProps {
  open: boolean;
  /** The user to edit; none to create one. */
  user: User | undefined;
  /** SPEC 6: only admins edit profile, allTicket, queues and the default connection. */
  adminFields: boolean;
  onClose: () => void;
}

export function UserDialog({ open, user, adminFields, onClose }: UserDialogProps) {
  const { t } = useTranslation();
  const [values, setValues] = useState<FormValues>(() => initialValues(user));
  const [errors, setErrors] = useState<FieldErrors<FormValues>>({});
  const [showPassword, setShowPassword] = useState(false);
  const save = useSaveUser();
  const showError = useErrorToast();
  // The company's queues and connections, from the same cache entries their screens and realtime keep.
  const queues = useQueues(open && adminFields).data ?? [];
  const connections = useConnections(open && adminFields).data ?? [];

  const set = (field: keyof FormValues) => (event: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [field]: event.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const admin = adminFields
      ? {
          profile: values.profile,
          allTicket: values.allTicket,
          whatsappId: values.whatsappId || null,
          queueIds: values.queueIds,
          maxOpenTickets: values.maxOpenTickets.trim() === '' ? 0 : values.maxOpenTickets,
          autoAssign: values.autoAssign,
        }
      : {};
    const raw = { name: values.name, email: values.email, password: values.password, ...admin };
    const parsed = user ? updateUserSchema.safeParse(raw) : createUserSchema.safeParse(raw);
    if (!parsed.success) {
      setErrors(fieldErrors<FormValues>(parsed.error.issues, t));
      return;
    }
    setErrors({});
    const input = { ...parsed.data };
    // An empty password on edit means "keep the current one".
    if (user && !values.password) delete (input as { password?: string }).password;
    try {
      await save.mutateAsync({ id: user?.id, input });
      toast.success(t('users.saved'));
      onClose();
    } catch (error) {
      showError(error);
    }
  };

  return (
    <Dialog open={open} onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <DialogTitle>{user ? t('users.dialog.editTitle') : t('users.dialog.addTitle')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                label={t('users.fields.name')}
                value={values.name}
                onChange={set('name')}
                error={Boolean(errors.name)}
                helperText={errors.name}
                autoFocus
              />
              <TextField
                label={t('users.fields.password')}
                type={showPassword ? 'text' : 'password'}
                value={values.password}
                onChange={set('password')}
                error={Boolean(errors.password)}
                helperText={errors.password ?? (user ? t('users.dialog.passwordKeep') : undefined)}
                autoComplete="new-password"
                slotProps={{
                  input: {
                    endAdornment: (
                      <InputAdornment position="end">
                        <IconButton onClick={() => setShowPassword((s) => !s)} aria-label={t('common.togglePassword')} edge="end">
                          {showPassword ? <VisibilityOff /> : <Visibility />}
                        </IconButton>
                      </InputAdornment>
                    ),
                  },
                }}
              />
            </Stack>
            <TextField
              label={t('users.fields.email')}
              type="email"
              value={values.email}
              onChange={set('email')}
              error={Boolean(errors.email)}
              helperText={errors.email}
            />
            {adminFields && (
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                <TextField select label={t('users.fields.profile')} value={values.profile} onChange={set('profile')}>
                  <MenuItem value="admin">{t('users.profiles.admin')}</MenuItem>
                  <MenuItem value="supervisor">{t('users.profiles.supervisor')}</MenuItem>
                  <MenuItem value="user">{t('users.profiles.user')}</MenuItem>
                </TextField>
                <TextField select label={t('users.fields.allTicket')} value={values.allTicket} onChange={set('allTicket')}>
                  <MenuItem value="enabled">{t('common.enabled')}</MenuItem>
                  <MenuItem value="desabled">{t('common.disabled')}</MenuItem>
                </TextField>
                <TextField select label={t('users.fields.connection')} value={values.whatsappId} onChange={set('whatsappId')}>
                  <MenuItem value="">{t('common.none')}</MenuItem>
                  {connections.map((c) => (
                    <MenuItem key={c.id} value={String(c.id)}>
                      {c.name}
                    </MenuItem>
                  ))}
                </TextField>
              </Stack>
            )}
            {adminFields && (
              <TextField
                select
                label={t('users.fields.queues')}
                value={values.queueIds}
                onChange={(event) => {
                  const value = event.target.value as unknown as number[] | string;
                  setValues((v) => ({ ...v, queueIds: typeof value === 'string' ? value.split(',').map(Number) : value }));
                }}
                slotProps={{
                  select: {
                    multiple: true,
                    renderValue: (selected) => (
                      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                        {(selected as number[]).map((id) => {
                          const queue = queues.find((q) => q.id === id);
                          return (
                            <Chip key={id} size="small" label={queue?.name ?? id} sx={{ bgcolor: queue?.color, color: 'common.white' }} />
                          );
                        })}
                      </Box>
                    ),
                  },
                }}
                data-testid="user-queues"
              >
                {queues.map((queue) => (
                  <MenuItem key={queue.id} value={queue.id}>
                    {queue.name}
                  </MenuItem>
                ))}
              </TextField>
            )}
            {adminFields && (
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
                <TextField
                  label={t('users.fields.maxOpenTickets')}
                  type="number"
                  value={values.maxOpenTickets}
                  onChange={set('maxOpenTickets')}
                  error={Boolean(errors.maxOpenTickets)}
                  helperText={errors.maxOpenTickets ?? t('users.fields.maxOpenTicketsHelp')}
                  slotProps={{ htmlInput: { min: 0, step: 1, 'data-testid': 'user-max-open-tickets' } }}
                />
                <FormControlLabel
                  control={
                    <Switch
                      checked={values.autoAssign}
                      onChange={(e) => setValues((v) => ({ ...v, autoAssign: e.target.checked }))}
                      data-testid="user-auto-assign"
                    />
                  }
                  label={t('users.fields.autoAssign')}
                />
              </Stack>
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} color="inherit">
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={save.isPending}>
            {user ? t('common.save') : t('common.add')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
