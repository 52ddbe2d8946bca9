import type { Message } from '@conversa/functions/contracts/messages';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import InsertDriveFileOutlined from '@mui/icons-material/InsertDriveFileOutlined';
import PersonOutlined from '@mui/icons-material/PersonOutlined';
import PhoneMissedOutlined from '@mui/icons-material/PhoneMissedOutlined';
import PlaceOutlined from '@mui/icons-material/PlaceOutlined';
import { Box, Button, Dialog, Link, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/spinner.tsx';
import { formatTime } from '../../../lib/dates.ts';
import { useErrorToast } from '../../../lib/use-api-error.ts';
import { downloadMedia, useMediaObjectUrl } from '../api/media.ts';
import { safeHref } from './message-body.tsx';

/** SPEC 2: images show at 250 by 200. */
const IMAGE = { width: 250, height: 200 };

const mediaSource = (message: Message) => message.mediaUrl ?? (message.mediaPath ? `/public/${message.mediaPath}` : null);

function Placeholder({ width, height }: { width: number; height: number }) {
  return (
    <Box sx={{ width, height, display: 'grid', placeItems: 'center', bgcolor: 'action.hover', borderRadius: 1 }}>
      <Spinner size={24} />
    </Box>
  );
}

function ImageMedia({ url, sticker }: { url: string; sticker?: boolean }) {
  const { src } = useMediaObjectUrl(url);
  const [zoom, setZoom] = useState(false);
  const size = sticker ? { width: 150, height: 150 } : IMAGE;
  if (!src) return <Placeholder {...size} />;
  return (
    <>
      <Box
        component="img"
        src={src}
        alt=""
        onClick={() => !sticker && setZoom(true)}
        sx={{
          ...size,
          objectFit: sticker ? 'contain' : 'cover',
          borderRadius: 1,
          cursor: sticker ? 'default' : 'zoom-in',
          display: 'block',
        }}
      />
      <Dialog open={zoom} onClose={() => setZoom(false)} maxWidth="lg">
        <Box
          component="img"
          src={src}
          alt=""
          sx={{ maxWidth: '90vw', maxHeight: '85vh', display: 'block' }}
          onClick={() => setZoom(false)}
        />
      </Dialog>
    </>
  );
}

function AudioMedia({ url }: { url: string }) {
  const { src } = useMediaObjectUrl(url);
  if (!src) return <Placeholder width={250} height={40} />;
  // biome-ignore lint/a11y/useMediaCaption: voice notes from WhatsApp have no captions
  return <audio controls src={src} style={{ width: 250, display: 'block' }} />;
}

function VideoMedia({ url }: { url: string }) {
  const { src } = useMediaObjectUrl(url);
  if (!src) return <Placeholder {...IMAGE} />;
  // biome-ignore lint/a11y/useMediaCaption: videos from WhatsApp have no captions
  return <video controls src={src} style={{ width: IMAGE.width, maxHeight: 300, display: 'block', borderRadius: 8 }} />;
}

function FileMedia({ url, name }: { url: string; name: string }) {
  const { t } = useTranslation();
  const showError = useErrorToast();
  const [busy, setBusy] = useState(false);
  const save = () => {
    setBusy(true);
    downloadMedia(url, name)
      .catch(showError)
      .finally(() => setBusy(false));
  };
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', p: 1, bgcolor: 'action.hover', borderRadius: 1, maxWidth: 320 }}>
      <InsertDriveFileOutlined color="action" />
      <Typography variant="body2" noWrap sx={{ flex: 1, minWidth: 0 }} title={name}>
        {name}
      </Typography>
      <Button size="small" startIcon={<DownloadOutlined />} onClick={save} loading={busy}>
        {t('conversation.messages.download')}
      </Button>
    </Stack>
  );
}

/** SPEC 2: a location body is a pipe-separated list of image, link and optional description. */
export function LocationCard({ body }: { body: string }) {
  const { t } = useTranslation();
  const [image, link, ...rest] = body.split('|');
  const href = link ? safeHref(link.trim()) : undefined;
  const description = rest.join('|').trim();
  const imageSrc = image?.trim();
  return (
    <Stack spacing={1} sx={{ width: IMAGE.width }}>
      {imageSrc && /^(data:image\/|https?:)/.test(imageSrc) ? (
        <Box component="img" src={imageSrc} alt="" sx={{ width: IMAGE.width, height: 150, objectFit: 'cover', borderRadius: 1 }} />
      ) : (
        <Box sx={{ height: 80, display: 'grid', placeItems: 'center', bgcolor: 'action.hover', borderRadius: 1 }}>
          <PlaceOutlined color="action" />
        </Box>
      )}
      {description && <Typography variant="body2">{description}</Typography>}
      {href && (
        <Button size="small" variant="outlined" href={href} target="_blank" rel="noopener noreferrer" startIcon={<PlaceOutlined />}>
          {t('conversation.messages.viewLocation')}
        </Button>
      )}
    </Stack>
  );
}

function VcardCard({ body }: { body: string }) {
  const { t } = useTranslation();
  const name = /^FN:(.*)$/m.exec(body)?.[1]?.trim() || t('conversation.messages.contactCard');
  const number = /waid=(\d+)/.exec(body)?.[1] ?? /^TEL[^:]*:(.*)$/m.exec(body)?.[1]?.trim();
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', p: 1, bgcolor: 'action.hover', borderRadius: 1, minWidth: 200 }}>
      <PersonOutlined color="action" />
      <Box>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {name}
        </Typography>
        {number && (
          <Link variant="body2" href={`tel:+${number.replace(/\D/g, '')}`}>
            {number}
          </Link>
        )}
      </Box>
    </Stack>
  );
}

export function MissedCall({ message }: { message: Message }) {
  const { t } = useTranslation();
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', color: 'error.main' }}>
      <PhoneMissedOutlined fontSize="small" />
      <Typography variant="body2">{t('conversation.messages.missedCall', { time: formatTime(message.createdAt) })}</Typography>
    </Stack>
  );
}

/** True when the body is only the file's name (or empty): it is then not repeated under the media. */
export function bodyIsCaption(message: Message): boolean {
  const body = message.body.trim();
  if (!body || !message.mediaType) return Boolean(body);
  if (['locationMessage', 'vcard', 'call_log'].includes(message.mediaType)) return false;
  return body !== message.mediaName && body !== mediaSource(message)?.split('/').pop();
}

export function MessageMedia({ message }: { message: Message }) {
  const url = mediaSource(message);
  switch (message.mediaType) {
    case 'locationMessage':
      return <LocationCard body={message.body} />;
    case 'vcard':
      return <VcardCard body={message.body} />;
    case 'call_log':
      return <MissedCall message={message} />;
  }
  if (!url) return null;
  switch (message.mediaType) {
    case 'image':
      return <ImageMedia url={url} />;
    case 'stickerMessage':
      return <ImageMedia url={url} sticker />;
    case 'audio':
      return <AudioMedia url={url} />;
    case 'video':
      return <VideoMedia url={url} />;
    default:
      return <FileMedia url={url} name={message.mediaName ?? url.split('/').pop() ?? 'file'} />;
  }
}
