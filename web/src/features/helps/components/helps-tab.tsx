import { type Help, type HelpInput, helpInputSchema } from '@conversa/functions/contracts';
import { Alert, Button, Grid, Paper, Stack, TextField } from '@mui/material';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { EditDeleteActions } from '../../../components/row-actions.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { useConfirmedDelete } from '../../../components/use-confirmed-delete.ts';
import { useInlineForm } from '../../../components/use-inline-form.ts';
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
  const deletion = useConfirmedDelete((help: Help) => remove.mutateAsync(help.id), t('crud.saved'), t('crud.deleteFailed'));
  const form = useInlineForm<Help>();
  const { editing } = form;
  const [values, setValues] = useState<HelpInput>(emptyHelp);
  const [errors, setErrors] = useState<FieldErrors<HelpInput>>({});
  // The form's fields live here: a new form (a save, a clear) starts them again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: form.key is the reset signal itself
  useEffect(() => {
    setValues(editing ? { title: editing.title, description: editing.description, video: editing.video } : emptyHelp);
    setErrors({});
  }, [editing, form.key]);

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
      form.done();
    } catch {
      toast.error(t('helps.saveFailed'));
    }
  };

  const set = (field: keyof HelpInput) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value }));

  const columns: Column<Help>[] = [
    { id: 'title', label: t('helps.fields.title'), render: (help) => help.title },
    { id: 'description', label: t('helps.fields.description'), render: (help) => help.description },
    { id: 'video', label: t('helps.fields.video'), render: (help) => help.video },
    {
      id: 'actions',
      label: t('common.actions'),
      align: 'right',
      sx: { whiteSpace: 'nowrap' },
      render: (help) => <EditDeleteActions onEdit={() => form.edit(help)} onDelete={() => deletion.ask(help)} />,
    },
  ];

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
          <Button color="inherit" onClick={form.done}>
            {t('common.clear')}
          </Button>
          <Button type="submit" variant="contained" loading={save.isPending}>
            {editing ? t('common.save') : t('common.add')}
          </Button>
        </Stack>
      </Paper>
      {helps.isPending && <Spinner />}
      {helps.isError && <Alert severity="error">{t('crud.loadFailed')}</Alert>}
      {helps.isSuccess && <DataTable columns={columns} rows={helps.data} rowKey={(help) => help.id} pending={false} maxHeight="none" />}
      <ConfirmDialog {...deletion.dialog} title={t('crud.deleteTitle')} message={t('crud.deleteMessage')} />
    </>
  );
}
