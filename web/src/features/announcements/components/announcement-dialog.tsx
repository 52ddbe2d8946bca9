import {
  ANNOUNCEMENT_IMAGE_TYPES,
  type Announcement,
  type AnnouncementPriority,
  createAnnouncementSchema,
  updateAnnouncementSchema,
} from '@conversa/functions/contracts/announcements';
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
  MenuItem,
  Stack,
  Switch,
  TextField,
} from '@mui/material';
import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../lib/toast.ts';
import { useErrorToast } from '../../../lib/use-api-error.ts';
import { useSaveAnnouncement } from '../api/announcements.ts';
import { priorityKey } from './priority.ts';

type Field = 'title' | 'text' | 'image';

/** The contract's messages (SPEC 5 "Announcement": 'Obrigatório') in the current language. */
const messageKeys: Record<string, string> = {
  Obrigatório: 'announcements.validation.required',
  'Too Long!': 'announcements.validation.tooLong',
};

/** SPEC 2: .png, .jpg or .jpeg, type and extension agreeing (the server checks the same). */
const isAllowedImage = (file: File) => {
  const ext = /\.([A-Za-z0-9]+)$/.exec(file.name)?.[1]?.toLowerCase() ?? '';
  return ANNOUNCEMENT_IMAGE_TYPES[ext] !== undefined && ANNOUNCEMENT_IMAGE_TYPES[ext] === file.type;
};

/** SPEC 2 "Announcements" dialog: title, text, status, priority, image attachment. */
export function AnnouncementDialog({ announcement, onClose }: { announcement: Announcement | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const [title, setTitle] = useState(announcement?.title ?? '');
  const [text, setText] = useState(announcement?.text ?? '');
  const [status, setStatus] = useState(announcement?.status ?? true);
  const [priority, setPriority] = useState<AnnouncementPriority>(announcement?.priority ?? 3);
  // undefined: keep the current image; null: remove it; a File: upload it.
  const [image, setImage] = useState<File | null | undefined>(undefined);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const fileInput = useRef<HTMLInputElement>(null);
  const save = useSaveAnnouncement();
  const showError = useErrorToast();
  const imageName = image ? image.name : image === null ? '' : (announcement?.mediaName ?? '');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const raw = { title, text, status, priority };
    const parsed = announcement ? updateAnnouncementSchema.safeParse(raw) : createAnnouncementSchema.safeParse(raw);
    if (!parsed.success) {
      const next: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if ((field === 'title' || field === 'text') && !next[field])
          next[field] = messageKeys[issue.message] ? t(messageKeys[issue.message] as string) : issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    try {
      await save.mutateAsync({ id: announcement?.id, input: parsed.data, image });
      toast.success(t('announcements.saved'));
      onClose();
    } catch (error) {
      showError(error);
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" data-testid="announcement-dialog">
      <form onSubmit={submit} noValidate>
        <DialogTitle>{announcement ? t('announcements.dialog.editTitle') : t('announcements.dialog.addTitle')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              label={t('announcements.fields.title')}
              name="title"
              value={title}
              onChange={(e) => {
                setTitle(e.target.value);
                setErrors((current) => ({ ...current, title: undefined }));
              }}
              error={Boolean(errors.title)}
              helperText={errors.title}
              autoFocus
            />
            <TextField
              label={t('announcements.fields.text')}
              name="text"
              value={text}
              onChange={(e) => {
                setText(e.target.value);
                setErrors((current) => ({ ...current, text: undefined }));
              }}
              error={Boolean(errors.text)}
              helperText={errors.text}
              multiline
              minRows={4}
            />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
              <TextField
                select
                label={t('announcements.fields.priority')}
                name="priority"
                value={priority}
                onChange={(e) => setPriority(Number(e.target.value) as AnnouncementPriority)}
                sx={{ minWidth: 180 }}
                slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'announcement-priority' } as object } }}
              >
                {([1, 2, 3] as const).map((value) => (
                  <MenuItem key={value} value={value}>
                    {t(priorityKey(value))}
                  </MenuItem>
                ))}
              </TextField>
              <FormControlLabel
                control={<Switch checked={status} onChange={(e) => setStatus(e.target.checked)} />}
                label={t('announcements.fields.status')}
              />
            </Stack>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
              <Button size="small" startIcon={<AttachFile />} onClick={() => fileInput.current?.click()}>
                {t('announcements.dialog.attach')}
              </Button>
              <input
                ref={fileInput}
                type="file"
                hidden
                accept=".png,.jpg,.jpeg,image/png,image/jpeg"
                data-testid="announcement-file"
                onChange={(e) => {
                  const file = e.target.files?.[0];
                  e.target.value = '';
                  if (!file) return;
                  if (!isAllowedImage(file)) {
                    setErrors((current) => ({ ...current, image: t('announcements.validation.imageType') }));
                    return;
                  }
                  setErrors((current) => ({ ...current, image: undefined }));
                  setImage(file);
                }}
              />
              {imageName && (
                <Chip
                  label={imageName}
                  icon={<AttachFile />}
                  onDelete={() => setImage(null)}
                  deleteIcon={<DeleteOutline aria-label={t('announcements.dialog.removeImage')} />}
                  data-testid="announcement-attachment"
                />
              )}
              {errors.image && <Chip color="error" variant="outlined" label={errors.image} data-testid="announcement-image-error" />}
            </Stack>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} color="inherit">
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={save.isPending}>
            {announcement ? t('common.save') : t('common.add')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
