import {
  type AutoAssignMode,
  autoAssignModes,
  createQueueSchema,
  defaultCompanySchedules,
  type Queue,
  type ScheduleEntry,
} from '@conversa/functions/contracts';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  MenuItem,
  Stack,
  Switch,
  Tab,
  Tabs,
  TextField,
  Typography,
} from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BotSelects } from '../../../components/bot-selects.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { useQueues } from '../../../lib/lookups/queues.ts';
import { toast } from '../../../lib/toast.ts';
import { useErrorToast } from '../../../lib/use-api-error.ts';
import { type FieldErrors, fieldErrors } from '../../../lib/validation.ts';
import { queueColorPalette, unusedQueueColor, useSaveQueue } from '../api/queues.ts';
import { QueueOptionsEditor } from './queue-options-editor.tsx';
import { initialSlaValues, QueueSlaFields, type SlaValues, slaMinutes } from './queue-sla-fields.tsx';

type MessageField = 'greetingMessage' | 'complationMessage' | 'outOfHoursMessage' | 'ratingMessage';
interface FormValues extends SlaValues {
  name: string;
  color: string;
  orderQueue: string;
  greetingMessage: string;
  complationMessage: string;
  outOfHoursMessage: string;
  ratingMessage: string;
  schedules: ScheduleEntry[];
  promptId: number | null;
  integrationId: number | null;
  autoAssign: AutoAssignMode;
}

const initialValues = (queue: Queue | undefined, queues: readonly Queue[]): FormValues => ({
  name: queue?.name ?? '',
  // A new queue proposes a colour no queue has yet (the server refuses a taken one).
  color: queue?.color ?? unusedQueueColor(queues),
  orderQueue: queue?.orderQueue == null ? '' : String(queue.orderQueue),
  greetingMessage: queue?.greetingMessage ?? '',
  complationMessage: queue?.complationMessage ?? '',
  outOfHoursMessage: queue?.outOfHoursMessage ?? '',
  ratingMessage: queue?.ratingMessage ?? '',
  schedules: queue?.schedules ?? [],
  // Sent back as they are unless changed: a save must not drop the queue's bot.
  promptId: queue?.promptId ?? null,
  integrationId: queue?.integrationId ?? null,
  ...initialSlaValues(queue),
  autoAssign: queue?.autoAssign ?? 'off',
});

