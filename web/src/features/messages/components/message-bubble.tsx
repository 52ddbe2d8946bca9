import type { Message, QuotedMessage } from '@conversa/functions/contracts/messages';
import AccessTime from '@mui/icons-material/AccessTime';
import BlockOutlined from '@mui/icons-material/BlockOutlined';
import Done from '@mui/icons-material/Done';
import DoneAll from '@mui/icons-material/DoneAll';
import ErrorOutline from '@mui/icons-material/ErrorOutlineOutlined';
import ExpandMore from '@mui/icons-material/ExpandMore';
import LockOutlined from '@mui/icons-material/LockOutlined';
import Replay from '@mui/icons-material/Replay';
import { alpha, Box, Button, IconButton, Menu, MenuItem, Stack, type Theme, Tooltip, Typography } from '@mui/material';
import { type MouseEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../lib/dates.ts';
import { MessageBody } from './message-body.tsx';
import { bodyIsCaption, MessageMedia } from './message-media.tsx';

/** Why a send failed, in words: the server's code through backendErrors when translated, else the code. */
export function useFailureReason(): (code: string) => string {
  const { t, i18n } = useTranslation();
  return (code) => (i18n.exists(`backendErrors.${code}`) ? t(`backendErrors.${code}`) : code);
}

/**
 * SPEC 4 "Message ack": 1 one tick, 2 and 3 double ticks, 4 or 5 highlighted (read); 0 still ours
 * only. A failed send shows an error mark with its reason, never a clock.
 */
export function AckIcon({ message }: { message: Pick<Message, 'ack' | 'error' | 'pending'> }) {
  const { t } = useTranslation();
  const reason = useFailureReason();
  const sx = { fontSize: 16, verticalAlign: 'middle' };
  if (message.error)
    return (
      <Tooltip title={t('conversation.messages.failedReason', { reason: reason(message.error) })}>
        <ErrorOutline color="error" sx={sx} data-ack="error" aria-label={t('conversation.messages.failed')} />
      </Tooltip>
    );
  if (message.pending || message.ack <= 0) return <AccessTime sx={{ ...sx, color: 'text.disabled' }} data-ack="0" />;
  if (message.ack === 1) return <Done sx={{ ...sx, color: 'text.secondary' }} data-ack="1" />;
  if (message.ack === 2) return <DoneAll sx={{ ...sx, color: 'text.disabled' }} data-ack="2" />;
  if (message.ack === 3) return <DoneAll sx={{ ...sx, color: 'text.secondary' }} data-ack="3" />;
  return <DoneAll sx={{ ...sx, color: 'info.main' }} data-ack={String(message.ack)} />;
}

export function QuotedBlock({ quoted, action }: { quoted: QuotedMessage | Message; action?: ReactNode }) {
  const { t } = useTranslation();
  const author = quoted.fromMe ? t('conversation.input.you') : (quoted.contact?.name ?? '');
  const text = quoted.body || (quoted.mediaType ? `[${quoted.mediaType}]` : '');
  return (
    <Box
      sx={{
        borderLeft: 4,
        borderColor: quoted.fromMe ? 'primary.main' : 'secondary.main',
        bgcolor: 'action.hover',
        borderRadius: 1,
        px: 1,
        py: 0.5,
        mb: 0.5,
        display: 'flex',
        gap: 1,
        alignItems: 'flex-start',
      }}
    >
      <Box sx={{ minWidth: 0, flex: 1 }}>
        <Typography variant="caption" sx={{ fontWeight: 600, color: quoted.fromMe ? 'primary.main' : 'secondary.dark' }}>
          {author}
        </Typography>
        <Typography
          variant="body2"
          sx={{
            color: 'text.secondary',
            display: '-webkit-box',
            WebkitLineClamp: 3,
            WebkitBoxOrient: 'vertical',
            overflow: 'hidden',
            whiteSpace: 'pre-wrap',
          }}
        >
          <MessageBody text={text} />
        </Typography>
      </Box>
      {action}
    </Box>
  );
}

/** Our bubbles: the brand colour, light enough to read on (derived from the theme, both modes). */
const outgoingColor = (theme: Theme) =>
  theme.palette.mode === 'dark' ? alpha(theme.palette.primary.main, 0.35) : alpha(theme.palette.primary.light, 0.22);

/** Private notes (Message.isPrivate), in the thread and in the composer writing one: amber, never the brand's colour. */
export const privateNoteColor = (theme: Theme) =>
  theme.palette.mode === 'dark' ? alpha(theme.palette.warning.main, 0.28) : alpha(theme.palette.warning.light, 0.3);

/** The "Private note" mark: a lock and the words, on a note's bubble. */
function PrivateNoteLabel() {
  const { t } = useTranslation();
  return (
    <Stack
      direction="row"
      spacing={0.5}
      data-testid="private-note-label"
      sx={{ alignItems: 'center', color: 'warning.dark', mb: 0.25, pr: 2 }}
    >
      <LockOutlined sx={{ fontSize: 14 }} />
      <Typography variant="caption" sx={{ fontWeight: 700 }}>
        {t('conversation.messages.privateNote')}
      </Typography>
    </Stack>
  );
}

interface BubbleProps {
  message: Message;
  /** Group tickets show who wrote each incoming message. */
  showAuthor?: boolean;
  onReply?: (message: Message) => void;
  onDelete?: (message: Message) => void;
  /** Sends a failed message of ours again; absent where the conversation is read-only. */
  onRetry?: (message: Message) => void;
  /** A retry of this message is in flight. */
  retrying?: boolean;
}

/** One message (SPEC 2 "Conversation"): ours right, theirs left, bubble at most 600 px wide. */
export function MessageBubble({ message, showAuthor, onReply, onDelete, onRetry, retrying }: BubbleProps) {
  const { t } = useTranslation();
  const reason = useFailureReason();
  const failed = message.fromMe && Boolean(message.error) && !message.isDeleted;
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const canDelete = Boolean(onDelete) && message.fromMe && !message.isDeleted && !message.pending;
  const hasOptions = (Boolean(onReply) && !message.pending) || canDelete;
  const sticker = message.mediaType === 'stickerMessage';
  const call = message.mediaType === 'call_log';
  // Kept for the team, never sent: its own colour and mark, and no delivery ticks (it has none).
  const note = Boolean(message.isPrivate);
  const choose = (action: (m: Message) => void) => () => {
    setAnchor(null);
    action(message);
  };

  return (
    <Box
      data-testid="message"
      data-from-me={message.fromMe}
      data-private={note || undefined}
      sx={{ display: 'flex', justifyContent: call ? 'center' : message.fromMe ? 'flex-end' : 'flex-start', px: 2, py: 0.5 }}
    >
      <Box
        sx={{
          position: 'relative',
          maxWidth: 'min(600px, 85%)',
          minWidth: 90,
          px: 1.25,
          pt: 0.75,
          pb: 0.5,
          borderRadius: 2,
          boxShadow: sticker ? 0 : 1,
          bgcolor: sticker ? 'transparent' : note ? privateNoteColor : message.fromMe ? outgoingColor : 'background.paper',
          ...(note ? { border: 1, borderStyle: 'dashed', borderColor: 'warning.main' } : {}),
          opacity: message.pending ? 0.7 : 1,
          '&:hover .message-options': { opacity: 1 },
        }}
      >
        {hasOptions && (
          <IconButton
            className="message-options"
            size="small"
            aria-label={t('conversation.messages.options')}
            onClick={(event: MouseEvent<HTMLElement>) => setAnchor(event.currentTarget)}
            sx={{ position: 'absolute', top: 0, right: 0, opacity: 0, p: 0.25, '&:focus-visible': { opacity: 1 } }}
          >
            <ExpandMore fontSize="small" />
          </IconButton>
        )}
        <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
          {onReply && <MenuItem onClick={choose(onReply)}>{t('conversation.messages.reply')}</MenuItem>}
          {canDelete && onDelete && <MenuItem onClick={choose(onDelete)}>{t('conversation.messages.delete')}</MenuItem>}
        </Menu>
        {note && <PrivateNoteLabel />}
        {showAuthor && !message.fromMe && message.contact?.name && (
          <Typography variant="caption" sx={{ display: 'block', fontWeight: 600, color: 'secondary.dark' }}>
            {message.contact.name}
          </Typography>
        )}
        {message.quotedMsg && !message.isDeleted && <QuotedBlock quoted={message.quotedMsg} />}
        {message.isDeleted && (
          <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', color: 'text.secondary', fontStyle: 'italic' }}>
            <BlockOutlined sx={{ fontSize: 16 }} />
            <Typography variant="body2">{t('conversation.messages.deleted')}</Typography>
          </Stack>
        )}
        {/* A deleted message shows only its marker: none of its text, media or quote remains on screen. */}
        {message.mediaType && !message.isDeleted && <MessageMedia message={message} />}
        {!message.isDeleted && (message.mediaType ? bodyIsCaption(message) : Boolean(message.body)) && (
          <Typography
            variant="body2"
            component="div"
            sx={{
              whiteSpace: 'pre-wrap',
              overflowWrap: 'anywhere',
              pr: hasOptions ? 2 : 0,
              mt: message.mediaType ? 0.5 : 0,
            }}
          >
            <MessageBody text={message.body} mentions={message.mentions?.map((user) => user.name)} />
          </Typography>
        )}
        <Stack direction="row" spacing={0.5} sx={{ justifyContent: 'flex-end', alignItems: 'center', mt: 0.25 }}>
          {message.fromMe && message.origin ? (
            // Where it came from (campaign, schedule, API...): what the contact answers may be answering it.
            <Typography
              variant="caption"
              data-testid="message-origin"
              data-origin={message.origin}
              sx={{ color: 'text.secondary', fontWeight: 600, border: 1, borderColor: 'divider', borderRadius: 1, px: 0.5 }}
            >
              {t(`conversation.messages.origin.${message.origin}`)}
            </Typography>
          ) : (
            message.fromMe &&
            message.bot && (
              <Typography variant="caption" data-testid="bot-author" sx={{ color: 'text.secondary', fontWeight: 600 }}>
                {t('conversation.messages.bot')}
              </Typography>
            )
          )}
          {message.isEdited && (
            <Typography variant="caption" sx={{ color: 'text.secondary', fontStyle: 'italic' }}>
              {t('conversation.messages.edited')}
            </Typography>
          )}
          <Typography variant="caption" sx={{ color: 'text.secondary' }}>
            {formatTime(message.createdAt)}
          </Typography>
          {message.fromMe && !note && <AckIcon message={message} />}
        </Stack>
        {failed && (
          <Stack
            direction="row"
            spacing={1}
            data-testid="message-failed"
            sx={{ alignItems: 'center', justifyContent: 'flex-end', mt: 0.5, color: 'error.main' }}
          >
            <Typography variant="caption">{t('conversation.messages.failedReason', { reason: reason(message.error ?? '') })}</Typography>
            {onRetry && (
              <Button
                size="small"
                color="error"
                variant="outlined"
                startIcon={<Replay fontSize="small" />}
                disabled={retrying}
                onClick={() => onRetry(message)}
              >
                {t('conversation.messages.retry')}
              </Button>
            )}
          </Stack>
        )}
      </Box>
    </Box>
  );
}
