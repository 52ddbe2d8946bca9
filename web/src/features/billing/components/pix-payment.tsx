import type { SubscriptionPayment } from '@conversa/functions/contracts/billing';
import ContentCopy from '@mui/icons-material/ContentCopy';
import { Box, Button, Stack, TextField, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/spinner.tsx';
import { formatMoney } from '../../../lib/money.ts';

/** SPEC 9: the copy button says "copied" for 1 s. */
export const COPY_FEEDBACK_MS = 1000;

/** The payment QR step: the PIX image and its copy-paste code, while the payment event is awaited. */
export function PixPayment({ payment }: { payment: SubscriptionPayment }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPY_FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = async () => {
    await navigator.clipboard?.writeText(payment.qrcode.qrcode).catch(() => undefined);
    setCopied(true);
  };
  return (
    <Stack spacing={2} sx={{ alignItems: 'center' }} data-testid="pix-payment">
      <Typography variant="h6">{t('billing.wizard.qrTitle')}</Typography>
      <Typography variant="body2" color="text.secondary">
        {t('billing.wizard.qrHelp')}
      </Typography>
      <Box component="img" src={payment.qrcode.imagemQrcode} alt={t('billing.wizard.qrTitle')} sx={{ width: 220, height: 220 }} />
      <Typography variant="h6">{formatMoney(Number(payment.valor.original))}</Typography>
      <TextField
        value={payment.qrcode.qrcode}
        fullWidth
        size="small"
        slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'pix-code' } }}
        onFocus={(event) => event.target.select()}
      />
      <Button variant="outlined" startIcon={<ContentCopy />} onClick={() => void copy()}>
        {copied ? t('billing.wizard.copied') : t('billing.wizard.copy')}
      </Button>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', color: 'text.secondary' }}>
        <Spinner size={16} />
        <Typography variant="body2">{t('billing.wizard.waiting')}</Typography>
      </Stack>
    </Stack>
  );
}
