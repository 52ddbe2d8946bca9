import { CssBaseline, type PaletteMode, ThemeProvider, useMediaQuery } from '@mui/material';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { readStorage, storageKeys, writeStorage } from '../lib/storage.ts';
import { createAppTheme } from './index.ts';

interface ColorModeValue {
  mode: PaletteMode;
  toggle: () => void;
}

const ColorModeContext = createContext<ColorModeValue>({ mode: 'light', toggle: () => {} });

function storedMode(): PaletteMode | undefined {
  const value = readStorage(storageKeys.preferredTheme);
  return value === 'light' || value === 'dark' ? value : undefined;
}

/** SPEC 2: light or dark, stored as preferredTheme; until the user picks, follow the system. */
export function ColorModeProvider({ children }: { children: ReactNode }) {
  const prefersDark = useMediaQuery('(prefers-color-scheme: dark)', { noSsr: true });
  const [chosen, setChosen] = useState<PaletteMode | undefined>(storedMode);
  const mode: PaletteMode = chosen ?? (prefersDark ? 'dark' : 'light');

  const toggle = useCallback(() => {
    const next: PaletteMode = mode === 'dark' ? 'light' : 'dark';
    writeStorage(storageKeys.preferredTheme, next);
    setChosen(next);
  }, [mode]);

  const theme = useMemo(() => createAppTheme(mode), [mode]);
  const value = useMemo(() => ({ mode, toggle }), [mode, toggle]);

  return (
    <ColorModeContext.Provider value={value}>
      <ThemeProvider theme={theme}>
        <CssBaseline enableColorScheme />
        {children}
      </ThemeProvider>
    </ColorModeContext.Provider>
  );
}

export function useColorMode(): ColorModeValue {
  return useContext(ColorModeContext);
}
