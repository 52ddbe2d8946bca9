import Close from '@mui/icons-material/Close';
import { Box, Chip, IconButton, Stack, Tooltip } from '@mui/material';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Same key as the list's: a file picked twice is shown twice, each removable on its own. */
const fileKey = (file: File, index: number) => `${file.name}-${file.size}-${file.lastModified}-${index}`;

/** An object URL for an image file, revoked when the file leaves the composer (no leaked blobs). */
function useObjectUrl(file: File): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    const made = URL.createObjectURL(file);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [file]);
  return url;
}

function ImageThumbnail({ file, onRemove }: { file: File; onRemove?: () => void }) {
  const { t } = useTranslation();
  const url = useObjectUrl(file);
  return (
    <Tooltip title={file.name}>
      <Box
        data-testid="attachment-thumbnail"
        sx={{
          position: 'relative',
          width: 72,
          height: 72,
          borderRadius: 1,
          overflow: 'hidden',
          border: 1,
          borderColor: 'divider',
          flexShrink: 0,
        }}
      >
        {url && (
          <Box component="img" src={url} alt={file.name} sx={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block' }} />
        )}
        {onRemove && (
          <IconButton
            size="small"
            aria-label={t('conversation.input.removeFile')}
            onClick={onRemove}
            sx={{
              position: 'absolute',
              top: 2,
              right: 2,
              p: 0.25,
              bgcolor: 'rgba(0, 0, 0, 0.55)',
              color: '#fff',
              '&:hover': { bgcolor: 'rgba(0, 0, 0, 0.75)' },
            }}
          >
            <Close sx={{ fontSize: 16 }} />
          </IconButton>
        )}
      </Box>
    </Tooltip>
  );
}

/**
 * The files waiting in the composer (issue 14): images as thumbnails, so the attendant sees what
 * the contact will get before sending; other files as their name. `onRemove` is absent while sending.
 */
export function AttachmentPreview({ files, onRemove }: { files: File[]; onRemove?: (index: number) => void }) {
  const { t } = useTranslation();
  return (
    <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, mb: 1, alignItems: 'center' }} data-testid="attachment-preview">
      {files.map((file, index) =>
        file.type.startsWith('image/') ? (
          <ImageThumbnail key={fileKey(file, index)} file={file} onRemove={onRemove && (() => onRemove(index))} />
        ) : (
          <Chip
            key={fileKey(file, index)}
            label={file.name}
            sx={{ maxWidth: '100%' }}
            onDelete={onRemove && (() => onRemove(index))}
            deleteIcon={<Close aria-label={t('conversation.input.removeFile')} />}
          />
        ),
      )}
    </Stack>
  );
}
