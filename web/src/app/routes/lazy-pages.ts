import { type ComponentType, lazy } from 'react';

/** Each screen is its own chunk: the first paint loads only the shell and the current route. */
function page<M, K extends keyof M>(load: () => Promise<M>, name: K) {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }));
}

/** The signed-in shell (drawer, top bar): not part of the login page's first paint. */
export const AppLayout = page(() => import('../layout/app-layout.tsx'), 'AppLayout');
export const LoginPage = page(() => import('../../features/auth/components/login-page.tsx'), 'LoginPage');
export const SignupPage = page(() => import('../../features/auth/components/signup-page.tsx'), 'SignupPage');
export const ForgetPasswordPage = page(() => import('../../features/auth/components/forget-password-page.tsx'), 'ForgetPasswordPage');
export const DashboardPage = page(() => import('../../features/dashboard/components/dashboard-page.tsx'), 'DashboardPage');
/** The first day's checklist (issue 25), shown above the dashboard: the shell puts the two features together. */
export const OnboardingChecklist = page(
  () => import('../../features/onboarding/components/onboarding-checklist.tsx'),
  'OnboardingChecklist',
);
export const ReportsPage = page(() => import('../../features/reports/components/reports-page.tsx'), 'ReportsPage');
export const KanbanPage = page(() => import('../../features/kanban/components/kanban-page.tsx'), 'KanbanPage');
export const TicketsPage = page(() => import('../inbox/inbox-page.tsx'), 'InboxPage');
export const UsersPage = page(() => import('../../features/users/components/users-page.tsx'), 'UsersPage');
export const SettingsPage = lazy(() => import('./settings-route.tsx'));
export const ConnectionsPage = page(() => import('../../features/connections/components/connections-page.tsx'), 'ConnectionsPage');
export const QueuesPage = page(() => import('../../features/queues/components/queues-page.tsx'), 'QueuesPage');
export const ContactsPage = page(() => import('../../features/contacts/components/contacts-page.tsx'), 'ContactsPage');
export const TagsPage = page(() => import('../../features/tags/components/tags-page.tsx'), 'TagsPage');
export const QuickMessagesPage = page(
  () => import('../../features/quick-messages/components/quick-messages-page.tsx'),
  'QuickMessagesPage',
);
export const SchedulesPage = page(() => import('../../features/schedules/components/schedules-page.tsx'), 'SchedulesPage');
export const ContactListsPage = page(() => import('../../features/contact-lists/components/contact-lists-page.tsx'), 'ContactListsPage');
export const ListContactsPage = page(() => import('../../features/contact-lists/components/list-contacts-page.tsx'), 'ListContactsPage');
export const CampaignsPage = page(() => import('../../features/campaigns/components/campaigns-page.tsx'), 'CampaignsPage');
export const CampaignReportPage = page(() => import('../../features/campaigns/components/campaign-report-page.tsx'), 'CampaignReportPage');
export const CampaignSettingsPage = page(
  () => import('../../features/campaigns/components/campaign-settings-page.tsx'),
  'CampaignSettingsPage',
);
export const FileListsPage = page(() => import('../../features/file-lists/components/file-lists-page.tsx'), 'FileListsPage');
export const AnnouncementsPage = page(() => import('../../features/announcements/components/announcements-page.tsx'), 'AnnouncementsPage');
export const HelpsPage = page(() => import('../../features/helps/components/helps-page.tsx'), 'HelpsPage');
export const MessagesApiPage = page(() => import('../../features/messages-api/components/messages-api-page.tsx'), 'MessagesApiPage');
export const WebhooksPage = page(() => import('../../features/webhooks/components/webhooks-page.tsx'), 'WebhooksPage');
export const TodoPage = page(() => import('../../features/todo/components/todo-page.tsx'), 'TodoPage');
export const ChatsPage = page(() => import('../../features/chats/components/chats-page.tsx'), 'ChatsPage');
export const QueueIntegrationsPage = page(
  () => import('../../features/queue-integrations/components/queue-integrations-page.tsx'),
  'QueueIntegrationsPage',
);
export const PromptsPage = page(() => import('../../features/prompts/components/prompts-page.tsx'), 'PromptsPage');
export const InvoicesPage = page(() => import('../../features/billing/components/invoices-page.tsx'), 'InvoicesPage');
export const SubscriptionPage = page(() => import('../../features/billing/components/subscription-page.tsx'), 'SubscriptionPage');
