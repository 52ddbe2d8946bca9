import type { Announcement } from '@conversa/functions/contracts/announcements';
import { Box, Button, Chip, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { formatDayTime } from '../../../lib/dates.ts';
import { useAnnouncementImage } from '../api/announcements.ts';
import { priorityColor, priorityKey } from './priority.ts';

/** SPEC 2 "Modals": the announcement viewer, its image above its text. */
export function AnnouncementViewer({ announcement, onClose }: { announcement: Announcement; onClose: () => void }) {
  const { t } = useTranslation();
  const image = useAnnouncementImage(announcement.mediaPath);
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" data-testid="announcement-viewer">
      <DialogTitle sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Box component="span" sx={{ flexGrow: 1, overflowWrap: 'anywhere' }}>
          {announcement.title}
        </Box>
        <Chip
          size="small"
          label={t(priorityKey(announcement.priority))}
          sx={(theme) => ({ bgcolor: priorityColor(theme, announcement.priority), color: theme.palette.common.white })}
        />
      </DialogTitle>
      <DialogContent dividers>
        {announcement.mediaPath && (
          <Box
            sx={{
              mb: 2,
              display: 'flex',
              justifyContent: 'center',
              minHeight: image ? undefined : 120,
              bgcolor: 'action.hover',
              borderRadius: 1,
            }}
          >
            {image && (
              <Box
                component="img"
                src={image}
                alt={announcement.mediaName}
                data-testid="announcement-image"
                sx={{ maxWidth: '100%', maxHeight: 360, objectFit: 'contain', borderRadius: 1 }}
              />
            )}
          </Box>
        )}
        <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="announcement-text">
          {announcement.text}
        </Typography>
        <Typography variant="caption" sx={{ display: 'block', mt: 2, color: 'text.secondary' }}>
          {formatDayTime(announcement.createdAt)}
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('announcements.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
