import { type SlaFilter, slaFilters } from '@conversa/functions/contracts/sla';
import { MenuItem, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';

/** The list's service-level filter (issue 22 §3): every ticket, the breached ones, or those due soon. */
export function SlaFilterSelect({ value, onChange }: { value: SlaFilter | ''; onChange: (value: SlaFilter | '') => void }) {
  const { t } = useTranslation();
  return (
    <TextField
      select
      size="small"
      label={t('sla.filter.label')}
      value={value}
      onChange={(event) => onChange(event.target.value as SlaFilter | '')}
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'sla-filter' } }}
      sx={{ minWidth: 140 }}
    >
      <MenuItem value="">{t('sla.filter.any')}</MenuItem>
      {slaFilters.map((state) => (
        <MenuItem key={state} value={state}>
          {t(`sla.filter.${state}`)}
        </MenuItem>
      ))}
    </TextField>
  );
}
