import type { Components, Theme } from '@mui/material';

export const dataDisplayCustomizations: Components<Theme> = {
  MuiTableCell: {
    styleOverrides: {
      head: ({ theme }) => ({ fontWeight: 600, color: theme.palette.text.secondary }),
    },
  },
  MuiTableRow: {
    styleOverrides: {
      root: { '&:last-child td': { borderBottom: 0 } },
    },
  },
};
