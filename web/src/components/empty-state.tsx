import { Add } from '@mui/icons-material';
import { Button, Paper, Stack, Typography } from '@mui/material';
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

/**
 * An empty list's row that says what to do next, with the button that does it (issue 25: a new
 * company's screens said only "No records"). For DataTable's `empty`.
 */
export function EmptyTableHint({ text, action, onAction }: { text: string; action?: string; onAction?: () => void }) {
  return (
    <Stack spacing={1} sx={{ alignItems: 'center', py: 2 }} data-testid="empty-hint">
      <Typography variant="body2" color="text.secondary">
        {text}
      </Typography>
      {action && onAction && (
        <Button variant="outlined" size="small" startIcon={<Add />} onClick={onAction}>
          {action}
        </Button>
      )}
    </Stack>
  );
}
