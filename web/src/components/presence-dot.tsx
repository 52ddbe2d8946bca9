import type { Presence } from '@conversa/functions/contracts/presence';
import { Box } from '@mui/material';
import { useTranslation } from 'react-i18next';

const colour: Record<Presence, string> = { online: 'success.main', away: 'warning.main', offline: 'grey.400' };

/** A user's presence as a dot (online green, away amber, offline grey), named for screen readers. */
export function PresenceDot({ presence, size = 10 }: { presence: Presence; size?: number }) {
  const { t } = useTranslation();
  return (
    <Box
      component="span"
      role="img"
      aria-label={t(`presence.${presence}`)}
      title={t(`presence.${presence}`)}
      data-presence={presence}
      sx={{ display: 'inline-block', flexShrink: 0, width: size, height: size, borderRadius: '50%', bgcolor: colour[presence] }}
    />
  );
}
