import type { Help } from '@conversa/functions/contracts/helps';
import PlayCircleOutline from '@mui/icons-material/PlayCircleOutlined';
import VideoLibraryOutlined from '@mui/icons-material/VideoLibraryOutlined';
import { Alert, Box, Card, CardActionArea, CardContent, CardMedia, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/empty-state.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { useHelps } from '../api/helps.ts';
import { type VideoEmbed, videoEmbed } from '../lib/video-embed.ts';
import { VideoModal } from './video-modal.tsx';

/** A still when the provider gives one by URL; a placeholder otherwise, or when it fails to load (offline). */
function Thumbnail({ embed, title }: { embed: VideoEmbed | null; title: string }) {
  const [failed, setFailed] = useState(false);
  if (embed?.thumbnailUrl && !failed) {
    return (
      <CardMedia
        component="img"
        image={embed.thumbnailUrl}
        alt={title}
        referrerPolicy="no-referrer"
        onError={() => setFailed(true)}
        sx={{ aspectRatio: '16 / 9', objectFit: 'cover' }}
        data-testid="help-thumbnail"
      />
    );
  }
  return (
    <Box
      data-testid="help-placeholder"
      sx={{
        aspectRatio: '16 / 9',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        bgcolor: 'action.hover',
        color: 'text.secondary',
      }}
    >
      {embed ? <PlayCircleOutline sx={{ fontSize: 56 }} /> : <VideoLibraryOutlined sx={{ fontSize: 56 }} />}
    </Box>
  );
}

/** SPEC 2 "Help videos": a card grid with thumbnails; a card opens the video modal. */
export function HelpsPage() {
  const { t } = useTranslation();
  const helps = useHelps();
  const [open, setOpen] = useState<Help | undefined>(undefined);
  const records = helps.data ?? [];
  return (
    <>
      <PageHeader title={t('helpsPage.title')} />
      {helps.isPending && (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
          <Spinner />
        </Box>
      )}
      {helps.error && <Alert severity="error">{t('helpsPage.loadError')}</Alert>}
      {!helps.isPending && !helps.error && records.length === 0 && (
        <EmptyState icon={<VideoLibraryOutlined fontSize="large" />} title={t('helpsPage.emptyTitle')} description={t('helpsPage.empty')} />
      )}
      <Box
        data-testid="helps-grid"
        sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 260px), 1fr))' }}
      >
        {records.map((help) => {
          const embed = videoEmbed(help.video);
          return (
            <Card key={help.id} variant="outlined" data-testid="help-card">
              <CardActionArea
                onClick={() => setOpen(help)}
                sx={{ height: '100%', display: 'flex', flexDirection: 'column', alignItems: 'stretch' }}
              >
                <Thumbnail embed={embed} title={help.title} />
                <CardContent sx={{ flexGrow: 1 }}>
                  <Typography variant="subtitle1" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                    {help.title}
                  </Typography>
                  {help.description && (
                    <Typography
                      variant="body2"
                      color="text.secondary"
                      sx={{ display: '-webkit-box', WebkitLineClamp: 3, WebkitBoxOrient: 'vertical', overflow: 'hidden' }}
                    >
                      {help.description}
                    </Typography>
                  )}
                </CardContent>
              </CardActionArea>
            </Card>
          );
        })}
      </Box>
      {open && <VideoModal help={open} embed={videoEmbed(open.video)} onClose={() => setOpen(undefined)} />}
    </>
  );
}
