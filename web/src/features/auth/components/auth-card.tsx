import { Box, Paper, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** The frame of the public screens (login, signup, password reset). */
export function AuthCard({ title, children, footer }: { title: string; children: ReactNode; footer?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 2, bgcolor: 'background.default' }}>
      <Paper variant="outlined" sx={{ width: '100%', maxWidth: 440, p: { xs: 3, sm: 4 } }}>
        <Stack spacing={0.5} sx={{ mb: 3, alignItems: 'center' }}>
          <Typography variant="h4" component="div" color="primary" sx={{ fontWeight: 700 }}>
            {t('app.name')}
          </Typography>
          <Typography variant="h6" component="h1">
            {title}
          </Typography>
        </Stack>
        {children}
        {footer && <Box sx={{ mt: 3, textAlign: 'center' }}>{footer}</Box>}
      </Paper>
    </Box>
  );
}
