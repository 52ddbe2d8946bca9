import type { Components, Theme } from '@mui/material';

export const feedbackCustomizations: Components<Theme> = {
  MuiDialog: {
    defaultProps: { fullWidth: true, maxWidth: 'sm' },
    styleOverrides: {
      paper: ({ theme }) => ({
        // On a phone the default 32 px margins leave labels too little room: 12 px, as native sheets do.
        [theme.breakpoints.down('sm')]: { margin: theme.spacing(1.5), maxHeight: `calc(100% - ${theme.spacing(3)})` },
        // A form around title, content and actions passes the paper's flex column on; otherwise
        // scroll="paper" scrolls the whole dialog and Save leaves the screen.
        '& > form': { display: 'flex', flexDirection: 'column', minHeight: 0, flex: '1 1 auto' },
      }),
      paperFullWidth: ({ theme }) => ({ [theme.breakpoints.down('sm')]: { width: `calc(100% - ${theme.spacing(3)})` } }),
    },
  },
  MuiAlert: {
    styleOverrides: { root: { alignItems: 'center' } },
  },
};