export function QueueDialog({ queue, onClose }: { queue: Queue | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const queues = useQueues();
  const [values, setValues] = useState<FormValues>(() => initialValues(queue, queues.data ?? []));
  const [errors, setErrors] = useState<FieldErrors<FormValues>>({});
  const [tab, setTab] = useState(0);
  const save = useSaveQueue();
  const showError = useErrorToast();
  const set = (field: 'name' | 'color' | 'orderQueue' | MessageField) => (event: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [field]: event.target.value }));
  const setTime = (index: number, field: 'startTime' | 'endTime', value: string) =>
    setValues((v) => ({ ...v, schedules: v.schedules.map((day, i) => (i === index ? { ...day, [field]: value } : day)) }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = createQueueSchema.safeParse({
      ...values,
      orderQueue: values.orderQueue === '' ? null : values.orderQueue,
      firstResponseMinutes: slaMinutes(values.firstResponseMinutes),
      resolutionMinutes: slaMinutes(values.resolutionMinutes),
    });
    if (!parsed.success) {
      setErrors(fieldErrors<FormValues>(parsed.error.issues, t));
      return;
    }
    setErrors({});
    try {
      await save.mutateAsync({ id: queue?.id, input: parsed.data });
      toast.success(t('queues.saved'));
      onClose();
    } catch (error) {
      showError(error);
    }
  };

  const message = (field: MessageField) => (
    <TextField label={t(`queues.fields.${field}`)} value={values[field]} onChange={set(field)} multiline minRows={2} fullWidth />
  );

  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth scroll="paper">
      <form onSubmit={submit} noValidate>
        <DialogTitle>{queue ? t('queues.dialog.editTitle') : t('queues.dialog.addTitle')}</DialogTitle>
        <Tabs value={tab} onChange={(_e, next: number) => setTab(next)} sx={{ px: 3 }}>
          <Tab label={t('queues.dialog.tabData')} />
          <Tab label={t('queues.dialog.tabSchedules')} />
        </Tabs>
        <DialogContent dividers>
          {tab === 0 && (
            <Stack spacing={2}>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                <TextField
                  label={t('queues.fields.name')}
                  value={values.name}
                  onChange={set('name')}
                  error={Boolean(errors.name)}
                  helperText={errors.name}
                  autoFocus
                  fullWidth
                />
                <TextField
                  label={t('queues.fields.color')}
                  value={values.color}
                  onChange={set('color')}
                  error={Boolean(errors.color)}
                  helperText={errors.color}
                  sx={{ width: 160 }}
                />
                <TextField
                  label={t('queues.fields.orderQueue')}
                  type="number"
                  value={values.orderQueue}
                  onChange={set('orderQueue')}
                  error={Boolean(errors.orderQueue)}
                  helperText={errors.orderQueue}
                  sx={{ width: 200 }}
                />
              </Stack>
              <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }} role="radiogroup" aria-label={t('queues.fields.color')}>
                {queueColorPalette.map((color) => (
                  <Box
                    key={color}
                    role="radio"
                    aria-checked={values.color.toLowerCase() === color.toLowerCase()}
                    aria-label={color}
                    tabIndex={0}
                    onClick={() => setValues((v) => ({ ...v, color }))}
                    onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && setValues((v) => ({ ...v, color }))}
                    sx={{
                      width: 24,
                      height: 24,
                      borderRadius: 0.5,
                      bgcolor: color,
                      cursor: 'pointer',
                      outline: values.color.toLowerCase() === color.toLowerCase() ? 3 : 0,
                      outlineColor: 'primary.main',
                    }}
                  />
                ))}
              </Box>
              <BotSelects
                promptId={values.promptId}
                integrationId={values.integrationId}
                onChange={(next) => setValues((v) => ({ ...v, ...next }))}
                errors={errors}
              />
              <TextField
                select
                label={t('queues.fields.autoAssign')}
                value={values.autoAssign}
                onChange={(e) => setValues((v) => ({ ...v, autoAssign: e.target.value as AutoAssignMode }))}
                helperText={t('queues.fields.autoAssignHelp')}
                data-testid="queue-auto-assign"
              >
                {autoAssignModes.map((mode) => (
                  <MenuItem key={mode} value={mode}>
                    {t(`queues.autoAssignModes.${mode}`)}
                  </MenuItem>
                ))}
              </TextField>
              <QueueSlaFields values={values} errors={errors} onChange={(next) => setValues((v) => ({ ...v, ...next }))} />
              {message('greetingMessage')}
              {message('complationMessage')}
              {message('outOfHoursMessage')}
              {message('ratingMessage')}
              {queue ? (
                <QueueOptionsEditor queueId={queue.id} />
              ) : (
                <Typography color="text.secondary">{t('queues.options.saveFirst')}</Typography>
              )}
            </Stack>
          )}
          {tab === 1 && (
            <Stack spacing={1}>
              <FormControlLabel
                control={
                  <Switch
                    checked={values.schedules.length > 0}
                    onChange={(e) => setValues((v) => ({ ...v, schedules: e.target.checked ? defaultCompanySchedules : [] }))}
                  />
                }
                label={values.schedules.length ? t('queues.dialog.useSchedules') : t('queues.dialog.noSchedules')}
              />
              {values.schedules.map((day, index) => (
                <Stack key={day.weekdayEn} direction="row" spacing={2} sx={{ alignItems: 'center' }}>
                  <Typography sx={{ width: 120 }}>{t(`weekdays.${day.weekdayEn}`, { defaultValue: day.weekday })}</Typography>
                  <TextField
                    size="small"
                    label={t('queues.schedule.startTime')}
                    value={day.startTime}
                    onChange={(e) => setTime(index, 'startTime', e.target.value)}
                  />
                  <TextField
                    size="small"
                    label={t('queues.schedule.endTime')}
                    value={day.endTime}
                    onChange={(e) => setTime(index, 'endTime', e.target.value)}
                  />
                </Stack>
              ))}
              {errors.schedules && <Typography color="error">{errors.schedules}</Typography>}
            </Stack>
          )}
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
