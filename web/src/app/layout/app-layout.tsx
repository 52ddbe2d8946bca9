import { Box, Divider, Drawer, Toolbar, useMediaQuery, useTheme } from '@mui/material';
import { Suspense, useState } from 'react';
import { Outlet } from 'react-router-dom';
import { useAuth } from '../../lib/auth/auth-provider.tsx';
import { useCompanyPlan } from '../../lib/auth/session-api.ts';
import { setCompanyTimeZone } from '../../lib/company-time.ts';
import { drawerWidth } from '../../theme/index.ts';
import { FullPageLoader } from '../routes/guards.tsx';
import { DrawerMenu } from './drawer-menu.tsx';
import { TopBar } from './top-bar.tsx';
import { VersionFooter } from './version-footer.tsx';

const collapsedWidth = 64;

type LayoutMode = 'mobile' | 'medium' | 'wide';

/**
 * SPEC 2: the drawer opens by default above 1200 px, collapses to icons between 600 and 1200 px,
 * and becomes a temporary (overlay) drawer under 600 px.
 */
export function AppLayout() {
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('lg'), { noSsr: true });
  const mobile = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const mode: LayoutMode = mobile ? 'mobile' : wide ? 'wide' : 'medium';
  // The user's open/close choice holds for the layout it was made in: crossing a breakpoint starts
  // from that layout's default in the same render. (An effect resetting it one render later let a
  // window shrunk below 600 px mount the temporary drawer open, its backdrop swallowing clicks.)
  const [choice, setChoice] = useState<{ mode: LayoutMode; open: boolean } | null>(null);
  const open = choice?.mode === mode ? choice.open : mode === 'wide';
  const setOpen = (next: boolean) => setChoice({ mode, open: next });
  const { user } = useAuth();
  const plan = useCompanyPlan(user?.companyId);
  // One time zone for every screen below (lib/company-time.ts): the company's setting, from the
  // session user (a cached query, refreshed when the setting changes). Set while rendering, before
  // any page under the layout formats a time; the browser's zone until the user is known.
  setCompanyTimeZone(user?.company?.settings?.find((setting) => setting.key === 'timezone')?.value);

  const collapsed = !mobile && !open;
  const width = collapsed ? collapsedWidth : drawerWidth;
  const content = (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
      <Toolbar />
      <Box sx={{ flexGrow: 1, overflowY: 'auto', overflowX: 'hidden' }}>
        <DrawerMenu user={user} plan={plan.data} collapsed={collapsed} onNavigate={() => mobile && setOpen(false)} />
      </Box>
      <Divider />
      <VersionFooter compact={collapsed} />
    </Box>
  );

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <TopBar onToggleDrawer={() => setOpen(!open)} />
      {mobile ? (
        <Drawer
          variant="temporary"
          open={open}
          onClose={() => setOpen(false)}
          ModalProps={{ keepMounted: true }}
          sx={{ '& .MuiDrawer-paper': { width: drawerWidth } }}
          data-testid="app-drawer"
        >
          {content}
        </Drawer>
      ) : (
        <Drawer
          variant="permanent"
          data-testid="app-drawer"
          sx={{
            width,
            flexShrink: 0,
            transition: theme.transitions.create('width'),
            '& .MuiDrawer-paper': { width, overflowX: 'hidden', transition: theme.transitions.create('width'), boxSizing: 'border-box' },
          }}
        >
          {content}
        </Drawer>
      )}
      <Box component="main" sx={{ flexGrow: 1, minWidth: 0, p: { xs: 2, sm: 3 } }}>
        <Toolbar />
        <Suspense fallback={<FullPageLoader />}>
          <Outlet />
        </Suspense>
      </Box>
    </Box>
  );
}
