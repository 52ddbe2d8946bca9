import { Alert, Snackbar, type SnackbarOrigin, type Theme, useMediaQuery } from '@mui/material';
import { TOAST_DURATION_MS, toast, useToasts } from '../lib/toast.ts';

/** Shows the oldest toast first; each closes itself after 3 s (SPEC 2 "Top bar"). */
export function Toaster() {
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const anchor: SnackbarOrigin = phone ? { vertical: 'top', horizontal: 'center' } : { vertical: 'bottom', horizontal: 'left' };
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
      anchorOrigin={anchor}
      // A toast must never lie over the main action: the lists' Add sits at the top right and a
      // dialog's Save at the bottom right, so on wider screens toasts go to the bottom left. On a
      // phone a toast spans the width; there it sits over the app bar, above the page's header and
      // its Add button, and far from a dialog's actions at the bottom.
    >
      {current ? (
        <Alert severity={current.severity} variant="filled" onClose={() => toast.dismiss(current.id)} data-testid="toast">
          {current.message}
        </Alert>
      ) : undefined}
    </Snackbar>
  );
}
