import { type Company, type CompanyInput, companyInputSchema, type Recurrence, recurrences } from '@conversa/functions/contracts';
import { Button, FormControlLabel, Grid, MenuItem, Paper, Stack, Switch, TextField } from '@mui/material';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DayField } from '../../../components/date-fields.tsx';
import { type FieldErrors, fieldErrors } from '../../../lib/validation.ts';
import { extendDueDate } from '../api/due-date.ts';

interface Values {
  name: string;
  email: string;
  phone: string;
  planId: string;
  status: boolean;
  dueDate: string;
  recurrence: Recurrence;
  campaignsEnabled: boolean;
  password: string;
}

const empty: Values = {
  name: '',
  email: '',
  phone: '',
  planId: '',
  status: true,
  dueDate: '',
  recurrence: 'MENSAL',
  campaignsEnabled: false,
  password: '',
};

function fromCompany(company: Company | undefined): Values {
  if (!company) return empty;
  return {
    name: company.name,
    email: company.email,
    phone: company.phone ?? '',
    planId: String(company.planId),
    status: company.status,
    dueDate: company.dueDate ?? '',
    recurrence: company.recurrence,
    campaignsEnabled: company.campaignsEnabled,
    password: '',
  };
}

interface Props {
  company: Company | undefined;
  plans: ReadonlyArray<{ id: number; name: string }>;
  busy: boolean;
  onSubmit: (input: CompanyInput) => void;
  onCancel: () => void;
}

/** Super-admin company form (SPEC 5 "Company form": email and plan required; a bad due date is sent as null). */
export function CompanyForm({ company, plans, busy, onSubmit, onCancel }: Props) {
  const { t } = useTranslation();
  const [values, setValues] = useState<Values>(() => fromCompany(company));
  const [errors, setErrors] = useState<FieldErrors<Values>>({});
  useEffect(() => setValues(fromCompany(company)), [company]);

  const set = (field: keyof Values) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { password, ...rest } = values;
    // The first admin's password is asked only when creating the company.
    const parsed = companyInputSchema.safeParse({
      ...rest,
      dueDate: values.dueDate || null,
      ...(company || !password ? {} : { password }),
    });
    if (!parsed.success) {
      setErrors(fieldErrors<Values>(parsed.error.issues, t));
      return;
    }
    setErrors({});
    onSubmit(parsed.data);
  };

  return (
    <Paper variant="outlined" component="form" onSubmit={submit} noValidate sx={{ p: 2, mb: 2 }}>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 4 }}>
          <TextField
            label={t('companies.fields.name')}
            value={values.name}
            onChange={set('name')}
            error={Boolean(errors.name)}
            helperText={errors.name}
          />
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <TextField
            label={t('companies.fields.email')}
            value={values.email}
            onChange={set('email')}
            error={Boolean(errors.email)}
            helperText={errors.email}
          />
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <TextField
            label={t('companies.fields.phone')}
            value={values.phone}
            onChange={set('phone')}
            error={Boolean(errors.phone)}
            helperText={errors.phone}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, md: 3 }}>
          <TextField
            select
            label={t('companies.fields.plan')}
            value={values.planId}
            onChange={set('planId')}
            error={Boolean(errors.planId)}
            helperText={errors.planId}
          >
            {plans.map((plan) => (
              <MenuItem key={plan.id} value={String(plan.id)}>
                {plan.name}
              </MenuItem>
            ))}
          </TextField>
        </Grid>
        <Grid size={{ xs: 12, sm: 6, md: 2 }}>
          <TextField
            select
            label={t('companies.fields.status')}
            value={values.status ? 'true' : 'false'}
            onChange={(e) => setValues((v) => ({ ...v, status: e.target.value === 'true' }))}
          >
            <MenuItem value="true">{t('common.yes')}</MenuItem>
            <MenuItem value="false">{t('common.no')}</MenuItem>
          </TextField>
        </Grid>
        <Grid size={{ xs: 12, sm: 6, md: 3 }}>
          <TextField select label={t('companies.fields.recurrence')} value={values.recurrence} onChange={set('recurrence')}>
            {recurrences.map((r) => (
              <MenuItem key={r} value={r}>
                {t(`recurrences.${r}`)}
              </MenuItem>
            ))}
          </TextField>
        </Grid>
        <Grid size={{ xs: 12, sm: 6, md: 4 }}>
          <Stack direction="row" spacing={1}>
            <DayField
              label={t('companies.fields.dueDate')}
              name="dueDate"
              value={values.dueDate}
              onChange={(dueDate) => setValues((v) => ({ ...v, dueDate }))}
            />
            <Button
              variant="outlined"
              sx={{ flexShrink: 0 }}
              onClick={() => setValues((v) => ({ ...v, dueDate: extendDueDate(v.dueDate || null, v.recurrence) }))}
              data-testid="extend-due-date"
            >
              {t('companies.extendDueDate')}
            </Button>
          </Stack>
        </Grid>
        {!company && (
          <Grid size={{ xs: 12, sm: 6, md: 4 }}>
            <TextField
              label={t('companies.fields.adminPassword')}
              type="password"
              autoComplete="new-password"
              value={values.password}
              onChange={set('password')}
              error={Boolean(errors.password)}
              helperText={errors.password}
            />
          </Grid>
        )}
        <Grid size={{ xs: 12, sm: 6, md: 4 }}>
          <FormControlLabel
            control={
              <Switch
                checked={values.campaignsEnabled}
                onChange={(e) => setValues((v) => ({ ...v, campaignsEnabled: e.target.checked }))}
              />
            }
            label={t('companies.fields.campaignsEnabled')}
          />
        </Grid>
      </Grid>
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', mt: 2 }}>
        <Button color="inherit" onClick={onCancel}>
          {t('common.clear')}
        </Button>
        <Button type="submit" variant="contained" loading={busy}>
          {company ? t('common.save') : t('common.add')}
        </Button>
      </Stack>
    </Paper>
  );
}
