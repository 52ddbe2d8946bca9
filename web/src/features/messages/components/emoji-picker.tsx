import { Box, Popover } from '@mui/material';
import { lazy, Suspense } from 'react';
import { Spinner } from '../../../components/spinner.tsx';

/**
 * The composer's emoji picker (issue 25: it searches and has categories). The picker package and
 * its emoji data are a chunk of their own, fetched the first time the picker opens, so the inbox's
 * first screen does not carry them (tests/bench/bundles.ts, web/test/first-screen-imports.test.ts).
 */
const EmojiPickerPanel = lazy(() => import('./emoji-picker-panel.tsx'));

interface EmojiPickerProps {
  anchor: HTMLElement | null;
  onClose: () => void;
  onPick: (emoji: string) => void;
}

export function EmojiPicker({ anchor, onClose, onPick }: EmojiPickerProps) {
  return (
    <Popover
      open={Boolean(anchor)}
      anchorEl={anchor}
      onClose={onClose}
      anchorOrigin={{ vertical: 'top', horizontal: 'left' }}
      transformOrigin={{ vertical: 'bottom', horizontal: 'left' }}
    >
      <Box data-testid="emoji-picker" sx={{ minWidth: 340, minHeight: 400 }}>
        <Suspense
          fallback={
            <Box sx={{ display: 'grid', placeItems: 'center', height: 400 }}>
              <Spinner />
            </Box>
          }
        >
          <EmojiPickerPanel onPick={onPick} />
        </Suspense>
      </Box>
    </Popover>
  );
}
