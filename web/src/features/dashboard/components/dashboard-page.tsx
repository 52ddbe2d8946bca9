import InsightsOutlined from '@mui/icons-material/InsightsOutlined';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/empty-state.tsx';
import { PageHeader } from '../../../components/page-header.tsx';

/** The admin dashboard (/). Its counters and charts arrive with the dashboard issue. */
export function DashboardPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('menu.dashboard')} />
      <EmptyState
        icon={<InsightsOutlined sx={{ fontSize: 48 }} />}
        title={t('dashboard.emptyTitle')}
        description={t('dashboard.emptyDescription')}
      />
    </>
  );
}
