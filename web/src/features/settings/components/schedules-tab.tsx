import { defaultCompanySchedules, type ScheduleEntry, schedulesSchema } from '@conversa/functions/contracts';
import { Alert, Button, Grid, Stack, TextField, Typography } from '@mui/material';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/spinner.tsx';
import { useCompany } from '../../../lib/lookups/companies.ts';
import { toast } from '../../../lib/toast.ts';
import { useApiErrorMessage, useErrorToast } from '../../../lib/use-api-error.ts';
import { useUpdateCompanySchedules } from '../api/company-schedules.ts';

/** SPEC 5: schedule times use a four-digit HH:MM mask. */
export function maskTime(input: string): string {
  const digits = input.replace(/\D/g, '').slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}:${digits.slice(2)}` : digits;
}

/** Company opening hours, used when the scheduleType setting is `company` (SPEC 2 "Settings"). */
export function SchedulesTab({ companyId }: { companyId: number }) {
  const { t } = useTranslation();
  const company = useCompany(companyId);
  const update = useUpdateCompanySchedules(companyId);
  const showError = useErrorToast();
  const errorText = useApiErrorMessage();
  const [rows, setRows] = useState<ScheduleEntry[]>(defaultCompanySchedules);
  const [invalid, setInvalid] = useState(false);

  useEffect(() => {
    if (company.data?.schedules?.length === 7) setRows(company.data.schedules);
  }, [company.data]);

  if (company.isPending) return <Spinner />;
  if (company.isError) return <Alert severity="error">{errorText(company.error)}</Alert>;

  const setTime = (index: number, field: 'startTime' | 'endTime', value: string) =>
    setRows((current) => current.map((row, i) => (i === index ? { ...row, [field]: maskTime(value) } : row)));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = schedulesSchema.safeParse(rows);
    setInvalid(!parsed.success);
    if (!parsed.success) return;
    try {
      await update.mutateAsync(parsed.data);
      toast.success(t('settings.schedules.saved'));
    } catch (error) {
      showError(error);
    }
  };

  const badTime = (value: string) => !/^([01]\d|2[0-3]):[0-5]\d$/.test(value);

  return (
    <Stack component="form" spacing={2} onSubmit={submit} noValidate>
      {invalid && <Alert severity="error">{t('settings.schedules.invalid')}</Alert>}
      <Grid container spacing={2}>
        {rows.map((row, index) => (
          <Grid key={row.weekdayEn} size={{ xs: 12, md: 6 }}>
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
              <Typography sx={{ width: 110, flexShrink: 0 }}>{t(`weekdays.${row.weekdayEn}`)}</Typography>
              <TextField
                label={t('settings.schedules.start')}
                value={row.startTime}
                error={invalid && badTime(row.startTime)}
                onChange={(e) => setTime(index, 'startTime', e.target.value)}
                slotProps={{ htmlInput: { inputMode: 'numeric' } }}
              />
              <TextField
                label={t('settings.schedules.end')}
                value={row.endTime}
                error={invalid && badTime(row.endTime)}
                onChange={(e) => setTime(index, 'endTime', e.target.value)}
                slotProps={{ htmlInput: { inputMode: 'numeric' } }}
              />
            </Stack>
          </Grid>
        ))}
      </Grid>
      <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
        <Button type="submit" variant="contained" loading={update.isPending}>
          {t('common.save')}
        </Button>
      </Stack>
    </Stack>
  );
}
