import ConstructionOutlined from '@mui/icons-material/ConstructionOutlined';
import { useTranslation } from 'react-i18next';
import { EmptyState } from './empty-state.tsx';
import { PageHeader } from './page-header.tsx';

/** The screen of a route whose feature has not been built yet: says so instead of showing made-up data. */
export function NotAvailablePage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t(titleKey)} />
      <EmptyState
        icon={<ConstructionOutlined sx={{ fontSize: 48 }} />}
        title={t('notAvailable.title')}
        description={t('notAvailable.description')}
      />
    </>
  );
}
