import { type Plan, type PlanInput, planFlags } from '@conversa/functions/contracts';
import { Alert } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { EditDeleteActions } from '../../../components/row-actions.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { useConfirmedDelete } from '../../../components/use-confirmed-delete.ts';
import { useInlineForm } from '../../../components/use-inline-form.ts';
import { formatMoney } from '../../../lib/money.ts';
import { toast } from '../../../lib/toast.ts';
import { useDeletePlan, usePlans, useSavePlan } from '../api/plans.ts';
import { type PlanCount, PlanForm, planCounts } from './plan-form.tsx';

/** Settings > Plans (super only). */
export function PlansTab() {
  const { t } = useTranslation();
  const plans = usePlans();
  const save = useSavePlan();
  const remove = useDeletePlan();
  const deletion = useConfirmedDelete((plan: Plan) => remove.mutateAsync(plan.id), t('crud.saved'), t('crud.deleteFailed'));
  const form = useInlineForm<Plan>();

  const submit = async (input: PlanInput) => {
    try {
      await save.mutateAsync({ id: form.editing?.id, input });
      toast.success(t('crud.saved'));
      form.done();
    } catch {
      toast.error(t('plans.saveFailed'));
    }
  };

  // A limit of 0 is no limit (domain/plans/limits.ts): a bare 0 would read as "none allowed".
  const limit = (field: PlanCount): Column<Plan> => ({
    id: field,
    label: t(`plans.fields.${field}`),
    render: (plan) => (plan[field] > 0 ? plan[field] : t('plans.unlimited')),
  });
  const columns: Column<Plan>[] = [
    { id: 'name', label: t('plans.fields.name'), sx: { minWidth: 120 }, render: (plan) => plan.name },
    ...planCounts.map(limit),
    {
      id: 'value',
      label: t('plans.fields.value'),
      sx: { whiteSpace: 'nowrap' },
      render: (plan) => formatMoney(plan.value),
    },
    {
      id: 'features',
      label: t('plans.features'),
      sx: { minWidth: 200 },
      render: (plan) =>
        planFlags
          .filter((flag) => plan[flag])
          .map((flag) => t(`plans.flags.${flag}`))
          .join(', '),
    },
    {
      id: 'actions',
      label: t('common.actions'),
      align: 'right',
      sx: { whiteSpace: 'nowrap' },
      render: (plan) => <EditDeleteActions onEdit={() => form.edit(plan)} onDelete={() => deletion.ask(plan)} />,
    },
  ];

  return (
    <>
      <PlanForm key={form.key} plan={form.editing} busy={save.isPending} onSubmit={submit} onCancel={form.done} />
      {plans.isPending && <Spinner />}
      {plans.isError && <Alert severity="error">{t('crud.loadFailed')}</Alert>}
      {plans.isSuccess && <DataTable columns={columns} rows={plans.data} rowKey={(plan) => plan.id} pending={false} maxHeight="none" />}
      <ConfirmDialog {...deletion.dialog} title={t('crud.deleteTitle')} message={t('crud.deleteMessage')} />
    </>
  );
}
