import { Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { APP_VERSION, useServerVersion } from './version-api.ts';

/** SPEC 2: the drawer's footer shows 6.0.0 and the server-reported version. */
export function VersionFooter({ compact }: { compact: boolean }) {
  const { t } = useTranslation();
  const server = useServerVersion();
  if (compact) {
    return (
      <Typography variant="caption" color="text.secondary" sx={{ display: 'block', textAlign: 'center', py: 1 }}>
        {APP_VERSION}
      </Typography>
    );
  }
  return (
    <Typography variant="caption" color="text.secondary" sx={{ display: 'block', px: 2, py: 1.5 }} data-testid="version-footer">
      {t('layout.version', { web: APP_VERSION, server: server.data || '—' })}
    </Typography>
  );
}
