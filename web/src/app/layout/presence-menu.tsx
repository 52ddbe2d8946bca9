import { Box, Button, ListItemIcon, ListItemText, Menu, MenuItem, Tooltip } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PresenceDot } from '../../components/presence-dot.tsx';
import { setManualAway, useManualAway, useOwnStatus } from '../../lib/realtime/presence-status.ts';

/**
 * The top bar's status menu (issue 22 §1): the user's own presence as a dot, and Online / Away to
 * choose. Away chosen here holds until Online is chosen (every tab of the browser follows); a
 * hidden or idle tab says away on its own and comes back by itself.
 */
export function PresenceMenu() {
  const { t } = useTranslation();
  const status = useOwnStatus();
  const manualAway = useManualAway();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const label = t('presence.menu', { status: t(`presence.${status}`) });
  const choose = (away: boolean) => {
    setAnchor(null);
    setManualAway(away);
  };
  return (
    <>
      <Tooltip title={label}>
        <Button
          color="inherit"
          onClick={(e) => setAnchor(e.currentTarget)}
          aria-label={label}
          data-testid="presence-button"
          data-status={status}
          sx={{ minWidth: 0, px: 1, textTransform: 'none', gap: 0.75 }}
        >
          <PresenceDot presence={status} size={12} />
          {/* Phones keep only the dot: the top bar has no room for the word. */}
          <Box component="span" sx={{ display: { xs: 'none', md: 'inline' } }}>
            {t(`presence.${status}`)}
          </Box>
        </Button>
      </Tooltip>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        <MenuItem selected={!manualAway} onClick={() => choose(false)} data-testid="presence-online">
          <ListItemIcon>
            <PresenceDot presence="online" />
          </ListItemIcon>
          <ListItemText primary={t('presence.setOnline')} />
        </MenuItem>
        <MenuItem selected={manualAway} onClick={() => choose(true)} data-testid="presence-away">
          <ListItemIcon>
            <PresenceDot presence="away" />
          </ListItemIcon>
          <ListItemText primary={t('presence.setAway')} secondary={t('presence.awayHint')} />
        </MenuItem>
      </Menu>
    </>
  );
}
