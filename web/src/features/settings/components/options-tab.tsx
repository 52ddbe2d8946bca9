import { type SettingKey, settingValueSchemas, superOnlySettingKeys } from '@conversa/functions/contracts';
import { Alert, Grid, MenuItem, TextField } from '@mui/material';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PasswordField } from '../../../components/password-field.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { toast } from '../../../lib/toast.ts';
import { useApiErrorMessage, useErrorToast } from '../../../lib/use-api-error.ts';
import { shownSettingKeys, useSettings, useUpdateSetting } from '../api/settings.ts';
import { CompanyExport } from './company-export.tsx';

/** Enum-valued keys become selects; the allowed values come from the contract schema itself. */
function optionsOf(key: SettingKey): readonly string[] | undefined {
  const schema = settingValueSchemas[key] as unknown as { options?: readonly string[] };
  return Array.isArray(schema.options) ? schema.options : undefined;
}

function FreeTextSetting({
  settingKey,
  value,
  disabled,
  onSave,
}: {
  settingKey: SettingKey;
  value: string;
  disabled: boolean;
  onSave: (v: string) => void;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  const field = {
    label: t(`settings.keys.${settingKey}`),
    value: draft,
    disabled,
    onChange: (e: { target: { value: string } }) => setDraft(e.target.value),
    // Saved when the field is left, not on every keystroke.
    onBlur: () => draft !== value && onSave(draft),
    helperText: t(`settings.hints.${settingKey}`, { defaultValue: '' }) || undefined,
  };
  // A super-only key is a secret (the payment provider's key: the server keeps it out of the audit
  // trail too): hidden until asked for, and never offered to the browser's password manager.
  if (superOnlySettingKeys.has(settingKey))
    return (
      <PasswordField
        {...field}
        toggleLabel={t('settings.toggleSecret')}
        slotProps={{ htmlInput: { autoComplete: 'off', 'data-testid': `setting-${settingKey}` } }}
      />
    );
  return <TextField {...field} />;
}

export function OptionsTab({ canEdit, isSuper }: { canEdit: boolean; isSuper: boolean }) {
  const { t } = useTranslation();
  const settings = useSettings();
  const update = useUpdateSetting();
  const showError = useErrorToast();
  const errorText = useApiErrorMessage();

  if (settings.isPending) return <Spinner />;
  if (settings.isError) return <Alert severity="error">{errorText(settings.error)}</Alert>;

  const save = async (key: SettingKey, value: string) => {
    try {
      await update.mutateAsync({ key, value });
      toast.success(t('settings.updated'));
    } catch (error) {
      showError(error);
    }
  };

  return (
    <>
      <Grid container spacing={2}>
        {shownSettingKeys({ super: isSuper }).map((key) => {
          const options = optionsOf(key);
          const value = settings.data[key];
          return (
            <Grid key={key} size={{ xs: 12, sm: 6, md: 4 }}>
              {options ? (
                <TextField
                  select
                  label={t(`settings.keys.${key}`)}
                  value={value}
                  disabled={!canEdit}
                  onChange={(e) => save(key, e.target.value)}
                  data-testid={`setting-${key}`}
                >
                  {options.map((option) => (
                    <MenuItem key={option} value={option}>
                      {t(`settings.values.${option}`, { defaultValue: option })}
                    </MenuItem>
                  ))}
                </TextField>
              ) : (
                <FreeTextSetting settingKey={key} value={value} disabled={!canEdit} onSave={(v) => save(key, v)} />
              )}
            </Grid>
          );
        })}
      </Grid>
      {canEdit && <CompanyExport />}
    </>
  );
}
