import {
  builtInPlaceholders,
  type CampaignSettings,
  type CampaignVariable,
  campaignSettingsInputSchema,
  longerIntervals,
  MAX_CAMPAIGN_VARIABLES,
  messageIntervals,
} from '@conversa/functions/contracts/campaigns';
import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import {
  Alert,
  Box,
  Button,
  Grid,
  IconButton,
  MenuItem,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/page-header.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { toast } from '../../../lib/toast.ts';
import { useApiErrorMessage, useErrorToast } from '../../../lib/use-api-error.ts';
import { useCampaignSettings, useSaveCampaignSettings } from '../api/campaigns.ts';

type Interval = 'messageInterval' | 'longerIntervalAfter' | 'greaterInterval';
const intervalChoices: Record<Interval, readonly number[]> = {
  messageInterval: messageIntervals,
  longerIntervalAfter: longerIntervals,
  greaterInterval: longerIntervals,
};

/** SPEC 2 "Campaign settings": the pacing intervals (SPEC 9's allowed values, in seconds) and the custom variables. */
export function CampaignSettingsPage() {
  const { t } = useTranslation();
  const settings = useCampaignSettings();
  const errorText = useApiErrorMessage();
  return (
    <>
      <PageHeader title={t('campaigns.settings.title')} />
      {settings.isPending ? (
        <Box sx={{ display: 'grid', placeItems: 'center', minHeight: '30vh' }}>
          <Spinner />
        </Box>
      ) : settings.error ? (
        <Alert severity="error">{errorText(settings.error)}</Alert>
      ) : (
        <SettingsForm initial={settings.data} />
      )}
    </>
  );
}

function SettingsForm({ initial }: { initial: CampaignSettings }) {
  const { t } = useTranslation();
  const save = useSaveCampaignSettings();
  const showError = useErrorToast();
  const [intervals, setIntervals] = useState<Record<Interval, number>>({
    messageInterval: initial.messageInterval,
    longerIntervalAfter: initial.longerIntervalAfter,
    greaterInterval: initial.greaterInterval,
  });
  const [variables, setVariables] = useState<CampaignVariable[]>(initial.variables);
  const [draft, setDraft] = useState<CampaignVariable>({ key: '', value: '' });
  const [draftError, setDraftError] = useState<string | undefined>(undefined);

  const persist = async (next: { intervals?: Record<Interval, number>; variables?: CampaignVariable[] }) => {
    const parsed = campaignSettingsInputSchema.safeParse({ settings: { ...(next.intervals ?? {}), variables: next.variables } });
    if (!parsed.success) {
      toast.error(parsed.error.issues[0]?.message ?? t('errors.generic'));
      return false;
    }
    try {
      await save.mutateAsync(parsed.data.settings);
      toast.success(t('campaigns.settings.saved'));
      return true;
    } catch (error) {
      showError(error);
      return false;
    }
  };

  const addVariable = async () => {
    const key = draft.key.trim().replace(/^\{|\}$/g, '');
    if (!/^[\p{L}\p{N}_]{1,30}$/u.test(key)) return setDraftError(t('campaigns.settings.keyRule'));
    if ((builtInPlaceholders as readonly string[]).includes(key.toLowerCase())) return setDraftError(t('campaigns.settings.keyReserved'));
    // SPEC 5: shortcuts are unique; a repeated one is ignored.
    if (variables.some((v) => v.key === key)) return setDraftError(t('campaigns.settings.keyTaken'));
    const next = [...variables, { key, value: draft.value }];
    if (await persist({ variables: next })) {
      setVariables(next);
      setDraft({ key: '', value: '' });
      setDraftError(undefined);
    }
  };

  const removeVariable = async (key: string) => {
    const next = variables.filter((v) => v.key !== key);
    if (await persist({ variables: next })) setVariables(next);
  };

  const submitIntervals = (event: FormEvent) => {
    event.preventDefault();
    void persist({ intervals });
  };

  return (
    <Stack spacing={3}>
      <Paper variant="outlined" sx={{ p: 2 }} component="form" onSubmit={submitIntervals} noValidate data-testid="campaign-intervals">
        <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
          {t('campaigns.settings.intervals')}
        </Typography>
        <Grid container spacing={2}>
          {(Object.keys(intervalChoices) as Interval[]).map((name) => (
            <Grid key={name} size={{ xs: 12, md: 4 }}>
              <TextField
                select
                fullWidth
                name={name}
                label={t(`campaigns.settings.${name}`)}
                value={intervals[name]}
                onChange={(e) => setIntervals((current) => ({ ...current, [name]: Number(e.target.value) }))}
              >
                {intervalChoices[name].map((seconds) => (
                  <MenuItem key={seconds} value={seconds}>
                    {name === 'longerIntervalAfter'
                      ? seconds === 0
                        ? t('campaigns.settings.never')
                        : t('campaigns.settings.sends', { count: seconds })
                      : t('campaigns.settings.seconds', { count: seconds })}
                  </MenuItem>
                ))}
              </TextField>
            </Grid>
          ))}
        </Grid>
        <Stack direction="row" sx={{ justifyContent: 'flex-end', mt: 2 }}>
          <Button type="submit" variant="contained" loading={save.isPending}>
            {t('common.save')}
          </Button>
        </Stack>
      </Paper>
      <Paper variant="outlined" sx={{ p: 2 }} data-testid="campaign-variables">
        <Typography variant="h6" component="h2">
          {t('campaigns.settings.variables')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('campaigns.settings.variablesHint')}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' }, mb: 2 }}>
          <TextField
            label={t('campaigns.settings.key')}
            name="variableKey"
            value={draft.key}
            onChange={(e) => {
              setDraft((current) => ({ ...current, key: e.target.value }));
              setDraftError(undefined);
            }}
            error={Boolean(draftError)}
            helperText={draftError}
            sx={{ minWidth: 180 }}
          />
          <TextField
            label={t('campaigns.settings.value')}
            name="variableValue"
            value={draft.value}
            onChange={(e) => setDraft((current) => ({ ...current, value: e.target.value }))}
            sx={{ flexGrow: 1 }}
          />
          <Button
            variant="outlined"
            startIcon={<Add />}
            onClick={() => void addVariable()}
            disabled={!draft.key.trim() || variables.length >= MAX_CAMPAIGN_VARIABLES}
            sx={{ flexShrink: 0, height: 40, mt: { sm: 0.5 } }}
          >
            {t('common.add')}
          </Button>
        </Stack>
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{t('campaigns.settings.shortcut')}</TableCell>
              <TableCell>{t('campaigns.settings.value')}</TableCell>
              <TableCell align="right">{t('common.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {variables.map((variable) => (
              <TableRow key={variable.key} data-testid="campaign-variable">
                <TableCell>{`{${variable.key}}`}</TableCell>
                <TableCell sx={{ overflowWrap: 'anywhere' }}>{variable.value}</TableCell>
                <TableCell align="right">
                  <IconButton size="small" aria-label={t('common.delete')} onClick={() => void removeVariable(variable.key)}>
                    <DeleteOutline fontSize="small" />
                  </IconButton>
                </TableCell>
              </TableRow>
            ))}
            {variables.length === 0 && (
              <TableRow>
                <TableCell colSpan={3} align="center" sx={{ color: 'text.secondary' }}>
                  {t('common.noRecords')}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </Paper>
    </Stack>
  );
}
