import type { PlanFlag } from '@conversa/functions/contracts';
import { type ReactNode, Suspense } from 'react';
import { createBrowserRouter, Navigate, Outlet, type RouteObject } from 'react-router-dom';
import { ExpiredGate } from '../../features/billing/components/expired-gate.tsx';
import { MfaEnrolmentGate } from '../../features/security/components/mfa-enrolment-gate.tsx';
import { AdminOnly, CshowGate, FullPageLoader, PlanGate, PrivateOnly, PublicOnly, SuperOnly } from './guards.tsx';
import {
  AnnouncementsPage,
  AppLayout,
  CampaignReportPage,
  CampaignSettingsPage,
  CampaignsPage,
  ChatsPage,
  ConnectionsPage,
  ContactListsPage,
  ContactsPage,
  DashboardPage,
  FileListsPage,
  ForgetPasswordPage,
  HelpsPage,
  InvoicesPage,
  KanbanPage,
  ListContactsPage,
  LoginPage,
  MessagesApiPage,
  OnboardingChecklist,
  PromptsPage,
  QueueIntegrationsPage,
  QueuesPage,
  QuickMessagesPage,
  ReportsPage,
  SchedulesPage,
  SettingsPage,
  SignupPage,
  SubscriptionPage,
  TagsPage,
  TicketsPage,
  TodoPage,
  UsersPage,
  WebhooksPage,
} from './lazy-pages.ts';

interface Gates {
  admin?: boolean;
  super?: boolean;
  plan?: PlanFlag;
  cshow?: boolean;
}

/** Wraps a screen in its SPEC 2/6 gates, outermost first: cshow, super, admin, plan. */
function gated(element: ReactNode, gates: Gates = {}): ReactNode {
  let wrapped = element;
  if (gates.plan) wrapped = <PlanGate flag={gates.plan}>{wrapped}</PlanGate>;
  if (gates.admin) wrapped = <AdminOnly>{wrapped}</AdminOnly>;
  if (gates.super) wrapped = <SuperOnly>{wrapped}</SuperOnly>;
  if (gates.cshow) wrapped = <CshowGate>{wrapped}</CshowGate>;
  return wrapped;
}

const campaignGates: Gates = { cshow: true, plan: 'useCampaigns' };

function Suspended() {
  return (
    <Suspense fallback={<FullPageLoader />}>
      <Outlet />
    </Suspense>
  );
}

const routes: RouteObject[] = [
  {
    element: <Suspended />,
    children: [
      {
        element: <PublicOnly />,
        children: [
          { path: 'login', element: <LoginPage /> },
          { path: 'signup', element: <SignupPage /> },
          { path: 'forgetpsw', element: <ForgetPasswordPage /> },
        ],
      },
      {
        element: (
          <PrivateOnly>
            <ExpiredGate>
              <MfaEnrolmentGate>
                <AppLayout />
              </MfaEnrolmentGate>
            </ExpiredGate>
          </PrivateOnly>
        ),
        children: [
          {
            index: true,
            element: gated(
              <>
                <OnboardingChecklist />
                <DashboardPage />
              </>,
              { admin: true },
            ),
          },
          { path: 'tickets/:ticketId?', element: <TicketsPage /> },
          // Reports (issue 22 §4): everyone; attendants get their queues' figures (the server decides).
          { path: 'reports', element: <ReportsPage /> },
          { path: 'users', element: gated(<UsersPage />, { admin: true }) },
          // SPEC 6: any signed-in user may look; the permission keys keep the buttons for admins.
          { path: 'connections', element: <ConnectionsPage /> },
          { path: 'queues', element: gated(<QueuesPage />, { admin: true }) },
          { path: 'settings', element: <SettingsPage /> },
          { path: 'contacts', element: <ContactsPage /> },
          { path: 'tags', element: <TagsPage /> },
          { path: 'quick-messages', element: <QuickMessagesPage /> },
          { path: 'schedules', element: gated(<SchedulesPage />, { plan: 'useSchedules' }) },
          { path: 'kanban', element: gated(<KanbanPage />, { plan: 'useKanban' }) },
          // Campaigns (SPEC 2): the routes need the cshow flag (set for plans with campaigns, guards.tsx) and the plan.
          { path: 'contact-lists', element: gated(<ContactListsPage />, campaignGates) },
          { path: 'contact-lists/:contactListId/contacts', element: gated(<ListContactsPage />, campaignGates) },
          { path: 'campaigns', element: gated(<CampaignsPage />, campaignGates) },
          { path: 'campaign/:campaignId/report', element: gated(<CampaignReportPage />, campaignGates) },
          { path: 'campaigns-config', element: gated(<CampaignSettingsPage />, campaignGates) },
          // File lists are what campaigns send (the API gates them with useCampaigns); admins edit them.
          { path: 'files', element: gated(<FileListsPage />, { admin: true, plan: 'useCampaigns' }) },
          // Issue 12: the local to-do list and the help videos for everyone; the Messages API page for admins
          // of plans with useExternalApi; announcements for super users (SPEC 2, 6).
          { path: 'todolist', element: <TodoPage /> },
          { path: 'helps', element: <HelpsPage /> },
          { path: 'messages-api', element: gated(<MessagesApiPage />, { admin: true, plan: 'useExternalApi' }) },
          // Webhooks (issue 23 §2): the external API's events pushed to the company's endpoints.
          { path: 'webhooks', element: gated(<WebhooksPage />, { admin: true, plan: 'useExternalApi' }) },
          { path: 'announcements', element: gated(<AnnouncementsPage />, { super: true }) },
          // Internal chat (SPEC 2): the list and the open chat, for plans with useInternalChat.
          { path: 'chats/:id?', element: gated(<ChatsPage />, { plan: 'useInternalChat' }) },
          // Queue integrations (issue 13): the admins' bots, for plans with useIntegrations.
          { path: 'queue-integration', element: gated(<QueueIntegrationsPage />, { admin: true, plan: 'useIntegrations' }) },
          // Billing (issue 12): admins see and pay the invoices; an expired company reaches only these two (ExpiredGate).
          // AI prompts (issue 13): the admins' assistants, for plans with useOpenAi.
          { path: 'prompts', element: gated(<PromptsPage />, { admin: true, plan: 'useOpenAi' }) },
          { path: 'financeiro', element: gated(<InvoicesPage />, { admin: true }) },
          { path: 'subscription', element: gated(<SubscriptionPage />, { admin: true }) },
          { path: '*', element: <Navigate to="/" replace /> },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);
