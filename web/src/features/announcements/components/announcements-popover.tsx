import type { Announcement } from '@conversa/functions/contracts/announcements';
import AnnouncementOutlined from '@mui/icons-material/AnnouncementOutlined';
import { Badge, Box, IconButton, List, ListItemButton, ListItemText, Popover, Tooltip, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { readStorage, storageKeys, writeStorage } from '../../../lib/storage.ts';
import { useActiveAnnouncements } from '../api/announcements.ts';
import { useAnnouncementsLive } from '../hooks/use-announcements-live.ts';
import { AnnouncementViewer } from './announcement-viewer.tsx';
import { priorityColor } from './priority.ts';

/**
 * SPEC 2 "Top bar": the announcements popover, each in its priority's colour. SPEC 4 "Badges": the dot
 * shows while there are announcements and the popover has not been opened since the newest of them
 * was created or changed; one arriving live shows it again.
 */
export function AnnouncementsPopover() {
  const { t } = useTranslation();
  const announcements = useActiveAnnouncements();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [viewing, setViewing] = useState<Announcement | undefined>(undefined);
  const [seen, setSeen] = useState(() => readStorage(storageKeys.announcementsSeen) ?? '');
  // A change arriving live refetches the list (the hook); a newer change than the one seen brings the dot back.
  useAnnouncementsLive();
  const records = announcements.data ?? [];
  // ISO timestamps sort as strings.
  const newest =
    records
      .map((record) => record.updatedAt)
      .sort()
      .at(-1) ?? '';
  const dot = records.length > 0 && newest > seen;
  const open = (target: HTMLElement) => {
    // Kept in the browser, so the dot stays hidden across reloads until something new arrives.
    if (newest) {
      writeStorage(storageKeys.announcementsSeen, newest);
      setSeen(newest);
    }
    setAnchor(target);
  };
  return (
    <>
      <Tooltip title={t('announcements.popoverTitle')}>
        <IconButton
          color="inherit"
          aria-label={t('announcements.popoverTitle')}
          data-testid="announcements-button"
          data-dot={dot}
          data-count={records.length}
          onClick={(event) => open(event.currentTarget)}
        >
          <Badge variant="dot" color="error" invisible={!dot} data-testid="announcements-dot">
            <AnnouncementOutlined />
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { width: 'min(360px, calc(100vw - 24px))', maxHeight: 440 } } }}
      >
        <Typography variant="subtitle2" sx={{ px: 2, pt: 1.5, pb: 0.5 }}>
          {t('announcements.popoverTitle')}
        </Typography>
        {records.length === 0 ? (
          <Typography variant="body2" sx={{ px: 2, pb: 2, color: 'text.secondary' }}>
            {t('announcements.empty')}
          </Typography>
        ) : (
          <List dense data-testid="announcements-list">
            {records.map((record) => (
              <ListItemButton
                key={record.id}
                data-testid="announcement-item"
                data-priority={record.priority}
                onClick={() => {
                  setAnchor(null);
                  setViewing(record);
                }}
                sx={(theme) => ({ borderLeft: `4px solid ${priorityColor(theme, record.priority)}`, mx: 1, mb: 0.5, borderRadius: 1 })}
              >
                <ListItemText
                  primary={record.title}
                  secondary={record.text}
                  slotProps={{ primary: { noWrap: true, sx: { fontWeight: 500 } }, secondary: { noWrap: true } }}
                />
                <Box
                  component="span"
                  aria-hidden
                  sx={(theme) => ({
                    ml: 1,
                    width: 10,
                    height: 10,
                    borderRadius: '50%',
                    flexShrink: 0,
                    bgcolor: priorityColor(theme, record.priority),
                  })}
                />
              </ListItemButton>
            ))}
          </List>
        )}
      </Popover>
      {viewing && <AnnouncementViewer announcement={viewing} onClose={() => setViewing(undefined)} />}
    </>
  );
}
