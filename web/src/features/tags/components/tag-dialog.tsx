import { createTagSchema, tagMessages, updateTagSchema } from '@conversa/functions/contracts/tag-requests';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  InputAdornment,
  Stack,
  Switch,
  TextField,
  Tooltip,
} from '@mui/material';
import type { TFunction } from 'i18next';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../lib/toast.ts';
import { useErrorToast } from '../../../lib/use-api-error.ts';
import { DEFAULT_TAG_COLOR, type Tag, useSaveTag } from '../api/tags.ts';

/** A few quick picks; the colour input offers any other. */
const SWATCHES = ['#B80000', '#DB3E00', '#FCCB00', '#008B02', '#006B76', '#1273DE', '#004DCF', '#5300EB', '#A4CCCC', '#795548'];

/** The contract words the tag rules in the spec's Portuguese (SPEC 5 "Tag"); the UI shows the current language. */
const messageKeys: Record<string, string> = {
  [tagMessages.tooShort]: 'tags.validation.tooShort',
  [tagMessages.required]: 'tags.validation.required',
  [tagMessages.tooLong]: 'tags.validation.tooLong',
};
const translate = (message: string, t: TFunction) => (messageKeys[message] ? t(messageKeys[message]) : message);

interface TagDialogProps {
  tag: Tag | undefined;
  /** SPEC 5/6: the Kanban switch shows only to admins and supervisors. */
  canSetKanban: boolean;
  onClose: () => void;
}

export function TagDialog({ tag, canSetKanban, onClose }: TagDialogProps) {
  const { t } = useTranslation();
  const [name, setName] = useState(tag?.name ?? '');
  const [color, setColor] = useState(tag?.color ?? DEFAULT_TAG_COLOR);
  const [kanban, setKanban] = useState<0 | 1>(tag?.kanban ?? 0);
  const [errors, setErrors] = useState<{ name?: string; color?: string }>({});
  const save = useSaveTag();
  const showError = useErrorToast();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const raw = { name, color, ...(canSetKanban ? { kanban } : {}) };
    const parsed = tag ? updateTagSchema.safeParse(raw) : createTagSchema.safeParse(raw);
    if (!parsed.success) {
      const next: { name?: string; color?: string } = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if ((field === 'name' || field === 'color') && !next[field]) next[field] = translate(issue.message, t);
      }
      setErrors(next);
      return;
    }
    setErrors({});
    try {
      await save.mutateAsync({ id: tag?.id, input: parsed.data });
      toast.success(t('tags.saved'));
      onClose();
    } catch (error) {
      showError(error);
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" data-testid="tag-dialog">
      <form onSubmit={submit} noValidate>
        <DialogTitle>{tag ? t('tags.dialog.editTitle') : t('tags.dialog.addTitle')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              label={t('tags.fields.name')}
              name="name"
              value={name}
              onChange={(e) => {
                setName(e.target.value);
                setErrors((current) => ({ ...current, name: undefined }));
              }}
              error={Boolean(errors.name)}
              helperText={errors.name}
              autoFocus
            />
            <TextField
              label={t('tags.fields.color')}
              name="color"
              value={color}
              onChange={(e) => setColor(e.target.value)}
              error={Boolean(errors.color)}
              helperText={errors.color}
              slotProps={{
                input: {
                  startAdornment: (
                    <InputAdornment position="start">
                      <Box
                        component="input"
                        type="color"
                        aria-label={t('tags.fields.color')}
                        value={/^#[0-9a-f]{6}$/i.test(color) ? color : DEFAULT_TAG_COLOR}
                        onChange={(e: { target: { value: string } }) => setColor(e.target.value)}
                        sx={{ width: 28, height: 28, p: 0, border: 0, bgcolor: 'transparent', cursor: 'pointer' }}
                      />
                    </InputAdornment>
                  ),
                },
              }}
            />
            <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'wrap', rowGap: 0.5 }}>
              {SWATCHES.map((swatch) => (
                <Tooltip key={swatch} title={swatch}>
                  <Box
                    component="button"
                    type="button"
                    aria-label={swatch}
                    onClick={() => setColor(swatch)}
                    sx={{
                      width: 24,
                      height: 24,
                      borderRadius: 0.5,
                      bgcolor: swatch,
                      cursor: 'pointer',
                      border: 2,
                      borderColor: swatch.toLowerCase() === color.toLowerCase() ? 'text.primary' : 'transparent',
                    }}
                  />
                </Tooltip>
              ))}
            </Stack>
            {canSetKanban && (
              <FormControlLabel
                control={<Switch checked={kanban === 1} onChange={(e) => setKanban(e.target.checked ? 1 : 0)} />}
                label={t('tags.dialog.kanbanHint')}
              />
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} color="inherit">
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={save.isPending}>
            {tag ? t('common.save') : t('common.add')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
