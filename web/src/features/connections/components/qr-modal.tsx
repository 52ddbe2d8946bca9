import { channels, type WhatsappSessionEvent } from '@conversa/functions/contracts';
import { Box, Dialog, DialogContent, DialogTitle, Stack, Typography } from '@mui/material';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/spinner.tsx';
import { useConnections } from '../../../lib/lookups/connections.ts';
import { useRealtimeEvent } from '../../../lib/realtime/realtime-provider.tsx';

const QR_SIZE = 256;

/**
 * The QR of a connection with the scanning steps. The payload comes from the live connections
 * cache, so a refreshed QR replaces the image; the modal closes when a session update arrives
 * with an empty QR (SPEC 4: scanned, or the session moved on).
 */
export function QrModal({ connectionId, companyId, onClose }: { connectionId: number; companyId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const { data } = useConnections();
  const qrcode = data?.find((c) => c.id === connectionId)?.qrcode ?? '';
  const [image, setImage] = useState<string>('');

  useEffect(() => {
    let current = true;
    if (!qrcode) {
      setImage('');
      return;
    }
    QRCode.toDataURL(qrcode, { width: QR_SIZE, margin: 1 }).then(
      (url) => current && setImage(url),
      () => current && setImage(''),
    );
    return () => {
      current = false;
    };
  }, [qrcode]);

  useRealtimeEvent<WhatsappSessionEvent>(channels.whatsappSession(companyId), (event) => {
    if (event?.session?.id === connectionId && !event.session.qrcode) onClose();
  });

  return (
    <Dialog open onClose={onClose} maxWidth="md">
      <DialogTitle>{t('connections.qr.title')}</DialogTitle>
      <DialogContent>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={4} sx={{ alignItems: 'center' }}>
          <Box component="ol" sx={{ pl: 2, m: 0, maxWidth: 360 }}>
            {(['step1', 'step2', 'step3', 'step4'] as const).map((step) => (
              <Typography component="li" key={step} variant="body2" sx={{ mb: 1 }}>
                {t(`connections.qr.${step}`)}
              </Typography>
            ))}
          </Box>
          <Box sx={{ width: QR_SIZE, height: QR_SIZE, display: 'grid', placeItems: 'center', bgcolor: '#fff', borderRadius: 1 }}>
            {image ? (
              <img src={image} width={QR_SIZE} height={QR_SIZE} alt={t('connections.qr.alt')} data-testid="connection-qr" />
            ) : (
              <Stack spacing={1} sx={{ alignItems: 'center' }}>
                <Spinner size={28} />
                <Typography variant="caption" color="text.secondary">
                  {t('connections.qr.waiting')}
                </Typography>
              </Stack>
            )}
          </Box>
        </Stack>
      </DialogContent>
    </Dialog>
  );
}
