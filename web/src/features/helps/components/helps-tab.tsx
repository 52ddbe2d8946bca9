import { type Help, type HelpInput, helpInputSchema } from '@conversa/functions/contracts';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import {
  Alert,
  Button,
  CircularProgress,
  Grid,
  IconButton,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
} from '@mui/material';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { toast } from '../../../lib/toast.ts';
import { type FieldErrors, fieldErrors } from '../../../lib/validation.ts';
import { useDeleteHelp, useHelps, useSaveHelp } from '../api/helps.ts';

const emptyHelp: HelpInput = { title: '', description: '', video: '' };

/** Settings > Help (super only): the videos listed on /helps. */
export function HelpsTab() {
  const { t } = useTranslation();
  const helps = useHelps();
  const save = useSaveHelp();
  const remove = useDeleteHelp();
  const [editing, setEditing] = useState<Help | undefined>(undefined);
  const [deleting, setDeleting] = useState<Help | undefined>(undefined);
  const [values, setValues] = useState<HelpInput>(emptyHelp);
  const [errors, setErrors] = useState<FieldErrors<HelpInput>>({});
  useEffect(
    () => setValues(editing ? { title: editing.title, description: editing.description, video: editing.video } : emptyHelp),
    [editing],
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = helpInputSchema.safeParse(values);
    if (!parsed.success) {
      setErrors(fieldErrors<HelpInput>(parsed.error.issues, t));
      return;
    }
    setErrors({});
    try {
      await save.mutateAsync({ id: editing?.id, input: parsed.data });
      toast.success(t('crud.saved'));
      setEditing(undefined);
      setValues(emptyHelp);
    } catch {
      toast.error(t('helps.saveFailed'));
    }
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      toast.success(t('crud.saved'));
    } catch {
      toast.error(t('crud.deleteFailed'));
    } finally {
      setDeleting(undefined);
    }
  };

  const set = (field: keyof HelpInput) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value }));

  return (
    <>
      <Paper variant="outlined" component="form" onSubmit={submit} noValidate sx={{ p: 2, mb: 2 }}>
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, md: 4 }}>
            <TextField
              label={t('helps.fields.title')}
              value={values.title}
              onChange={set('title')}
              error={Boolean(errors.title)}
              helperText={errors.title}
            />
          </Grid>
          <Grid size={{ xs: 12, md: 4 }}>
            <TextField
              label={t('helps.fields.video')}
              value={values.video}
              onChange={set('video')}
              error={Boolean(errors.video)}
              helperText={errors.video}
            />
          </Grid>
          <Grid size={{ xs: 12, md: 4 }}>
            <TextField
              label={t('helps.fields.description')}
              value={values.description}
              onChange={set('description')}
              error={Boolean(errors.description)}
              helperText={errors.description}
            />
          </Grid>
        </Grid>
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', mt: 2 }}>
          <Button color="inherit" onClick={() => setEditing(undefined)}>
            {t('common.clear')}
          </Button>
          <Button type="submit" variant="contained" loading={save.isPending}>
            {editing ? t('common.save') : t('common.add')}
          </Button>
        </Stack>
      </Paper>
      {helps.isPending && <CircularProgress />}
      {helps.isError && <Alert severity="error">{t('crud.loadFailed')}</Alert>}
      {helps.isSuccess && (
        <TableContainer component={Paper} variant="outlined">
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>{t('helps.fields.title')}</TableCell>
                <TableCell>{t('helps.fields.description')}</TableCell>
                <TableCell>{t('helps.fields.video')}</TableCell>
                <TableCell align="right">{t('common.actions')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {helps.data.map((help) => (
                <TableRow key={help.id} hover>
                  <TableCell>{help.title}</TableCell>
                  <TableCell>{help.description}</TableCell>
                  <TableCell>{help.video}</TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    <IconButton size="small" onClick={() => setEditing(help)} aria-label={t('common.edit')}>
                      <EditOutlined fontSize="small" />
                    </IconButton>
                    <IconButton size="small" onClick={() => setDeleting(help)} aria-label={t('common.delete')}>
                      <DeleteOutline fontSize="small" />
                    </IconButton>
                  </TableCell>
                </TableRow>
              ))}
              {helps.data.length === 0 && (
                <TableRow>
                  <TableCell colSpan={4} align="center" sx={{ color: 'text.secondary' }}>
                    {t('common.noRecords')}
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <ConfirmDialog
        open={Boolean(deleting)}
        title={t('crud.deleteTitle')}
        message={t('crud.deleteMessage')}
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(undefined)}
      />
    </>
  );
}
