import {
  checkIntegration,
  createIntegrationSchema,
  type IntegrationType,
  integrationLanguages,
  integrationMessages,
  integrationTypes,
  type QueueIntegration,
  TYPEBOT_DELAY_DEFAULT,
  TYPEBOT_EXPIRES_DEFAULT,
} from '@conversa/functions/contracts/queue-integrations';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  ListItemIcon,
  ListItemText,
  MenuItem,
  Stack,
  TextField,
} from '@mui/material';
import type { TFunction } from 'i18next';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { IntegrationLogo } from '../../../components/integration-logo.tsx';
import { SecretField } from '../../../components/secret-field.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { toast } from '../../../lib/toast.ts';
import { useErrorToast } from '../../../lib/use-api-error.ts';
import { fieldErrors } from '../../../lib/validation.ts';
import { testDialogflowSession, useSaveQueueIntegration } from '../api/queue-integrations.ts';

interface FormValues {
  type: IntegrationType;
  name: string;
  projectName: string;
  jsonContent: string;
  language: string;
  urlN8N: string;
  typebotSlug: string;
  typebotExpires: string;
  typebotDelayMessage: string;
  typebotKeywordFinish: string;
  typebotKeywordRestart: string;
  typebotUnknownMessage: string;
  typebotRestartMessage: string;
}
type Field = keyof FormValues;
type Errors = Partial<Record<Field, string>>;

const initialValues = (integration: QueueIntegration | undefined): FormValues => ({
  type: integration?.type ?? 'typebot',
  name: integration?.name ?? '',
  projectName: integration?.type === 'dialogflow' ? integration.projectName : '',
  // The stored service account never comes back: an empty field keeps it.
  jsonContent: '',
  language: integration?.language ?? 'pt-BR',
  urlN8N: integration?.urlN8N ?? '',
  typebotSlug: integration?.typebotSlug ?? '',
  typebotExpires: String(integration?.typebotExpires ?? TYPEBOT_EXPIRES_DEFAULT),
  typebotDelayMessage: String(integration?.typebotDelayMessage ?? TYPEBOT_DELAY_DEFAULT),
  typebotKeywordFinish: integration?.typebotKeywordFinish ?? '',
  typebotKeywordRestart: integration?.typebotKeywordRestart ?? '',
  typebotUnknownMessage: integration?.typebotUnknownMessage ?? '',
  typebotRestartMessage: integration?.typebotRestartMessage ?? '',
});

/** What the API takes for the chosen type: only that type's fields travel. */
function inputOf(values: FormValues): Record<string, unknown> {
  const { type, name } = values;
  if (type === 'dialogflow') {
    return {
      type,
      name,
      projectName: values.projectName,
      language: values.language,
      ...(values.jsonContent.trim() ? { jsonContent: values.jsonContent } : {}),
    };
  }
  if (type === 'n8n' || type === 'webhook') return { type, name, urlN8N: values.urlN8N };
  return {
    type,
    name,
    urlN8N: values.urlN8N,
    typebotSlug: values.typebotSlug,
    typebotExpires: values.typebotExpires,
    typebotDelayMessage: values.typebotDelayMessage,
    typebotKeywordFinish: values.typebotKeywordFinish,
    typebotKeywordRestart: values.typebotKeywordRestart,
    typebotUnknownMessage: values.typebotUnknownMessage,
    typebotRestartMessage: values.typebotRestartMessage,
  };
}

/** The contract's own words for the integration rules; the shared ones (Required, Too Short!) go through fieldErrors. */
const messageKeys: Record<string, string> = {
  [integrationMessages.url]: 'queueIntegrations.validation.url',
  [integrationMessages.slug]: 'queueIntegrations.validation.slug',
  [integrationMessages.projectName]: 'queueIntegrations.validation.projectName',
  [integrationMessages.credentials]: 'queueIntegrations.validation.credentials',
};
const translate = (message: string, t: TFunction) => (messageKeys[message] ? t(messageKeys[message]) : message);

