import type { PaletteMode, ThemeOptions } from '@mui/material';
import { EMOJI_FONT_FAMILY } from './emoji-font.ts';

/** Brand primitives: everything else in the theme derives from these (mui shared-theme habit). */
export const brand = {
  main: '#0b7a75',
  light: '#3fa8a1',
  dark: '#075450',
  contrastText: '#ffffff',
};

export const accent = {
  main: '#f2994a',
  contrastText: '#1f1300',
};

const surfaces = {
  light: { default: '#f4f6f8', paper: '#ffffff', drawer: '#ffffff', appBar: brand.main },
  dark: { default: '#0f1416', paper: '#182024', drawer: '#141b1e', appBar: '#121a1d' },
};

export function paletteFor(mode: PaletteMode): ThemeOptions['palette'] {
  const surface = surfaces[mode];
  return {
    mode,
    primary: brand,
    secondary: accent,
    background: { default: surface.default, paper: surface.paper },
    ...(mode === 'dark' ? { text: { primary: '#e6edf0', secondary: '#9fb0b7' } } : {}),
  };
}

export function appBarColor(mode: PaletteMode): string {
  return surfaces[mode].appBar;
}

export const typography: ThemeOptions['typography'] = {
  // Emoji fonts after the text fonts and before the generic family: the system's color emoji first,
  // then the bundled one (emoji-font.ts), so a generic font's monochrome or missing glyph never wins.
  fontFamily: `"Inter", "Segoe UI", Roboto, "Helvetica Neue", Arial, "Apple Color Emoji", "Segoe UI Emoji", "${EMOJI_FONT_FAMILY}", sans-serif`,
  h5: { fontWeight: 600 },
  h6: { fontWeight: 600 },
  button: { textTransform: 'none', fontWeight: 600 },
};

export const shape: ThemeOptions['shape'] = { borderRadius: 8 };

/** SPEC 9: the drawer's breakpoints are 600 and 1200 px. */
export const breakpoints: ThemeOptions['breakpoints'] = { values: { xs: 0, sm: 600, md: 900, lg: 1200, xl: 1536 } };

export const drawerWidth = 250;
