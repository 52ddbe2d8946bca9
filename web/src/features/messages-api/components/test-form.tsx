import AttachFile from '@mui/icons-material/AttachFile';
import Send from '@mui/icons-material/Send';
import { Button, Chip, MenuItem, Paper, Stack, TextField, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConnections } from '../../../lib/lookups/connections.ts';
import { toast } from '../../../lib/toast.ts';
import { useErrorToast } from '../../../lib/use-api-error.ts';
import { sendTestMessage, unmask } from '../api/send-test.ts';

type Field = 'token' | 'number' | 'body';

/**
 * One test form (SPEC 2 "Messages API documentation page with test forms for text and media"): a
 * connection chosen fills its token (which may also be typed), then number and body or a file.
 * SPEC 5: token, number and body (or a file) are required.
 */
export function TestForm({ kind }: { kind: 'text' | 'media' }) {
  const { t } = useTranslation();
  const connections = useConnections();
  const [connectionId, setConnectionId] = useState<number | ''>('');
  const [token, setToken] = useState('');
  const [number, setNumber] = useState('');
  const [body, setBody] = useState('');
  const [file, setFile] = useState<File | undefined>(undefined);
  const [errors, setErrors] = useState<Partial<Record<Field | 'file', string>>>({});
  const fileInput = useRef<HTMLInputElement>(null);
  const showError = useErrorToast();
  const send = useMutation({ mutationFn: sendTestMessage });
  const withToken = (connections.data ?? []).filter((connection) => connection.token);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const required = t('messagesApi.validation.required');
    const next: Partial<Record<Field | 'file', string>> = {};
    if (!token.trim()) next.token = required;
    if (!unmask(number)) next.number = required;
    if (kind === 'text' && !body.trim()) next.body = required;
    if (kind === 'media' && !file) next.file = required;
    setErrors(next);
    if (Object.keys(next).length) return;
    try {
      await send.mutateAsync({ token, number, body, file: kind === 'media' ? file : undefined });
      toast.success(t('messagesApi.sent'));
      setBody('');
      setFile(undefined);
    } catch (error) {
      showError(error);
    }
  };

  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="form" onSubmit={submit} noValidate data-testid={`messages-api-${kind}-form`}>
      <Typography variant="h6" sx={{ mb: 2 }}>
        {kind === 'text' ? t('messagesApi.textTitle') : t('messagesApi.mediaTitle')}
      </Typography>
      <Stack spacing={2}>
        <TextField
          select
          label={t('messagesApi.fields.connection')}
          value={connectionId}
          onChange={(e) => {
            const id = Number(e.target.value);
            setConnectionId(id);
            setToken(withToken.find((connection) => connection.id === id)?.token ?? '');
            setErrors((current) => ({ ...current, token: undefined }));
          }}
          helperText={withToken.length ? undefined : t('messagesApi.noTokens')}
          slotProps={{ select: { SelectDisplayProps: { 'data-testid': `messages-api-${kind}-connection` } as object } }}
        >
          {withToken.map((connection) => (
            <MenuItem key={connection.id} value={connection.id}>
              {connection.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          label={t('messagesApi.fields.token')}
          name="token"
          value={token}
          onChange={(e) => setToken(e.target.value)}
          error={Boolean(errors.token)}
          helperText={errors.token}
          autoComplete="off"
        />
        <TextField
          label={t('messagesApi.fields.number')}
          name="number"
          value={number}
          onChange={(e) => setNumber(e.target.value)}
          error={Boolean(errors.number)}
          helperText={errors.number ?? t('messagesApi.numberHint')}
          inputMode="numeric"
        />
        <TextField
          label={kind === 'text' ? t('messagesApi.fields.body') : t('messagesApi.fields.caption')}
          name="body"
          value={body}
          onChange={(e) => setBody(e.target.value)}
          error={Boolean(errors.body)}
          helperText={errors.body}
          multiline
          minRows={kind === 'text' ? 3 : 1}
        />
        {kind === 'media' && (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
            <Button
              size="small"
              startIcon={<AttachFile />}
              onClick={() => fileInput.current?.click()}
              color={errors.file ? 'error' : 'primary'}
            >
              {t('messagesApi.fields.file')}
            </Button>
            <input
              ref={fileInput}
              type="file"
              hidden
              data-testid="messages-api-file"
              onChange={(e) => {
                setFile(e.target.files?.[0]);
                setErrors((current) => ({ ...current, file: undefined }));
                e.target.value = '';
              }}
            />
            {file && <Chip label={file.name} onDelete={() => setFile(undefined)} />}
            {errors.file && (
              <Typography variant="caption" color="error">
                {errors.file}
              </Typography>
            )}
          </Stack>
        )}
        <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
          <Button type="submit" variant="contained" startIcon={<Send />} loading={send.isPending}>
            {t('messagesApi.send')}
          </Button>
        </Stack>
      </Stack>
    </Paper>
  );
}
