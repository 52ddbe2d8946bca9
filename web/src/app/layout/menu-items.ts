import type { PlanFlag } from '@conversa/functions/contracts';
import AccountTreeOutlined from '@mui/icons-material/AccountTreeOutlined';
import AllInclusive from '@mui/icons-material/AllInclusive';
import AnnouncementOutlined from '@mui/icons-material/AnnouncementOutlined';
import AttachFile from '@mui/icons-material/AttachFile';
import CampaignOutlined from '@mui/icons-material/CampaignOutlined';
import CodeRounded from '@mui/icons-material/CodeRounded';
import ContactPhoneOutlined from '@mui/icons-material/ContactPhoneOutlined';
import DashboardOutlined from '@mui/icons-material/DashboardOutlined';
import DeviceHubOutlined from '@mui/icons-material/DeviceHubOutlined';
import EventAvailable from '@mui/icons-material/EventAvailable';
import FlashOnOutlined from '@mui/icons-material/FlashOnOutlined';
import ForumOutlined from '@mui/icons-material/ForumOutlined';
import HelpOutline from '@mui/icons-material/HelpOutlined';
import InsightsOutlined from '@mui/icons-material/InsightsOutlined';
import ListAlt from '@mui/icons-material/ListAlt';
import LocalOfferOutlined from '@mui/icons-material/LocalOfferOutlined';
import PeopleAltOutlined from '@mui/icons-material/PeopleAltOutlined';
import PsychologyOutlined from '@mui/icons-material/PsychologyOutlined';
import RecentActorsOutlined from '@mui/icons-material/RecentActorsOutlined';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import SyncAlt from '@mui/icons-material/SyncAlt';
import TableChartOutlined from '@mui/icons-material/TableChartOutlined';
import TaskAltOutlined from '@mui/icons-material/TaskAltOutlined';
import TuneOutlined from '@mui/icons-material/TuneOutlined';
import ViewKanbanOutlined from '@mui/icons-material/ViewKanbanOutlined';
import WebhookOutlined from '@mui/icons-material/WebhookOutlined';
import WhatsApp from '@mui/icons-material/WhatsApp';
import type SvgIcon from '@mui/material/SvgIcon';

type SvgIconComponent = typeof SvgIcon;

/** Who sees an entry (SPEC 2 "Side menu", SPEC 6). The route guards apply the same gates. */
export interface MenuGate {
  admin?: boolean;
  super?: boolean;
  plan?: PlanFlag;
}

export type MenuBadge = 'chats' | 'connections' | 'mentions';

export interface MenuItem {
  /** i18n key under `menu.` */
  key: string;
  path: string;
  icon: SvgIconComponent;
  gate?: MenuGate;
  badge?: MenuBadge;
}

export interface MenuGroup {
  key: string;
  icon: SvgIconComponent;
  items: MenuItem[];
}

export const mainItems: MenuItem[] = [
  { key: 'dashboard', path: '/', icon: DashboardOutlined, gate: { admin: true } },
  // Reports (issue 22 §4): everyone; attendants see their queues' figures (the server decides).
  { key: 'reports', path: '/reports', icon: InsightsOutlined },
  // The dot: a colleague's note mentions the user and they have not opened it yet (issue 22 §6).
  { key: 'tickets', path: '/tickets', icon: WhatsApp, badge: 'mentions' },
  { key: 'quickMessages', path: '/quick-messages', icon: FlashOnOutlined },
  { key: 'kanban', path: '/kanban', icon: ViewKanbanOutlined, gate: { plan: 'useKanban' } },
  { key: 'contacts', path: '/contacts', icon: ContactPhoneOutlined },
  { key: 'schedules', path: '/schedules', icon: EventAvailable, gate: { plan: 'useSchedules' } },
  { key: 'tags', path: '/tags', icon: LocalOfferOutlined },
  { key: 'chats', path: '/chats', icon: ForumOutlined, gate: { plan: 'useInternalChat' }, badge: 'chats' },
  { key: 'todolist', path: '/todolist', icon: TaskAltOutlined },
  { key: 'helps', path: '/helps', icon: HelpOutline },
];

/** Shown when the plan enables campaigns or the cshow flag is stored (SPEC 2). */
export const campaignGroup: MenuGroup = {
  key: 'campaigns',
  icon: CampaignOutlined,
  items: [
    { key: 'campaignsList', path: '/campaigns', icon: ListAlt },
    // Icons of their own: Users has the people, the company's Settings the gear (issue 25: two 'Settings' with one icon).
    { key: 'contactLists', path: '/contact-lists', icon: RecentActorsOutlined },
    { key: 'campaignsConfig', path: '/campaigns-config', icon: TuneOutlined },
  ],
};

export const adminItems: MenuItem[] = [
  { key: 'announcements', path: '/announcements', icon: AnnouncementOutlined, gate: { super: true } },
  { key: 'prompts', path: '/prompts', icon: PsychologyOutlined, gate: { admin: true, plan: 'useOpenAi' } },
  { key: 'queueIntegration', path: '/queue-integration', icon: DeviceHubOutlined, gate: { admin: true, plan: 'useIntegrations' } },
  { key: 'connections', path: '/connections', icon: SyncAlt, gate: { admin: true }, badge: 'connections' },
  // File lists are what campaigns send: the API serves them to plans with useCampaigns.
  { key: 'files', path: '/files', icon: AttachFile, gate: { admin: true, plan: 'useCampaigns' } },
  { key: 'queues', path: '/queues', icon: AccountTreeOutlined, gate: { admin: true } },
  { key: 'users', path: '/users', icon: PeopleAltOutlined, gate: { admin: true } },
  { key: 'messagesApi', path: '/messages-api', icon: CodeRounded, gate: { admin: true, plan: 'useExternalApi' } },
  { key: 'webhooks', path: '/webhooks', icon: WebhookOutlined, gate: { admin: true, plan: 'useExternalApi' } },
  { key: 'financeiro', path: '/financeiro', icon: TableChartOutlined, gate: { admin: true } },
  // SPEC 2 "/subscription": where a trial company subscribes (issue 25: it had no entry, so nobody found it).
  { key: 'subscription', path: '/subscription', icon: AllInclusive, gate: { admin: true } },
  { key: 'settings', path: '/settings', icon: SettingsOutlined, gate: { admin: true } },
];
