import type { Components, Theme } from '@mui/material';

export const navigationCustomizations: Components<Theme> = {
  MuiListItemButton: {
    styleOverrides: {
      root: ({ theme }) => {
        // The brand teal is too dark to read on the dark drawer (its light tone is not), and on the light
        // drawer's selected grey it falls under WCAG AA's 4.5:1 (its dark tone does not).
        const accent = theme.palette.mode === 'dark' ? theme.palette.primary.light : theme.palette.primary.dark;
        return {
          borderRadius: theme.shape.borderRadius,
          margin: theme.spacing(0.25, 1),
          '&.Mui-selected': {
            backgroundColor: theme.palette.action.selected,
            color: accent,
            '& .MuiListItemIcon-root': { color: accent },
          },
        };
      },
    },
  },
  MuiListItemIcon: {
    styleOverrides: { root: { minWidth: 40 } },
  },
  MuiTab: {
    styleOverrides: { root: { minHeight: 48 } },
  },
};
