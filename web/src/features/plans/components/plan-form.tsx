import { type Plan, type PlanFlag, type PlanInput, planFlags, planInputSchema } from '@conversa/functions/contracts';
import { Button, FormControlLabel, Grid, Paper, Stack, Switch, TextField, Typography } from '@mui/material';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type FieldErrors, fieldErrors } from '../../../lib/validation.ts';

/** The plan's counted limits (0: no limit, domain/plans/limits.ts), as the form and the table show them. */
export const planCounts = ['users', 'connections', 'queues', 'campaigns', 'schedules'] as const;
export type PlanCount = (typeof planCounts)[number];
const limitFields = [...planCounts, 'value'] as const;
type LimitField = (typeof limitFields)[number];
type Values = { name: string } & Record<LimitField, string> & Record<PlanFlag, boolean>;

/** SPEC 9: a new plan has limits and value 0 and every feature flag on. */
function fromPlan(plan: Plan | undefined): Values {
  const defaults = planInputSchema.parse({ name: plan?.name ?? '-', ...plan });
  const values = { name: plan?.name ?? '' } as Values;
  for (const field of limitFields) values[field] = String(defaults[field]);
  for (const flag of planFlags) values[flag] = defaults[flag];
  return values;
}

interface Props {
  plan: Plan | undefined;
  busy: boolean;
  onSubmit: (input: PlanInput) => void;
  onCancel: () => void;
}

export function PlanForm({ plan, busy, onSubmit, onCancel }: Props) {
  const { t } = useTranslation();
  const [values, setValues] = useState<Values>(() => fromPlan(plan));
  const [errors, setErrors] = useState<FieldErrors<Values>>({});
  useEffect(() => setValues(fromPlan(plan)), [plan]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = planInputSchema.safeParse(values);
    if (!parsed.success) {
      setErrors(fieldErrors<Values>(parsed.error.issues, t));
      return;
    }
    setErrors({});
    onSubmit(parsed.data);
  };

  const limitField = (field: LimitField, size: { xs: number; sm: number; md?: number }) => (
    <Grid key={field} size={size}>
      <TextField
        label={t(`plans.fields.${field}`)}
        type="number"
        value={values[field]}
        onChange={(e) => setValues((v) => ({ ...v, [field]: e.target.value }))}
        error={Boolean(errors[field])}
        helperText={errors[field]}
        slotProps={{ htmlInput: { min: 0, step: field === 'value' ? 0.01 : 1 } }}
      />
    </Grid>
  );

  return (
    <Paper variant="outlined" component="form" onSubmit={submit} noValidate sx={{ p: 2, mb: 2 }}>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, sm: 8 }}>
          <TextField
            label={t('plans.fields.name')}
            value={values.name}
            onChange={(e) => setValues((v) => ({ ...v, name: e.target.value }))}
            error={Boolean(errors.name)}
            helperText={errors.name}
          />
        </Grid>
        {limitField('value', { xs: 12, sm: 4 })}
        {/* The five counts on a row of their own, wide enough for their labels in every language
            ("Agendamientos" was cut to "Agenda..." at 1.2 columns). */}
        {planCounts.map((field) => limitField(field, { xs: 6, sm: 4, md: 12 / 5 }))}
        <Grid size={12} sx={{ mt: -1 }}>
          <Typography variant="caption" color="text.secondary">
            {t('plans.limitHint')}
          </Typography>
        </Grid>
        <Grid size={12}>
          <Stack direction="row" sx={{ flexWrap: 'wrap', columnGap: 2 }}>
            {planFlags.map((flag) => (
              <FormControlLabel
                key={flag}
                control={<Switch checked={values[flag]} onChange={(e) => setValues((v) => ({ ...v, [flag]: e.target.checked }))} />}
                label={t(`plans.flags.${flag}`)}
              />
            ))}
          </Stack>
        </Grid>
      </Grid>
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', mt: 1 }}>
        <Button color="inherit" onClick={onCancel}>
          {t('common.clear')}
        </Button>
        <Button type="submit" variant="contained" loading={busy}>
          {plan ? t('common.save') : t('common.add')}
        </Button>
      </Stack>
    </Paper>
  );
}
