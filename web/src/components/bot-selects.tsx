import { ListItemIcon, ListItemText, MenuItem, Stack, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useBotChoices } from '../lib/lookups/bot-choices.ts';
import { IntegrationLogo } from './integration-logo.tsx';

interface BotSelectsProps {
  promptId: number | null;
  integrationId: number | null;
  onChange: (next: { promptId?: number | null; integrationId?: number | null }) => void;
  errors?: { promptId?: string; integrationId?: string };
}

const idOf = (value: unknown): number | null => (value === '' || value === undefined || value === null ? null : Number(value));

/**
 * The queue and connection dialogs' bot: an AI prompt and a queue integration (issue 13), each
 * offered when the plan has it (useOpenAi, useIntegrations); "none" sends null. A stored id the list
 * does not hold any more still shows, as its number, so saving does not silently change it.
 */
export function BotSelects({ promptId, integrationId, onChange, errors = {} }: BotSelectsProps) {
  const { t } = useTranslation();
  const { prompts, integrations } = useBotChoices();
  if (!prompts && !integrations) return null;
  const missing = (list: { id: number }[], id: number | null) => (id !== null && !list.some((item) => item.id === id) ? [id] : []);

  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
      {prompts && (
        <TextField
          select
          label={t('botSelects.prompt')}
          value={promptId ?? ''}
          onChange={(e) => onChange({ promptId: idOf(e.target.value) })}
          error={Boolean(errors.promptId)}
          helperText={errors.promptId}
          fullWidth
          slotProps={{ htmlInput: { 'data-testid': 'prompt-select' } }}
        >
          <MenuItem value="">{t('common.none')}</MenuItem>
          {prompts.map((prompt) => (
            <MenuItem key={prompt.id} value={prompt.id}>
              {prompt.name}
            </MenuItem>
          ))}
          {missing(prompts, promptId).map((id) => (
            <MenuItem key={id} value={id}>
              #{id}
            </MenuItem>
          ))}
        </TextField>
      )}
      {integrations && (
        <TextField
          select
          label={t('botSelects.integration')}
          value={integrationId ?? ''}
          onChange={(e) => onChange({ integrationId: idOf(e.target.value) })}
          error={Boolean(errors.integrationId)}
          helperText={errors.integrationId}
          fullWidth
          slotProps={{
            htmlInput: { 'data-testid': 'integration-select' },
            select: {
              renderValue: (value) =>
                integrations.find((item) => item.id === value)?.name ?? (value === '' ? t('common.none') : `#${value}`),
              displayEmpty: false,
            },
          }}
        >
          <MenuItem value="">{t('common.none')}</MenuItem>
          {integrations.map((integration) => (
            <MenuItem key={integration.id} value={integration.id}>
              <ListItemIcon sx={{ minWidth: 32 }}>
                <IntegrationLogo type={integration.type ?? ''} size={20} />
              </ListItemIcon>
              <ListItemText>{integration.name}</ListItemText>
            </MenuItem>
          ))}
          {missing(integrations, integrationId).map((id) => (
            <MenuItem key={id} value={id}>
              #{id}
            </MenuItem>
          ))}
        </TextField>
      )}
    </Stack>
  );
}
