import VolumeOff from '@mui/icons-material/VolumeOff';
import VolumeUp from '@mui/icons-material/VolumeUp';
import { Box, IconButton, Popover, Slider, Tooltip } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { readVolume, storageKeys, writeStorage } from '../../lib/storage.ts';

/** SPEC 2: notification volume 0 to 1, step 0.1, stored as `volume` for the sound players to read. */
export function VolumeControl() {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [volume, setVolume] = useState(readVolume);
  return (
    <>
      <Tooltip title={t('layout.volume')}>
        <IconButton color="inherit" onClick={(e) => setAnchor(e.currentTarget)} aria-label={t('layout.volume')}>
          {volume === 0 ? <VolumeOff /> : <VolumeUp />}
        </IconButton>
      </Tooltip>
      <Popover
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      >
        <Box sx={{ width: 200, px: 3, py: 1.5 }}>
          <Slider
            value={volume}
            min={0}
            max={1}
            step={0.1}
            aria-label={t('layout.volume')}
            valueLabelDisplay="auto"
            onChange={(_, value) => {
              const next = Array.isArray(value) ? (value[0] ?? 0) : value;
              setVolume(next);
              writeStorage(storageKeys.volume, String(next));
            }}
          />
        </Box>
      </Popover>
    </>
  );
}
