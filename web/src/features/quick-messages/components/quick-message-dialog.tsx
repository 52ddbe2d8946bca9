import { createQuickMessageSchema, updateQuickMessageSchema } from '@conversa/functions/contracts/quick-message-requests';
import AttachFile from '@mui/icons-material/AttachFile';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import {
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  Menu,
  MenuItem,
  Stack,
  Switch,
  TextField,
} from '@mui/material';
import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SENDABLE_ACCEPT } from '../../../lib/direct-upload.ts';
import { CONTACT_PLACEHOLDERS } from '../../../lib/message-variables.ts';
import { toast } from '../../../lib/toast.ts';
import { useErrorToast } from '../../../lib/use-api-error.ts';
import { type QuickMessage, useSaveQuickMessage } from '../api/quick-messages.ts';
import { insertAt } from './insert-at-cursor.ts';

/** SPEC 9: the quick-message text area has 7 rows. */
const MESSAGE_ROWS = 7;

/**
 * Placeholders the helper inserts: the campaigns' ones (issue 25), so one set serves both; the
 * conversation fills them in when the quick reply is used (lib/message-variables), as it still does
 * the older {{name}}, {{greeting}}, ... of replies written before.
 */
const VARIABLES = CONTACT_PLACEHOLDERS.map((value) => ({ key: value.slice(1, -1), value }));

/** The contract's messages (SPEC 5 "Quick message": 'Obrigatório') in the current language. */
const messageKeys: Record<string, string> = {
  Obrigatório: 'quickMessages.validation.required',
  'Too Long!': 'quickMessages.validation.tooLong',
};

interface QuickMessageDialogProps {
  quickMessage: QuickMessage | undefined;
  /** Admins may share one with everyone (geral). */
  canShare: boolean;
  onClose: () => void;
}

/** SPEC 2 "Quick messages": shortcode, multiline message with an insert-at-cursor helper, optional attachment. */
export function QuickMessageDialog({ quickMessage, canShare, onClose }: QuickMessageDialogProps) {
  const { t } = useTranslation();
  const [shortcode, setShortcode] = useState(quickMessage?.shortcode ?? '');
  const [message, setMessage] = useState(quickMessage?.message ?? '');
  const [geral, setGeral] = useState(quickMessage?.geral ?? false);
  const [status, setStatus] = useState(quickMessage?.status ?? true);
  // undefined: keep the current attachment; null: remove it; a File: upload it.
  const [attachment, setAttachment] = useState<File | null | undefined>(undefined);
  const [errors, setErrors] = useState<{ shortcode?: string; message?: string }>({});
  const [variablesAnchor, setVariablesAnchor] = useState<HTMLElement | null>(null);
  const messageInput = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const save = useSaveQuickMessage();
  const showError = useErrorToast();

  const attachmentName = attachment ? attachment.name : attachment === null ? '' : (quickMessage?.mediaName ?? '');

  const insert = (snippet: string) => {
    setVariablesAnchor(null);
    const input = messageInput.current;
    const start = input?.selectionStart ?? message.length;
    const end = input?.selectionEnd ?? message.length;
    const next = insertAt(message, snippet, start, end);
    setMessage(next.text);
    // Put the caret after the inserted text once React has rendered the new value.
    requestAnimationFrame(() => {
      input?.focus();
      input?.setSelectionRange(next.caret, next.caret);
    });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const raw = { shortcode, message, status, ...(canShare ? { geral } : {}) };
    const parsed = quickMessage ? updateQuickMessageSchema.safeParse(raw) : createQuickMessageSchema.safeParse(raw);
    if (!parsed.success) {
      const next: { shortcode?: string; message?: string } = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if ((field === 'shortcode' || field === 'message') && !next[field])
          next[field] = messageKeys[issue.message] ? t(messageKeys[issue.message] as string) : issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    try {
      await save.mutateAsync({ id: quickMessage?.id, input: parsed.data, attachment });
      toast.success(t('quickMessages.saved'));
      onClose();
    } catch (error) {
      showError(error);
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" data-testid="quick-message-dialog">
      <form onSubmit={submit} noValidate>
        <DialogTitle>{quickMessage ? t('quickMessages.dialog.editTitle') : t('quickMessages.dialog.addTitle')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              label={t('quickMessages.fields.shortcode')}
              name="shortcode"
              value={shortcode}
              onChange={(e) => {
                setShortcode(e.target.value);
                setErrors((current) => ({ ...current, shortcode: undefined }));
              }}
              error={Boolean(errors.shortcode)}
              helperText={errors.shortcode}
              autoFocus
            />
            <TextField
              label={t('quickMessages.fields.message')}
              name="message"
              value={message}
              onChange={(e) => setMessage(e.target.value)}
              error={Boolean(errors.message)}
              helperText={errors.message}
              multiline
              rows={MESSAGE_ROWS}
              inputRef={messageInput}
            />
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
              <Button size="small" variant="outlined" onClick={(e) => setVariablesAnchor(e.currentTarget)}>
                {t('quickMessages.dialog.insertLabel')}
              </Button>
              <Button size="small" startIcon={<AttachFile />} onClick={() => fileInput.current?.click()}>
                {t('quickMessages.dialog.attach')}
              </Button>
              <input
                ref={fileInput}
                type="file"
                hidden
                accept={SENDABLE_ACCEPT}
                data-testid="quick-message-file"
                onChange={(e) => {
                  const file = e.target.files?.[0];
                  if (file) setAttachment(file);
                  e.target.value = '';
                }}
              />
              {attachmentName && (
                <Chip
                  label={attachmentName}
                  icon={<AttachFile />}
                  onDelete={() => setAttachment(null)}
                  deleteIcon={<DeleteOutline aria-label={t('quickMessages.dialog.removeAttachment')} />}
                  data-testid="quick-message-attachment"
                />
              )}
            </Stack>
            <Menu open={Boolean(variablesAnchor)} anchorEl={variablesAnchor} onClose={() => setVariablesAnchor(null)}>
              {VARIABLES.map((variable) => (
                <MenuItem key={variable.key} onClick={() => insert(variable.value)}>
                  {t(`quickMessages.dialog.placeholders.${variable.key}`)} — {variable.value}
                </MenuItem>
              ))}
            </Menu>
            <Stack direction="row" spacing={2}>
              <FormControlLabel
                control={<Switch checked={status} onChange={(e) => setStatus(e.target.checked)} />}
                label={t('quickMessages.fields.status')}
              />
              {canShare && (
                <FormControlLabel
                  control={<Switch checked={geral} onChange={(e) => setGeral(e.target.checked)} />}
                  label={t('quickMessages.fields.geral')}
                />
              )}
            </Stack>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} color="inherit">
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={save.isPending}>
            {quickMessage ? t('common.save') : t('common.add')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
