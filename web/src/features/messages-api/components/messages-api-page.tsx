import { Box, Link, Paper, Stack, Typography } from '@mui/material';
import { lazy, type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/page-header.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { openApiDocumentUrl } from '../api/openapi-document.ts';
import { sendEndpoint } from '../api/send-test.ts';
import { TestForm } from './test-form.tsx';

/** The viewer is large (Scalar, Vue inside): loaded on this page only, in a chunk of its own. */
const ApiReference = lazy(() => import('./api-reference.tsx'));

/** A code block; `wrap` breaks a single long line (the endpoint) instead of scrolling it on a phone. */
function Code({ children, testId, wrap = false }: { children: ReactNode; testId?: string; wrap?: boolean }) {
  return (
    <Box
      component="pre"
      data-testid={testId}
      sx={{
        m: 0,
        p: 1.5,
        borderRadius: 1,
        bgcolor: 'action.hover',
        fontFamily: 'monospace',
        fontSize: 13,
        overflowX: 'auto',
        whiteSpace: wrap ? 'pre-wrap' : 'pre',
        overflowWrap: wrap ? 'anywhere' : 'normal',
      }}
    >
      {children}
    </Box>
  );
}

/**
 * SPEC 2 "Messages API documentation page with test forms for text and media" (admins, useExternalApi):
 * how to call POST /api/messages/send on this deployment's API (its real base URL, from the web's
 * runtime config) with a connection's token, and forms that make that very call.
 */
export function MessagesApiPage() {
  const { t } = useTranslation();
  const endpoint = sendEndpoint();
  return (
    <>
      <PageHeader title={t('messagesApi.title')} />
      <Stack spacing={2}>
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Stack spacing={1.5}>
            <Typography variant="h6">{t('messagesApi.docsTitle')}</Typography>
            <Typography variant="body2">{t('messagesApi.intro')}</Typography>
            <Typography variant="subtitle2">{t('messagesApi.endpoint')}</Typography>
            <Code testId="messages-api-endpoint" wrap>{`POST ${endpoint}`}</Code>
            <Typography variant="subtitle2">{t('messagesApi.headers')}</Typography>
            <Code>{'Authorization: Bearer <token>\nContent-Type: application/json\nIdempotency-Key: <uuid>'}</Code>
            <Typography variant="body2">{t('messagesApi.tokenHelp')}</Typography>
            <Typography variant="body2">{t('messagesApi.idempotencyHelp')}</Typography>
            <Typography variant="subtitle2">{t('messagesApi.textExample')}</Typography>
            <Code>{`curl -X POST '${endpoint}' \\\n  -H 'Authorization: Bearer <token>' \\\n  -H 'Content-Type: application/json' \\\n  -d '{"number": "5511999999999", "body": "Olá"}'`}</Code>
            <Typography variant="subtitle2">{t('messagesApi.mediaExample')}</Typography>
            <Code>{`curl -X POST '${endpoint}' \\\n  -H 'Authorization: Bearer <token>' \\\n  -F 'number=5511999999999' \\\n  -F 'body=Legenda' \\\n  -F 'medias=@foto.png'`}</Code>
            <Typography variant="subtitle2">{t('messagesApi.answers')}</Typography>
            <Code>
              {
                '200 {"mensagem": "Mensagem enviada"}\n401 {"error": "ERR_UNAUTHORIZED"}\n403 {"error": "ERR_PLAN_FEATURE_DISABLED"}\n409 {"error": "ERR_IDEMPOTENCY_KEY_IN_USE"}\n422 {"error": "ERR_IDEMPOTENCY_KEY_REUSED"}\n429 {"error": "ERR_TOO_MANY_REQUESTS"}'
              }
            </Code>
            <Typography variant="body2" color="text.secondary">
              {t('messagesApi.numberHelp')}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {t('messagesApi.rateLimitHelp')}
            </Typography>
          </Stack>
        </Paper>
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, alignItems: 'start' }}>
          <TestForm kind="text" />
          <TestForm kind="media" />
        </Box>
        <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-labelledby="api-reference-title">
          <Stack spacing={1.5}>
            <Typography variant="h6" id="api-reference-title">
              {t('messagesApi.referenceTitle')}
            </Typography>
            <Typography variant="body2">{t('messagesApi.referenceIntro')}</Typography>
            <Link href={openApiDocumentUrl()} target="_blank" rel="noopener" variant="body2" data-testid="openapi-document-link">
              {t('messagesApi.referenceJson')}
            </Link>
            <Box data-testid="api-reference">
              <Suspense
                fallback={
                  <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
                    <Spinner aria-label={t('messagesApi.referenceLoading')} />
                  </Box>
                }
              >
                <ApiReference />
              </Suspense>
            </Box>
          </Stack>
        </Paper>
      </Stack>
    </>
  );
}
