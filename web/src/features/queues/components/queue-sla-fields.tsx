import { Stack, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';

export interface SlaValues {
  firstResponseMinutes: string;
  resolutionMinutes: string;
}

/** The form's text as the API's minutes: empty = 0 (no target); anything else as typed, for the schema to judge. */
export const slaMinutes = (value: string): number => (value.trim() === '' ? 0 : Number(value));

export const initialSlaValues = (queue: { firstResponseMinutes?: number; resolutionMinutes?: number } | undefined): SlaValues => ({
  firstResponseMinutes: String(queue?.firstResponseMinutes ?? 0),
  resolutionMinutes: String(queue?.resolutionMinutes ?? 0),
});

/** The queue's service-level targets (issue 22 §3): minutes of business time, 0 = none. */
export function QueueSlaFields({
  values,
  errors,
  onChange,
}: {
  values: SlaValues;
  errors: Partial<Record<keyof SlaValues, string>>;
  onChange: (next: Partial<SlaValues>) => void;
}) {
  const { t } = useTranslation();
  const field = (name: keyof SlaValues) => (
    <TextField
      label={t(`sla.fields.${name}`)}
      type="number"
      value={values[name]}
      onChange={(e) => onChange({ [name]: e.target.value })}
      error={Boolean(errors[name])}
      helperText={errors[name]}
      slotProps={{ htmlInput: { min: 0, max: 43_200, step: 1, 'data-testid': `queue-${name}` } }}
      sx={{ width: 240 }}
    />
  );
  return (
    <Stack spacing={1}>
      <Typography variant="subtitle2">{t('sla.fields.title')}</Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        {field('firstResponseMinutes')}
        {field('resolutionMinutes')}
      </Stack>
      <Typography variant="caption" color="text.secondary">
        {t('sla.fields.help')}
      </Typography>
    </Stack>
  );
}
