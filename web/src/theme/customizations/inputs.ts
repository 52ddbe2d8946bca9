import type { Components, Theme } from '@mui/material';

export const inputCustomizations: Components<Theme> = {
  MuiButton: {
    defaultProps: { disableElevation: true },
  },
  MuiTextField: {
    defaultProps: { size: 'small', fullWidth: true },
  },
  MuiFormControl: {
    defaultProps: { size: 'small' },
  },
};
