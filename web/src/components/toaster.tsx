import { Alert, Box, Grow, Stack, type Theme, useMediaQuery } from '@mui/material';
import { useEffect, useState } from 'react';
import { TOAST_DURATION_MS, type Toast, toast, useToasts } from '../lib/toast.ts';

/**
 * The latest toasts, up to three at once (lib/toast.ts drops the oldest), each closing itself 3 s
 * after it appears (SPEC 2 "Top bar"; hovering holds it). One at a time made a confirmation wait
 * behind every earlier toast: a contact's delete showed its "deleted" 12 s after the click.
 *
 * A toast must never lie over the main action: the lists' Add sits at the top right and a dialog's
 * Save at the bottom right, so on wider screens toasts stack at the bottom left. On a phone one toast
 * at a time, the newest, spans the width; there it sits over the app bar, above the page's header
 * and its Add button, and far from a dialog's actions at the bottom.
 */
export function Toaster() {
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const toasts = useToasts();
  // A phone has room for one: the newest replaces the others, which would cover the page's form.
  const shown = phone ? toasts.slice(-1) : toasts;
  useEffect(() => {
    if (phone) for (const older of toasts.slice(0, -1)) toast.dismiss(older.id);
  }, [phone, toasts]);
  return (
    <Box
      sx={{
        position: 'fixed',
        zIndex: (theme) => theme.zIndex.snackbar,
        pointerEvents: 'none',
        ...(phone ? { top: 8, left: 8, right: 8 } : { bottom: 24, left: 24, maxWidth: 'min(560px, calc(100vw - 48px))' }),
      }}
    >
      <Stack spacing={1} direction={phone ? 'column' : 'column-reverse'}>
        {shown.map((item) => (
          <TimedToast key={item.id} item={item} />
        ))}
      </Stack>
    </Box>
  );
}

function TimedToast({ item }: { item: Toast }) {
  const [held, setHeld] = useState(false);
  useEffect(() => {
    if (held) return undefined;
    const timer = setTimeout(() => toast.dismiss(item.id), TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [held, item.id]);
  return (
    <Grow in appear>
      <Alert
        severity={item.severity}
        variant="filled"
        role={item.severity === 'error' ? 'alert' : 'status'}
        onClose={() => toast.dismiss(item.id)}
        onMouseEnter={() => setHeld(true)}
        onMouseLeave={() => setHeld(false)}
        data-testid="toast"
        sx={{ pointerEvents: 'auto', boxShadow: 6 }}
      >
        {item.message}
      </Alert>
    </Grow>
  );
}
