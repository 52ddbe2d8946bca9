import type { Company, CompanyInput } from '@conversa/functions/contracts';
import { Alert } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { useInlineForm } from '../../../components/use-inline-form.ts';
import { toast } from '../../../lib/toast.ts';
import { useCompanies, useDeleteCompany, useSaveCompany } from '../api/companies.ts';
import { CompaniesTable } from './companies-table.tsx';
import { CompanyForm } from './company-form.tsx';

/** Settings > Companies (super only). The plans come from the caller: features do not import each other. */
export function CompaniesTab({ plans }: { plans: ReadonlyArray<{ id: number; name: string }> }) {
  const { t } = useTranslation();
  const companies = useCompanies();
  const save = useSaveCompany();
  const remove = useDeleteCompany();
  const form = useInlineForm<Company>();
  const [deleting, setDeleting] = useState<Company | undefined>(undefined);

  const submit = async (input: CompanyInput) => {
    try {
      await save.mutateAsync({ id: form.editing?.id, input });
      toast.success(t('crud.saved'));
      form.done();
    } catch {
      toast.error(t('companies.saveFailed'));
    }
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      toast.success(t('crud.saved'));
      if (form.editing?.id === deleting.id) form.done();
    } catch {
      toast.error(t('crud.deleteFailed'));
    } finally {
      setDeleting(undefined);
    }
  };

  return (
    <>
      <CompanyForm key={form.key} company={form.editing} plans={plans} busy={save.isPending} onSubmit={submit} onCancel={form.done} />
      {companies.isPending && <Spinner />}
      {companies.isError && <Alert severity="error">{t('crud.loadFailed')}</Alert>}
      {companies.isSuccess && (
        <CompaniesTable
          companies={companies.data}
          planName={(id) => plans.find((p) => p.id === id)?.name ?? String(id)}
          onEdit={form.edit}
          onDelete={setDeleting}
        />
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
