import { createWebhookSchema, webhookEvents, webhookMessages } from '@conversa/functions/contracts/webhooks';
import {
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormHelperText,
  FormLabel,
  Stack,
  TextField,
} from '@mui/material';
import type { TFunction } from 'i18next';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { toast } from '../../../lib/toast.ts';
import { useErrorToast } from '../../../lib/use-api-error.ts';
import { fieldErrors } from '../../../lib/validation.ts';
import { useSaveWebhook, type Webhook, type WebhookWithSecret } from '../api/webhooks.ts';

interface FormValues {
  url: string;
  description: string;
  events: string[];
}
type Errors = Partial<Record<keyof FormValues, string>>;

/** The contract's own words, translated; the shared ones (Required) through fieldErrors. */
function translate(message: string, t: TFunction): string {
  const key = (Object.entries(webhookMessages).find(([, text]) => text === message) ?? [])[0];
  return key ? t(`webhooks.validation.${key}`) : String(fieldErrors<{ x: string }>([{ path: ['x'], message }], t).x ?? message);
}

/** Add or edit an endpoint: URL, description and the events it hears. A new endpoint's secret is shown once by the page. */
export function WebhookDialog({
  webhook,
  onClose,
  onCreated,
}: {
  webhook: Webhook | undefined;
  onClose: () => void;
  onCreated: (created: WebhookWithSecret) => void;
}) {
  const { t } = useTranslation();
  const save = useSaveWebhook();
  const showError = useErrorToast();
  const [values, setValues] = useState<FormValues>({
    url: webhook?.url ?? '',
    description: webhook?.description ?? '',
    events: webhook?.events ?? ['message.received'],
  });
  const [errors, setErrors] = useState<Errors>({});

  const toggle = (event: string) =>
    setValues((v) => ({ ...v, events: v.events.includes(event) ? v.events.filter((e) => e !== event) : [...v.events, event] }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = createWebhookSchema.safeParse(values);
    if (!parsed.success) {
      const found: Errors = {};
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0]) as keyof FormValues;
        found[field] ??= translate(issue.message, t);
      }
      setErrors(found);
      return;
    }
    setErrors({});
    try {
      const saved = await save.mutateAsync({
        id: webhook?.id,
        input: { url: parsed.data.url, description: parsed.data.description, events: parsed.data.events },
      });
      toast.success(t('webhooks.saved'));
      if (!webhook && 'secret' in saved) onCreated(saved as WebhookWithSecret);
      onClose();
    } catch (error) {
      if (error instanceof ApiError && typeof error.body === 'object' && error.body.field) {
        const field = String(error.body.field).split('.')[0] as keyof FormValues;
        setErrors({ [field]: translate(String(error.body.message ?? error.code), t) });
        return;
      }
      showError(error);
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" scroll="paper" data-testid="webhook-dialog">
      <form onSubmit={submit} noValidate>
        <DialogTitle>{webhook ? t('webhooks.dialog.editTitle') : t('webhooks.dialog.addTitle')}</DialogTitle>
        <DialogContent dividers>
          <Stack spacing={2}>
            <TextField
              label={t('webhooks.fields.url')}
              name="url"
              value={values.url}
              onChange={(e) => setValues((v) => ({ ...v, url: e.target.value }))}
              error={Boolean(errors.url)}
              helperText={errors.url ?? t('webhooks.dialog.urlHelp')}
              placeholder="https://loja.example.com/conversa/webhook"
              fullWidth
              autoFocus
            />
            <TextField
              label={t('webhooks.fields.description')}
              name="description"
              value={values.description}
              onChange={(e) => setValues((v) => ({ ...v, description: e.target.value }))}
              error={Boolean(errors.description)}
              helperText={errors.description}
              slotProps={{ htmlInput: { maxLength: 200 } }}
              fullWidth
            />
            <FormControl error={Boolean(errors.events)} component="fieldset">
              <FormLabel component="legend">{t('webhooks.fields.events')}</FormLabel>
              <FormGroup>
                {webhookEvents.map((event) => (
                  <FormControlLabel
                    key={event}
                    control={<Checkbox checked={values.events.includes(event)} onChange={() => toggle(event)} name={event} />}
                    label={`${t(`webhooks.events.${event.replace('.', '_')}`)} (${event})`}
                  />
                ))}
              </FormGroup>
              {errors.events && <FormHelperText>{errors.events}</FormHelperText>}
            </FormControl>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={save.isPending}>
            {t('common.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
