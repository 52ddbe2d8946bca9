import DarkModeOutlined from '@mui/icons-material/DarkModeOutlined';
import LightModeOutlined from '@mui/icons-material/LightModeOutlined';
import MenuIcon from '@mui/icons-material/Menu';
import Refresh from '@mui/icons-material/Refresh';
import { AppBar, Box, IconButton, Toolbar, Tooltip, Typography, useMediaQuery, useTheme } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { AnnouncementsPopover } from '../../features/announcements/components/announcements-popover.tsx';
import { isCompanyExpired } from '../../features/billing/components/billing-dates.ts';
import { ChatsPopover } from '../../features/chats/components/chats-popover.tsx';
import { NotificationsBell } from '../../features/notifications/components/notifications-bell.tsx';
import { isAdmin, useAuth } from '../../lib/auth/auth-provider.tsx';
import { formatDay } from '../../lib/dates.ts';
import { useColorMode } from '../../theme/color-mode.tsx';
import { AccountMenu } from './account-menu.tsx';
import { LanguageMenu } from './language-menu.tsx';
import { PresenceMenu } from './presence-menu.tsx';
import { VolumeControl } from './volume-control.tsx';

function Greeting() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('md'));
  if (!user) return null;
  const dueDate = user.company?.dueDate;
  // SPEC 2: admins see the company's active-until date, on wide screens only.
  const withDueDate = wide && isAdmin(user) && dueDate;
  // A past due date is no "Active until" (issue 25): the company expired on it.
  const dueKey = isCompanyExpired(user) ? 'layout.greetingExpired' : 'layout.greetingDue';
  const text = withDueDate
    ? t(dueKey, { name: user.name, company: user.company.name, date: formatDay(dueDate) })
    : t('layout.greeting', { name: user.name, company: user.company?.name ?? '' });
  // Phones have no room beside the icons: a greeting squeezed to a few pixels showed a stray "(" or "|".
  return (
    <Typography variant="body1" noWrap sx={{ fontWeight: 500, display: { xs: 'none', sm: 'block' } }} data-testid="greeting">
      {text}
    </Typography>
  );
}

export function TopBar({ onToggleDrawer }: { onToggleDrawer: () => void }) {
  const { t } = useTranslation();
  const { mode, toggle } = useColorMode();
  // An expired company's admin is confined to billing: the inbox's lists would only answer 402.
  const confined = isCompanyExpired(useAuth().user);
  return (
    <AppBar position="fixed" sx={{ zIndex: (theme) => theme.zIndex.drawer + 1 }}>
      <Toolbar>
        <IconButton
          color="inherit"
          edge="start"
          onClick={onToggleDrawer}
          aria-label={t('layout.toggleMenu')}
          sx={{ mr: 1 }}
          data-testid="drawer-toggle"
        >
          <MenuIcon />
        </IconButton>
        <Box sx={{ flexGrow: 1, minWidth: 0 }}>
          <Greeting />
        </Box>
        <Tooltip title={t('layout.toggleTheme')}>
          <IconButton color="inherit" onClick={toggle} aria-label={t('layout.toggleTheme')} data-testid="theme-toggle">
            {mode === 'dark' ? <LightModeOutlined /> : <DarkModeOutlined />}
          </IconButton>
        </Tooltip>
        <VolumeControl />
        <Tooltip title={t('layout.refresh')}>
          <IconButton color="inherit" onClick={() => window.location.reload()} aria-label={t('layout.refresh')}>
            <Refresh />
          </IconButton>
        </Tooltip>
        {!confined && (
          <>
            <NotificationsBell />
            <AnnouncementsPopover />
            <ChatsPopover />
          </>
        )}
        <LanguageMenu />
        <PresenceMenu />
        <AccountMenu />
      </Toolbar>
    </AppBar>
  );
}
