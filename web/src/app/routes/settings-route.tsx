import { Paper, Tab, Tabs } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/page-header.tsx';
import { AuditTab } from '../../features/audit/components/audit-tab.tsx';
import { CompaniesTab } from '../../features/companies/components/companies-tab.tsx';
import { HelpsTab } from '../../features/helps/components/helps-tab.tsx';
import { usePlans } from '../../features/plans/api/plans.ts';
import { PlansTab } from '../../features/plans/components/plans-tab.tsx';
import { useSettings } from '../../features/settings/api/settings.ts';
import { OptionsTab } from '../../features/settings/components/options-tab.tsx';
import { SchedulesTab } from '../../features/settings/components/schedules-tab.tsx';
import { isAdmin, useAuth } from '../../lib/auth/auth-provider.tsx';

type SettingsTab = 'options' | 'schedules' | 'audit' | 'companies' | 'plans' | 'helps';

/**
 * SPEC 2 "Settings": Options for everyone; Schedules only when scheduleType is `company`;
 * Audit for admins (issue 21); Companies, Plans and Help for super users. The tabs come from separate features, joined here.
 */
export default function SettingsRoute() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const settings = useSettings();
  const isSuper = Boolean(user?.super);
  const plans = usePlans(isSuper);
  const [tab, setTab] = useState<SettingsTab>('options');

  const tabs: SettingsTab[] = ['options'];
  if (settings.data?.scheduleType === 'company') tabs.push('schedules');
  if (isAdmin(user)) tabs.push('audit');
  if (isSuper) tabs.push('companies', 'plans', 'helps');
  const current = tabs.includes(tab) ? tab : 'options';

  return (
    <>
      <PageHeader title={t('menu.settings')} />
      <Paper variant="outlined" sx={{ mb: 2 }}>
        <Tabs value={current} onChange={(_, value: SettingsTab) => setTab(value)} variant="scrollable" scrollButtons="auto">
          {tabs.map((value) => (
            <Tab key={value} value={value} label={t(`settings.tabs.${value}`)} data-testid={`settings-tab-${value}`} />
          ))}
        </Tabs>
      </Paper>
      {current === 'options' && <OptionsTab canEdit={isAdmin(user)} isSuper={isSuper} />}
      {current === 'schedules' && user && <SchedulesTab companyId={user.companyId} />}
      {current === 'audit' && <AuditTab />}
      {current === 'companies' && <CompaniesTab plans={plans.data ?? []} />}
      {current === 'plans' && <PlansTab />}
      {current === 'helps' && <HelpsTab />}
    </>
  );
}
