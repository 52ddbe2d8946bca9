import type { SessionUser } from '@conversa/functions/contracts';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import { Badge, Collapse, Divider, List, ListItemButton, ListItemIcon, ListItemText, ListSubheader } from '@mui/material';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { isCompanyExpired } from '../../features/billing/components/billing-dates.ts';
import { BILLING_PATHS } from '../../features/billing/components/expired-gate.tsx';
import { isAdmin } from '../../lib/auth/auth-provider.tsx';
import { isCshowSet, storageKeys, writeStorage } from '../../lib/storage.ts';
import { useMenuBadges } from './menu-badges.ts';
import { adminItems, campaignGroup, type MenuBadge, type MenuGate, type MenuItem, mainItems } from './menu-items.ts';

type PlanFlags = Partial<Record<NonNullable<MenuGate['plan']>, boolean>>;

export function passesGate(gate: MenuGate | undefined, user: SessionUser | undefined, plan: PlanFlags | undefined): boolean {
  if (!gate) return true;
  if (gate.admin && !isAdmin(user)) return false;
  if (gate.super && !user?.super) return false;
  if (gate.plan && !plan?.[gate.plan]) return false;
  return true;
}

function isActive(pathname: string, path: string): boolean {
  return path === '/' ? pathname === '/' : pathname === path || pathname.startsWith(`${path}/`);
}

interface EntryProps {
  item: MenuItem;
  badges: Record<MenuBadge, boolean>;
  collapsed: boolean;
  nested?: boolean;
  onNavigate: () => void;
}

function MenuEntry({ item, badges, collapsed, nested, onNavigate }: EntryProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const Icon = item.icon;
  const label = t(`menu.${item.key}`);
  const badge = item.badge ? badges[item.badge] : false;
  const icon =
    item.badge === 'connections' ? (
      <Badge color="error" badgeContent="!" invisible={!badge}>
        <Icon />
      </Badge>
    ) : (
      <Badge color="secondary" variant="dot" invisible={!badge}>
        <Icon />
      </Badge>
    );
  return (
    <ListItemButton
      component={RouterLink}
      to={item.path}
      selected={isActive(pathname, item.path)}
      onClick={onNavigate}
      sx={nested && !collapsed ? { pl: 4 } : undefined}
      title={collapsed ? label : undefined}
      data-testid={`menu-${item.key}`}
    >
      <ListItemIcon>{icon}</ListItemIcon>
      {!collapsed && <ListItemText primary={label} />}
    </ListItemButton>
  );
}

interface DrawerMenuProps {
  user: SessionUser | undefined;
  plan: PlanFlags | undefined;
  collapsed: boolean;
  onNavigate: () => void;
}

/** Every SPEC 2 menu entry, each behind the same gate its route applies. */
export function DrawerMenu({ user, plan, collapsed, onNavigate }: DrawerMenuProps) {
  const { t } = useTranslation();
  const badges = useMenuBadges(user?.id);
  const { pathname } = useLocation();
  // Opened on one of the group's pages (a reload or a link there shows where the user is).
  const [campaignsOpen, setCampaignsOpen] = useState(() =>
    [...campaignGroup.items.map((item) => item.path), '/campaign/'].some((path) => pathname.startsWith(path)),
  );
  const showCampaigns = Boolean(plan?.useCampaigns) || isCshowSet();
  // SPEC 2: a plan with campaigns sets cshow (as the spec's client does), so the group's routes open.
  useEffect(() => {
    if (plan?.useCampaigns && !isCshowSet()) writeStorage(storageKeys.cshow, 'true');
  }, [plan?.useCampaigns]);
  const visibleAdmin = adminItems.filter((item) => passesGate(item.gate, user, plan));
  const entry = (item: MenuItem, nested = false) => (
    <MenuEntry key={item.path} item={item} badges={badges} collapsed={collapsed} nested={nested} onNavigate={onNavigate} />
  );

  // An expired company reaches billing only (ExpiredGate): every other entry would lead back there.
  if (isCompanyExpired(user)) {
    return (
      <List component="nav" aria-label={t('menu.label')} dense>
        {visibleAdmin.filter((item) => BILLING_PATHS.includes(item.path)).map((item) => entry(item))}
      </List>
    );
  }

  return (
    <List component="nav" aria-label={t('menu.label')} dense>
      {mainItems.filter((item) => passesGate(item.gate, user, plan)).map((item) => entry(item))}
      {isAdmin(user) && visibleAdmin.length > 0 && (
        <>
          <Divider sx={{ my: 1 }} />
          {/* The menu is a nav of links, not a list: its header and sub-list must not be li/ul (axe). */}
          {!collapsed && (
            <ListSubheader component="div" sx={{ bgcolor: 'transparent', lineHeight: '32px' }}>
              {t('menu.administration')}
            </ListSubheader>
          )}
          {showCampaigns && (
            <>
              <ListItemButton onClick={() => setCampaignsOpen((open) => !open)} data-testid="menu-campaigns">
                <ListItemIcon>
                  <campaignGroup.icon />
                </ListItemIcon>
                {!collapsed && <ListItemText primary={t(`menu.${campaignGroup.key}`)} />}
                {campaignsOpen ? <ExpandLess /> : <ExpandMore />}
              </ListItemButton>
              <Collapse in={campaignsOpen} timeout="auto" unmountOnExit>
                <List component="div" disablePadding dense>
                  {campaignGroup.items.map((item) => entry(item, true))}
                </List>
              </Collapse>
            </>
          )}
          {visibleAdmin.map((item) => entry(item))}
        </>
      )}
    </List>
  );
}
