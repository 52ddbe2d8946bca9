import type { Components, Theme } from '@mui/material';
import { appBarColor } from '../primitives.ts';

export const surfaceCustomizations: Components<Theme> = {
  MuiAppBar: {
    defaultProps: { elevation: 0 },
    styleOverrides: {
      root: ({ theme }) => ({ backgroundColor: appBarColor(theme.palette.mode), color: '#fff', backgroundImage: 'none' }),
    },
  },
  MuiPaper: {
    styleOverrides: { root: { backgroundImage: 'none' } },
  },
  MuiCard: {
    defaultProps: { variant: 'outlined' },
  },
};
