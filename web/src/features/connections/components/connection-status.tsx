import type { ConnectionStatus } from '@conversa/functions/contracts';
import CheckCircle from '@mui/icons-material/CheckCircle';
import CropFree from '@mui/icons-material/CropFree';
import SignalCellularConnectedNoInternet0Bar from '@mui/icons-material/SignalCellularConnectedNoInternet0Bar';
import SignalCellularConnectedNoInternet2Bar from '@mui/icons-material/SignalCellularConnectedNoInternet2Bar';
import { Box, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/spinner.tsx';

/** One icon per SPEC 4 connection status, with the status named beside it. */
export function ConnectionStatusIcon({ status }: { status: ConnectionStatus }) {
  const { t } = useTranslation();
  const icon = (() => {
    switch (status) {
      case 'CONNECTED':
        return <CheckCircle color="success" fontSize="small" />;
      case 'DISCONNECTED':
        return <SignalCellularConnectedNoInternet0Bar color="error" fontSize="small" />;
      case 'OPENING':
        return <Spinner size={18} />;
      case 'qrcode':
        return <CropFree color="warning" fontSize="small" />;
      default:
        return <SignalCellularConnectedNoInternet2Bar color="warning" fontSize="small" />;
    }
  })();
  // The status in words beside its icon: an icon alone (its name only in a tooltip) left a new
  // customer guessing what the orange or red mark meant.
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'center' }} data-testid="connection-status">
      <Box component="span" aria-hidden sx={{ display: 'inline-flex' }}>
        {icon}
      </Box>
      <Typography variant="body2" component="span">
        {t(`connections.status.${status}`)}
      </Typography>
    </Stack>
  );
}
