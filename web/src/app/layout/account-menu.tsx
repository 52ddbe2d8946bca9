import AccountCircle from '@mui/icons-material/AccountCircle';
import { IconButton, ListItemText, Menu, MenuItem, Tooltip } from '@mui/material';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { SecurityDialog } from '../../features/security/components/security-dialog.tsx';
import { UserDialog } from '../../features/users/components/user-dialog.tsx';
import { isAdmin, useAuth } from '../../lib/auth/auth-provider.tsx';
import { useProfileRequests } from '../../lib/profile-request.ts';

/** SPEC 2: Profile opens the user edit dialog for oneself (other screens may ask for it too); Logout ends the session. */
export function AccountMenu() {
  const { t } = useTranslation();
  const { user, signOut } = useAuth();
  const navigate = useNavigate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [profileOpen, setProfileOpen] = useState(false);
  const [securityOpen, setSecurityOpen] = useState(false);
  useProfileRequests(useCallback(() => setProfileOpen(true), []));
  return (
    <>
      <Tooltip title={t('layout.account')}>
        <IconButton
          color="inherit"
          onClick={(e) => setAnchor(e.currentTarget)}
          aria-label={t('layout.account')}
          data-testid="account-button"
        >
          <AccountCircle />
        </IconButton>
      </Tooltip>
      <Menu
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <MenuItem disabled>
          <ListItemText primary={user?.name} secondary={user?.email} />
        </MenuItem>
        <MenuItem
          onClick={() => {
            setAnchor(null);
            setProfileOpen(true);
          }}
          data-testid="menu-profile"
        >
          {t('layout.profile')}
        </MenuItem>
        <MenuItem
          onClick={() => {
            setAnchor(null);
            setSecurityOpen(true);
          }}
          data-testid="menu-security"
        >
          {t('security.menu')}
        </MenuItem>
        <MenuItem
          data-testid="menu-logout"
          onClick={async () => {
            setAnchor(null);
            await signOut();
            navigate('/login', { replace: true });
          }}
        >
          {t('layout.logout')}
        </MenuItem>
      </Menu>
      {securityOpen && <SecurityDialog onClose={() => setSecurityOpen(false)} />}
      {profileOpen && user && <UserDialog open user={user} adminFields={isAdmin(user)} onClose={() => setProfileOpen(false)} />}
    </>
  );
}
