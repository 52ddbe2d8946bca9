import { fileListInputSchema, fileListMessages, MAX_FILE_LIST_OPTIONS } from '@conversa/functions/contracts/file-lists';
import Add from '@mui/icons-material/Add';
import AttachFile from '@mui/icons-material/AttachFile';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import {
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  LinearProgress,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SENDABLE_ACCEPT } from '../../../lib/direct-upload.ts';
import { toast } from '../../../lib/toast.ts';
import { useErrorToast } from '../../../lib/use-api-error.ts';
import { type DraftOption, type FileList, useSaveFileList } from '../api/file-lists.ts';

/** SPEC 5 "File list: name min 3 ('nome muito curto'), required; message required", in the user's language. */
const messageKeys: Record<string, string> = {
  [fileListMessages.tooShort]: 'fileLists.validation.nameShort',
  [fileListMessages.required]: 'fileLists.validation.required',
  'Too Long!': 'fileLists.validation.tooLong',
};

/** SPEC 2 "Files" dialog: name, message, repeatable options (a name plus an optional uploaded file). */
export function FileListDialog({ fileList, onClose }: { fileList: FileList | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState(fileList?.name ?? '');
  const [message, setMessage] = useState(fileList?.message ?? '');
  const [options, setOptions] = useState<DraftOption[]>(
    fileList?.options.map((o) => ({ id: o.id, name: o.name, mediaName: o.mediaName })) ?? [],
  );
  const [errors, setErrors] = useState<{ name?: string; message?: string }>({});
  const [progress, setProgress] = useState<number | undefined>(undefined);
  const save = useSaveFileList();
  const showError = useErrorToast();

  const patch = (index: number, change: Partial<DraftOption>) =>
    setOptions((current) => current.map((option, i) => (i === index ? { ...option, ...change } : option)));

  // Several files at once: each becomes an option named after its file.
  const addFiles = (files: globalThis.FileList | null) => {
    const picked = files ? Array.from(files) : [];
    setOptions((current) =>
      [...current, ...picked.map((file) => ({ name: file.name.replace(/\.[^.]+$/, ''), file }))].slice(0, MAX_FILE_LIST_OPTIONS),
    );
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = fileListInputSchema.safeParse({ name, message, options: [] });
    if (!parsed.success) {
      const next: { name?: string; message?: string } = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if ((field === 'name' || field === 'message') && !next[field])
          next[field] = t(messageKeys[issue.message] ?? 'fileLists.validation.required');
      }
      setErrors(next);
      return;
    }
    setErrors({});
    try {
      await save.mutateAsync({
        id: fileList?.id,
        name: parsed.data.name,
        message: parsed.data.message,
        options: options.filter((o) => o.name.trim() || o.file).map((o) => ({ ...o, name: o.name.trim() || (o.file?.name ?? '') })),
        onProgress: (loaded, total) => setProgress(total ? (loaded / total) * 100 : 100),
      });
      toast.success(t('fileLists.saved'));
      onClose();
    } catch (error) {
      showError(error);
    } finally {
      setProgress(undefined);
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" data-testid="file-list-dialog">
      <form onSubmit={submit} noValidate>
        <DialogTitle>{fileList ? t('fileLists.editTitle') : t('fileLists.addTitle')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              label={t('fileLists.fields.name')}
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
              label={t('fileLists.fields.message')}
              name="message"
              value={message}
              onChange={(e) => {
                setMessage(e.target.value);
                setErrors((current) => ({ ...current, message: undefined }));
              }}
              error={Boolean(errors.message)}
              helperText={errors.message}
              multiline
              rows={4}
            />
            <Typography variant="subtitle2">{t('fileLists.fields.options')}</Typography>
            {options.map((option, index) => (
              <Stack
                // biome-ignore lint/suspicious/noArrayIndexKey: options have no id until saved; their order is their identity here
                key={index}
                direction="row"
                spacing={1}
                sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}
                data-testid="file-list-option"
              >
                <TextField
                  size="small"
                  label={t('fileLists.fields.optionName')}
                  value={option.name}
                  onChange={(e) => patch(index, { name: e.target.value })}
                  sx={{ flexGrow: 1, minWidth: 160 }}
                />
                {(option.file || option.mediaName) && (
                  <Chip size="small" icon={<AttachFile />} label={option.file?.name ?? option.mediaName} sx={{ maxWidth: 200 }} />
                )}
                <Button size="small" component="label" startIcon={<AttachFile />}>
                  {t('fileLists.attach')}
                  <input
                    hidden
                    type="file"
                    accept={SENDABLE_ACCEPT}
                    onChange={(e) => e.target.files?.[0] && patch(index, { file: e.target.files[0] })}
                  />
                </Button>
                <Tooltip title={t('fileLists.removeOption')}>
                  <IconButton
                    size="small"
                    aria-label={t('fileLists.removeOption')}
                    onClick={() => setOptions((current) => current.filter((_, i) => i !== index))}
                  >
                    <DeleteOutline fontSize="small" />
                  </IconButton>
                </Tooltip>
              </Stack>
            ))}
            <Stack direction="row" spacing={1}>
              <Button
                size="small"
                startIcon={<Add />}
                disabled={options.length >= MAX_FILE_LIST_OPTIONS}
                onClick={() => setOptions((current) => [...current, { name: '' }])}
              >
                {t('fileLists.addOption')}
              </Button>
              <Button size="small" component="label" startIcon={<AttachFile />} disabled={options.length >= MAX_FILE_LIST_OPTIONS}>
                {t('fileLists.addFiles')}
                <input
                  hidden
                  type="file"
                  multiple
                  accept={SENDABLE_ACCEPT}
                  data-testid="file-list-files"
                  onChange={(e) => {
                    addFiles(e.target.files);
                    e.target.value = '';
                  }}
                />
              </Button>
            </Stack>
            {progress !== undefined && (
              <Box>
                <LinearProgress variant="determinate" value={progress} aria-label={t('common.loading')} />
              </Box>
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} color="inherit">
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={save.isPending}>
            {fileList ? t('common.save') : t('common.add')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
