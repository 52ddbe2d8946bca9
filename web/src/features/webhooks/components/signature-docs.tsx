import { Box, Paper, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';

/** What a receiver runs (Node): the signature over "t.body" with the secret, and a recent t, or the request is refused. */
const VERIFY_EXAMPLE = `import { createHmac, timingSafeEqual } from 'node:crypto';

// rawBody: the request body exactly as received (before JSON.parse)
function verifyConversa(rawBody, header, secret, toleranceSeconds = 300) {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=')));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > toleranceSeconds) return false; // stale: a replay
  const expected = createHmac('sha256', secret).update(\`\${t}.\${rawBody}\`).digest();
  const given = Buffer.from(parts.v1 ?? '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

// Express: app.post('/conversa', express.raw({ type: 'application/json' }), (req, res) => {
//   if (!verifyConversa(req.body.toString('utf8'), req.get('X-Conversa-Signature'), process.env.CONVERSA_SECRET)) return res.sendStatus(400);
//   const { id, event, data } = JSON.parse(req.body);   // id = X-Conversa-Delivery: skip ids already handled
//   res.sendStatus(200);                                // answer 2xx within 10 s, do the work afterwards
// });`;

const PAYLOAD_EXAMPLE = `POST <your URL>
Content-Type: application/json
X-Conversa-Event: message.received
X-Conversa-Delivery: whd_0mi7x3a2c4f9e1b0d7a6c5e2
X-Conversa-Signature: t=1764604800,v1=5f2b…(hex HMAC-SHA256 of "t.body")

{"id":"whd_0mi7x3a2c4f9e1b0d7a6c5e2","event":"message.received","companyId":7,"createdAt":"2026-12-01T16:00:00.000Z","data":{"message":{…},"ticket":{…},"contact":{…}}}`;

function Code({ children, testId }: { children: string; testId?: string }) {
  return (
    <Box
      component="pre"
      data-testid={testId}
      sx={{ m: 0, p: 1.5, borderRadius: 1, bgcolor: 'action.hover', fontFamily: 'monospace', fontSize: 12, overflowX: 'auto' }}
    >
      {children}
    </Box>
  );
}

/** How a developer's server checks a delivery: the headers, the body, the signature and the stale-timestamp rule. */
export function SignatureDocs() {
  const { t } = useTranslation();
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="webhook-docs">
      <Stack spacing={1.5}>
        <Typography variant="h6">{t('webhooks.docs.title')}</Typography>
        <Typography variant="body2">{t('webhooks.docs.intro')}</Typography>
        <Code>{PAYLOAD_EXAMPLE}</Code>
        <Typography variant="subtitle2">{t('webhooks.docs.verifyTitle')}</Typography>
        <Typography variant="body2">{t('webhooks.docs.verify')}</Typography>
        <Code testId="webhook-verify-example">{VERIFY_EXAMPLE}</Code>
        <Typography variant="body2" color="text.secondary">
          {t('webhooks.docs.retries')}
        </Typography>
      </Stack>
    </Paper>
  );
}
