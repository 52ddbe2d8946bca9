import type { Components, Theme } from '@mui/material';

export const feedbackCustomizations: Components<Theme> = {
  MuiDialog: {
    defaultProps: { fullWidth: true, maxWidth: 'sm' },
  },
  MuiAlert: {
    styleOverrides: { root: { alignItems: 'center' } },
  },
};
