import { PROMPT_VOICES, type Prompt } from '@conversa/functions/contracts/prompts';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, Stack, TextField } from '@mui/material';
import type { TFunction } from 'i18next';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { useQueues } from '../../../lib/lookups/queues.ts';
import { toast } from '../../../lib/toast.ts';
import { useErrorToast } from '../../../lib/use-api-error.ts';
import {
  initialPromptValues,
  type PromptField,
  type PromptFormValues,
  promptInput,
  promptMessageKeys,
  promptProblems,
  voiceName,
} from '../api/prompt-rules.ts';
import { useSavePrompt } from '../api/prompts.ts';

type Errors = Partial<Record<PromptField, string>>;
type Field = PromptField;

/** SPEC 9: the prompt text area's rows. */
const PROMPT_ROWS = 7;

const translate = (message: string, t: TFunction) => {
  const key = promptMessageKeys[message] ?? message;
  return key.startsWith('prompts.') ? t(key) : message;
};

function clientErrors(values: PromptFormValues, t: TFunction): Errors | undefined {
  const problems = promptProblems(values);
  return problems && Object.fromEntries(Object.entries(problems).map(([field, key]) => [field, translate(String(key), t)]));
}

const voiceLabel = (voice: string, t: TFunction) => voiceName(voice) ?? t('prompts.voices.texto');

/** SPEC 2 "AI prompts": the add/edit dialog. */
export function PromptDialog({ prompt, onClose }: { prompt: Prompt | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const [values, setValues] = useState<PromptFormValues>(() => initialPromptValues(prompt));
  const [errors, setErrors] = useState<Errors>({});
  const queues = useQueues();
  const save = useSavePrompt();
  const showError = useErrorToast();

  const set = (field: Field) => (event: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [field]: event.target.value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problems = clientErrors(values, t);
    if (problems) {
      setErrors(problems);
      return;
    }
    setErrors({});
    try {
      await save.mutateAsync({ id: prompt?.id, input: promptInput(values) });
      toast.success(t('prompts.saved'));
      onClose();
    } catch (error) {
      if (error instanceof ApiError && typeof error.body === 'object' && error.body.field) {
        const field = String(error.body.field).split('.')[0] as Field;
        setErrors({ [field]: translate(String(error.body.message ?? error.code), t) });
      }
      showError(error);
    }
  };

  const text = (field: Field, extra: { type?: string; step?: string; helper?: string } = {}) => (
    <TextField
      label={t(`prompts.fields.${field}`)}
      name={field}
      value={values[field]}
      onChange={set(field)}
      error={Boolean(errors[field])}
      helperText={errors[field] ?? extra.helper}
      type={extra.type}
      slotProps={extra.step ? { htmlInput: { step: extra.step } } : undefined}
      fullWidth
    />
  );

  /** A sealed key (apiKey, voiceKey): never shown, its hint as placeholder; left empty it is kept. */
  const secret = (field: 'apiKey' | 'voiceKey') => {
    const hint = prompt?.[field];
    return (
      <TextField
        label={t(`prompts.fields.${field}`)}
        name={field}
        type="password"
        autoComplete="new-password"
        value={values[field]}
        onChange={set(field)}
        placeholder={hint || undefined}
        error={Boolean(errors[field])}
        helperText={errors[field] ?? (hint ? t('prompts.dialog.apiKeyKept', { hint }) : t('prompts.dialog.apiKeyHelp'))}
        slotProps={{ inputLabel: hint ? { shrink: true } : undefined, htmlInput: { spellCheck: false } }}
        fullWidth
      />
    );
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" scroll="paper" data-testid="prompt-dialog">
      <form onSubmit={submit} noValidate>
        <DialogTitle>{prompt ? t('prompts.dialog.editTitle') : t('prompts.dialog.addTitle')}</DialogTitle>
        <DialogContent dividers>
          <Stack spacing={2}>
            {text('name')}
            <TextField
              label={t('prompts.fields.prompt')}
              name="prompt"
              value={values.prompt}
              onChange={set('prompt')}
              error={Boolean(errors.prompt)}
              helperText={errors.prompt ?? t('prompts.dialog.promptHelp')}
              multiline
              minRows={PROMPT_ROWS}
              maxRows={14}
              fullWidth
            />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                select
                label={t('prompts.fields.queue')}
                value={values.queueId}
                onChange={set('queueId')}
                error={Boolean(errors.queueId)}
                helperText={errors.queueId}
                slotProps={{ htmlInput: { 'data-testid': 'prompt-queue' } }}
                fullWidth
              >
                {(queues.data ?? []).map((queue) => (
                  <MenuItem key={queue.id} value={String(queue.id)}>
                    {queue.name}
                  </MenuItem>
                ))}
              </TextField>
              <TextField
                select
                label={t('prompts.fields.voice')}
                value={values.voice}
                onChange={set('voice')}
                error={Boolean(errors.voice)}
                helperText={errors.voice}
                slotProps={{ htmlInput: { 'data-testid': 'prompt-voice' } }}
                fullWidth
              >
                {PROMPT_VOICES.map((voice) => (
                  <MenuItem key={voice} value={voice}>
                    {voiceLabel(voice, t)}
                  </MenuItem>
                ))}
              </TextField>
            </Stack>
            {values.voice !== 'texto' && (
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                {secret('voiceKey')}
                {text('voiceRegion')}
              </Stack>
            )}
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              {text('maxTokens', { type: 'number' })}
              {text('temperature', { type: 'number', step: '0.1' })}
              {text('maxMessages', { type: 'number' })}
            </Stack>
            {secret('apiKey')}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} color="inherit">
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={save.isPending}>
            {prompt ? t('common.save') : t('common.add')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
