import { Box, ButtonBase, Popover } from '@mui/material';

/** The emojis attendants use most; a small grid instead of a picker package (no dependency). */
const EMOJIS = [
  '😀',
  '😁',
  '😂',
  '🤣',
  '😊',
  '😇',
  '🙂',
  '😉',
  '😍',
  '😘',
  '😎',
  '🤩',
  '🤔',
  '🤗',
  '🙄',
  '😴',
  '😅',
  '😢',
  '😭',
  '😡',
  '😱',
  '🥳',
  '😬',
  '🤝',
  '👍',
  '👎',
  '👏',
  '🙏',
  '💪',
  '👋',
  '👌',
  '✌️',
  '❤️',
  '💙',
  '💚',
  '💛',
  '🔥',
  '⭐',
  '✨',
  '🎉',
  '✅',
  '❌',
  '⚠️',
  '❓',
  '❗',
  '📞',
  '📅',
  '⏰',
  '📦',
  '🚚',
  '💰',
  '💳',
  '🧾',
  '📎',
  '📷',
  '🎁',
  '🏠',
  '🛒',
  '🍕',
  '☕',
  '🌞',
  '🌙',
  '😃',
  '🙌',
];

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
      <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(8, 36px)', p: 1 }} data-testid="emoji-picker">
        {EMOJIS.map((emoji) => (
          <ButtonBase
            key={emoji}
            onClick={() => onPick(emoji)}
            sx={{ fontSize: 22, fontFamily: 'inherit', width: 36, height: 36, borderRadius: 1 }}
          >
            {emoji}
          </ButtonBase>
        ))}
      </Box>
    </Popover>
  );
}
