import type { Help } from '@conversa/functions/contracts/helps';
import Close from '@mui/icons-material/Close';
import { Box, Dialog, DialogContent, DialogTitle, IconButton, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { EMBED_ALLOW, EMBED_SANDBOX, type VideoEmbed } from '../lib/video-embed.ts';

/**
 * SPEC 2 "Modals": the video modal, closed by Escape (the dialog's own handling), the close button or
 * a click outside. The iframe loads only the embed URL built from a known provider's id, sandboxed.
 */
export function VideoModal({ help, embed, onClose }: { help: Help; embed: VideoEmbed | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" data-testid="video-modal" aria-labelledby="video-modal-title">
      <DialogTitle id="video-modal-title" sx={{ display: 'flex', alignItems: 'center', gap: 1, pr: 1 }}>
        <Box component="span" sx={{ flexGrow: 1, overflowWrap: 'anywhere' }}>
          {help.title}
        </Box>
        <IconButton onClick={onClose} aria-label={t('helpsPage.close')}>
          <Close />
        </IconButton>
      </DialogTitle>
      <DialogContent>
        {embed ? (
          <Box
            sx={{
              position: 'relative',
              width: '100%',
              aspectRatio: '16 / 9',
              bgcolor: 'common.black',
              borderRadius: 1,
              overflow: 'hidden',
            }}
          >
            <Box
              component="iframe"
              title={help.title}
              src={embed.embedUrl}
              sandbox={EMBED_SANDBOX}
              allow={EMBED_ALLOW}
              allowFullScreen
              referrerPolicy="strict-origin-when-cross-origin"
              loading="lazy"
              data-testid="video-frame"
              sx={{ position: 'absolute', inset: 0, width: '100%', height: '100%', border: 0 }}
            />
          </Box>
        ) : (
          <Typography color="text.secondary" data-testid="video-unavailable">
            {t('helpsPage.unavailable')}
          </Typography>
        )}
        {help.description && <Typography sx={{ mt: 2, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{help.description}</Typography>}
      </DialogContent>
    </Dialog>
  );
}
