import { Alert, Snackbar } from '@mui/material';
import { TOAST_DURATION_MS, toast, useToasts } from '../lib/toast.ts';

/** Shows the oldest toast first; each closes itself after 3 s (SPEC 2 "Top bar"). */
export function Toaster() {
  const toasts = useToasts();
  const current = toasts[0];
  return (
    <Snackbar
      key={current?.id}
      open={Boolean(current)}
      autoHideDuration={TOAST_DURATION_MS}
      onClose={(_, reason) => {
        if (reason !== 'clickaway' && current) toast.dismiss(current.id);
      }}
      anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
      // Below the app bar: a toast must not cover the account menu or the theme toggle for 3 s.
      sx={{ top: { xs: 64, sm: 72 } }}
    >
      {current ? (
        <Alert severity={current.severity} variant="filled" onClose={() => toast.dismiss(current.id)} data-testid="toast">
          {current.message}
        </Alert>
      ) : undefined}
    </Snackbar>
  );
}