function clientErrors(values: FormValues, stored: QueueIntegration | undefined, t: TFunction): Errors | undefined {
  const input = inputOf(values);
  const parsed = createIntegrationSchema.safeParse(input);
  if (!parsed.success) {
    const errors = fieldErrors<FormValues>(parsed.error.issues, t);
    return Object.fromEntries(Object.entries(errors).map(([field, message]) => [field, translate(String(message), t)]));
  }
  const problem = checkIntegration({
    ...parsed.data,
    projectName: values.type === 'dialogflow' ? parsed.data.projectName : parsed.data.name,
    hasCredentials: values.jsonContent.trim() !== '' || Boolean(stored?.jsonContentSet && stored.type === 'dialogflow'),
  });
  if (!problem) return undefined;
  // Shared words (Required) through fieldErrors, the contract's own through translate: a Dialogflow
  // project name that is no path segment is caught here, not by the schema.
  const shared = String(fieldErrors([{ path: [problem.field], message: problem.message }], t)[problem.field as never]);
  return { [problem.field]: translate(shared, t) };
}

/** SPEC 2 "Queue integrations": the add/edit dialog, whose fields follow the type. */
export function QueueIntegrationDialog({ integration, onClose }: { integration: QueueIntegration | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  // After creating an n8n or webhook integration the dialog stays open on it to show its signing secret.
  const [current, setCurrent] = useState(integration);
  const [values, setValues] = useState<FormValues>(() => initialValues(integration));
  const [errors, setErrors] = useState<Errors>({});
  const [testing, setTesting] = useState(false);
  const save = useSaveQueueIntegration();
  const showError = useErrorToast();
  const type = values.type;
  const signs = type === 'n8n' || type === 'webhook';

  const set = (field: Field) => (event: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [field]: event.target.value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problems = clientErrors(values, current, t);
    if (problems) {
      setErrors(problems);
      return;
    }
    setErrors({});
    try {
      const saved = await save.mutateAsync({ id: current?.id, input: inputOf(values) });
      toast.success(t('queueIntegrations.saved'));
      if (!current && (saved.type === 'n8n' || saved.type === 'webhook')) {
        setCurrent(saved);
        return;
      }
      onClose();
    } catch (error) {
      if (error instanceof ApiError && typeof error.body === 'object' && error.body.field) {
        const field = String(error.body.field).split('.')[0] as Field;
        setErrors({ [field]: translate(String(error.body.message ?? error.code), t) });
      }
      showError(error);
    }
  };

  const test = async () => {
    setTesting(true);
    try {
      const result = await testDialogflowSession({
        projectName: values.projectName,
        jsonContent: values.jsonContent,
        language: values.language,
        ...(current?.type === 'dialogflow' ? { id: current.id } : {}),
      });
      toast.success(t('queueIntegrations.dialog.testOk', { reply: result.replies.join(' / ') || '…' }));
    } catch (error) {
      if (error instanceof ApiError && error.code === 'ERR_INTEGRATION_TEST_FAILED' && typeof error.body === 'object') {
        toast.error(t('queueIntegrations.dialog.testFailed', { reason: String(error.body.reason ?? '') }));
      } else showError(error);
    } finally {
      setTesting(false);
    }
  };

  const text = (field: Field, extra: { multiline?: boolean; type?: string; helper?: string } = {}) => (
    <TextField
      label={t(`queueIntegrations.fields.${field}`)}
      name={field}
      value={values[field]}
      onChange={set(field)}
      error={Boolean(errors[field])}
      helperText={errors[field] ?? extra.helper}
      multiline={extra.multiline}
      minRows={extra.multiline ? 2 : undefined}
      type={extra.type}
      fullWidth
    />
  );

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" scroll="paper" data-testid="queue-integration-dialog">
      <form onSubmit={submit} noValidate>
        <DialogTitle>{current ? t('queueIntegrations.dialog.editTitle') : t('queueIntegrations.dialog.addTitle')}</DialogTitle>
        <DialogContent dividers>
          <Stack spacing={2}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                select
                label={t('queueIntegrations.fields.type')}
                value={type}
                onChange={(e) => setValues((v) => ({ ...v, type: e.target.value as IntegrationType }))}
                slotProps={{ htmlInput: { 'data-testid': 'integration-type' } }}
                sx={{ minWidth: 200 }}
              >
                {integrationTypes.map((option) => (
                  <MenuItem key={option} value={option}>
                    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                      <ListItemIcon sx={{ minWidth: 0 }}>
                        <IntegrationLogo type={option} size={20} />
                      </ListItemIcon>
                      <ListItemText>{t(`queueIntegrations.types.${option}`)}</ListItemText>
                    </Stack>
                  </MenuItem>
                ))}
              </TextField>
              {text('name')}
            </Stack>

            {type === 'dialogflow' && (
              <>
                <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                  {text('projectName')}
                  <TextField
                    select
                    label={t('queueIntegrations.fields.language')}
                    value={values.language}
                    onChange={set('language')}
                    error={Boolean(errors.language)}
                    helperText={errors.language}
                    sx={{ minWidth: 180 }}
                  >
                    {integrationLanguages.map((language) => (
                      <MenuItem key={language} value={language}>
                        {t(`queueIntegrations.languages.${language}`)}
                      </MenuItem>
                    ))}
                  </TextField>
                </Stack>
                <TextField
                  label={t('queueIntegrations.fields.jsonContent')}
                  name="jsonContent"
                  value={values.jsonContent}
                  onChange={set('jsonContent')}
                  error={Boolean(errors.jsonContent)}
                  helperText={
                    errors.jsonContent ??
                    (current?.jsonContentSet && current.type === 'dialogflow'
                      ? t('queueIntegrations.dialog.credentialsSet')
                      : t('queueIntegrations.dialog.credentialsHelp'))
                  }
                  placeholder='{"type": "service_account", "client_email": "…", "private_key": "…", "token_uri": "…"}'
                  multiline
                  minRows={4}
                  maxRows={10}
                  fullWidth
                  slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace', fontSize: 12 } } }}
                />
                <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
                  <Button variant="outlined" onClick={() => void test()} loading={testing} data-testid="integration-test">
                    {t('queueIntegrations.dialog.test')}
                  </Button>
                </Stack>
              </>
            )}

            {type !== 'dialogflow' &&
              text('urlN8N', { helper: type === 'typebot' ? t('queueIntegrations.dialog.typebotUrlHelp') : undefined })}

            {signs &&
              (current?.signingSecret && current.type === type ? (
                <SecretField
                  label={t('queueIntegrations.fields.signingSecret')}
                  value={current.signingSecret}
                  helperText={t('queueIntegrations.dialog.secretHelp')}
                  testId="signing-secret"
                  copyLabel={t('queueIntegrations.dialog.copy')}
                  copiedMessage={t('queueIntegrations.dialog.copied')}
                />
              ) : (
                <Alert severity="info">{t('queueIntegrations.dialog.secretAfterSave')}</Alert>
              ))}

            {type === 'typebot' && (
              <>
                {text('typebotSlug')}
                <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                  {text('typebotExpires', { type: 'number' })}
                  {text('typebotDelayMessage', { type: 'number' })}
                </Stack>
                <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                  {text('typebotKeywordFinish')}
                  {text('typebotKeywordRestart')}
                </Stack>
                {text('typebotUnknownMessage', { multiline: true })}
                {text('typebotRestartMessage', { multiline: true })}
              </>
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} color="inherit">
            {current && !integration ? t('queueIntegrations.dialog.close') : t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={save.isPending}>
            {current ? t('common.save') : t('common.add')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
