import { type CampaignMessageField, campaignConfirmationFields, campaignMessageFields } from '@conversa/functions/contracts/campaigns';
import { Box, Chip, Stack, Tab, Tabs, TextField, Typography } from '@mui/material';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** SPEC 9-ish: the message areas' rows, as the quick message dialog's. */
const MESSAGE_ROWS = 5;

export type CampaignMessages = Record<CampaignMessageField, string>;

interface CampaignMessageTabsProps {
  values: CampaignMessages;
  onChange: (field: CampaignMessageField, value: string) => void;
  /** With confirmation on, each tab also holds its confirmation message (SPEC 2 "Campaigns"). */
  confirmation: boolean;
  /** The placeholders a message may carry: {nome}, {numero}, {email} and the custom variables. */
  placeholders: string[];
  disabled: boolean;
  errors: Partial<Record<CampaignMessageField, string>>;
}

/** SPEC 2 "Campaigns" dialog: five message tabs (Msg. 1 to 5), each with its confirmation message when confirmation is on. */
export function CampaignMessageTabs({ values, onChange, confirmation, placeholders, disabled, errors }: CampaignMessageTabsProps) {
  const { t } = useTranslation();
  const [tab, setTab] = useState(0);
  const focused = useRef<{ field: CampaignMessageField; input: HTMLTextAreaElement } | undefined>(undefined);
  const messageField = campaignMessageFields[tab] ?? 'message1';
  const confirmationField = campaignConfirmationFields[tab] ?? 'confirmationMessage1';

  // A placeholder goes where the caret was in the last message area used (the message by default).
  const insert = (placeholder: string) => {
    const target = focused.current;
    const field = target && (target.field === messageField || target.field === confirmationField) ? target.field : messageField;
    const current = values[field];
    const start = target?.field === field ? (target.input.selectionStart ?? current.length) : current.length;
    const end = target?.field === field ? (target.input.selectionEnd ?? current.length) : current.length;
    onChange(field, current.slice(0, start) + placeholder + current.slice(end));
  };

  const area = (field: CampaignMessageField, label: string) => (
    <TextField
      key={field}
      label={label}
      name={field}
      value={values[field]}
      onChange={(e) => onChange(field, e.target.value)}
      onFocus={(e) => {
        focused.current = { field, input: e.target as HTMLTextAreaElement };
      }}
      error={Boolean(errors[field])}
      helperText={errors[field]}
      multiline
      rows={MESSAGE_ROWS}
      disabled={disabled}
      fullWidth
    />
  );

  return (
    <Box>
      <Tabs
        value={tab}
        onChange={(_, next: number) => setTab(next)}
        variant="scrollable"
        scrollButtons="auto"
        allowScrollButtonsMobile
        sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}
      >
        {campaignMessageFields.map((field, index) => (
          <Tab key={field} label={t('campaigns.dialog.messageTab', { n: index + 1 })} data-testid={`campaign-tab-${index + 1}`} />
        ))}
      </Tabs>
      <Stack spacing={2}>
        {confirmation && area(confirmationField, t('campaigns.fields.confirmationMessage', { n: tab + 1 }))}
        {area(messageField, t('campaigns.fields.message', { n: tab + 1 }))}
        {!disabled && (
          <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1, alignItems: 'center' }}>
            <Typography variant="caption" color="text.secondary">
              {t('campaigns.dialog.placeholders')}
            </Typography>
            {placeholders.map((placeholder) => (
              <Chip key={placeholder} size="small" variant="outlined" label={placeholder} onClick={() => insert(placeholder)} />
            ))}
          </Stack>
        )}
      </Stack>
    </Box>
  );
}
