import type { Components, Theme } from '@mui/material';

export const navigationCustomizations: Components<Theme> = {
  MuiListItemButton: {
    styleOverrides: {
      root: ({ theme }) => ({
        borderRadius: theme.shape.borderRadius,
        margin: theme.spacing(0.25, 1),
        '&.Mui-selected': {
          backgroundColor: theme.palette.action.selected,
          color: theme.palette.primary.main,
          '& .MuiListItemIcon-root': { color: theme.palette.primary.main },
        },
      }),
    },
  },
  MuiListItemIcon: {
    styleOverrides: { root: { minWidth: 40 } },
  },
  MuiTab: {
    styleOverrides: { root: { minHeight: 48 } },
  },
};
