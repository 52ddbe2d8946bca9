import { createTheme, type PaletteMode, type Theme } from '@mui/material';
import { dataDisplayCustomizations } from './customizations/data-display.ts';
import { feedbackCustomizations } from './customizations/feedback.ts';
import { inputCustomizations } from './customizations/inputs.ts';
import { navigationCustomizations } from './customizations/navigation.ts';
import { surfaceCustomizations } from './customizations/surfaces.ts';
import { emojiFontFaces } from './emoji-font.ts';
import { breakpoints, paletteFor, shape, typography } from './primitives.ts';
import { reducedMotionRules } from './reduced-motion.ts';

export function createAppTheme(mode: PaletteMode): Theme {
  return createTheme({
    palette: paletteFor(mode),
    typography,
    shape,
    breakpoints,
    components: {
      // The bundled emoji font's @font-face rules (emoji-font.ts) and the reduced-motion rule
      // (reduced-motion.ts), beside the baseline's own.
      MuiCssBaseline: { styleOverrides: `${emojiFontFaces}\n${reducedMotionRules}` },
      ...inputCustomizations,
      ...navigationCustomizations,
      ...surfaceCustomizations,
      ...dataDisplayCustomizations,
      ...feedbackCustomizations,
    },
  });
}

export { drawerWidth } from './primitives.ts';
