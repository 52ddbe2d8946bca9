import { Paper, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/** A clear, honest placeholder: what this screen is and why nothing is here yet. */
export function EmptyState({ icon, title, description }: { icon?: ReactNode; title: string; description: string }) {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 3, sm: 6 } }} data-testid="empty-state">
      <Stack spacing={1.5} sx={{ alignItems: 'center', textAlign: 'center', color: 'text.secondary' }}>
        {icon}
        <Typography variant="h6" color="text.primary">
          {title}
        </Typography>
        <Typography variant="body2" sx={{ maxWidth: 520 }}>
          {description}
        </Typography>
      </Stack>
    </Paper>
  );
}
