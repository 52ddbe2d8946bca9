import type { ConnectionStatus } from '@conversa/functions/contracts';
import CheckCircle from '@mui/icons-material/CheckCircle';
import CropFree from '@mui/icons-material/CropFree';
import SignalCellularConnectedNoInternet0Bar from '@mui/icons-material/SignalCellularConnectedNoInternet0Bar';
import SignalCellularConnectedNoInternet2Bar from '@mui/icons-material/SignalCellularConnectedNoInternet2Bar';
import { Tooltip } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/spinner.tsx';

/** One icon per SPEC 4 connection status, with the status named in a tooltip. */
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
  return (
    <Tooltip title={t(`connections.status.${status}`)}>
      <span role="img" aria-label={t(`connections.status.${status}`)} style={{ display: 'inline-flex' }}>
        {icon}
      </span>
    </Tooltip>
  );
}
