import { type Plan, type PlanInput, planFlags } from '@conversa/functions/contracts';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import {
  Alert,
  CircularProgress,
  IconButton,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
} from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { toast } from '../../../lib/toast.ts';
import { useDeletePlan, usePlans, useSavePlan } from '../api/plans.ts';
import { PlanForm } from './plan-form.tsx';

/** Settings > Plans (super only). */
export function PlansTab() {
  const { t } = useTranslation();
  const plans = usePlans();
  const save = useSavePlan();
  const remove = useDeletePlan();
  const [editing, setEditing] = useState<Plan | undefined>(undefined);
  const [deleting, setDeleting] = useState<Plan | undefined>(undefined);

  const submit = async (input: PlanInput) => {
    try {
      await save.mutateAsync({ id: editing?.id, input });
      toast.success(t('crud.saved'));
      setEditing(undefined);
    } catch {
      toast.error(t('plans.saveFailed'));
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

  return (
    <>
      <PlanForm plan={editing} busy={save.isPending} onSubmit={submit} onCancel={() => setEditing(undefined)} />
      {plans.isPending && <CircularProgress />}
      {plans.isError && <Alert severity="error">{t('crud.loadFailed')}</Alert>}
      {plans.isSuccess && (
        <TableContainer component={Paper} variant="outlined">
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>{t('plans.fields.name')}</TableCell>
                <TableCell>{t('plans.fields.users')}</TableCell>
                <TableCell>{t('plans.fields.connections')}</TableCell>
                <TableCell>{t('plans.fields.queues')}</TableCell>
                <TableCell>{t('plans.fields.value')}</TableCell>
                <TableCell>{t('plans.features')}</TableCell>
                <TableCell align="right">{t('common.actions')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {plans.data.map((plan) => (
                <TableRow key={plan.id} hover>
                  <TableCell>{plan.name}</TableCell>
                  <TableCell>{plan.users}</TableCell>
                  <TableCell>{plan.connections}</TableCell>
                  <TableCell>{plan.queues}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{t('plans.price', { price: plan.value.toFixed(2) })}</TableCell>
                  <TableCell>
                    {planFlags
                      .filter((flag) => plan[flag])
                      .map((flag) => t(`plans.flags.${flag}`))
                      .join(', ')}
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    <IconButton size="small" onClick={() => setEditing(plan)} aria-label={t('common.edit')}>
                      <EditOutlined fontSize="small" />
                    </IconButton>
                    <IconButton size="small" onClick={() => setDeleting(plan)} aria-label={t('common.delete')}>
                      <DeleteOutline fontSize="small" />
                    </IconButton>
                  </TableCell>
                </TableRow>
              ))}
              {plans.data.length === 0 && (
                <TableRow>
                  <TableCell colSpan={7} align="center" sx={{ color: 'text.secondary' }}>
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
