import { useTheme } from '@mui/material';
import Picker, { EmojiStyle, SkinTonePickerLocation } from 'emoji-picker-react';
import { useTranslation } from 'react-i18next';
import { EMOJI_FONT_FAMILY } from '../../../theme/emoji-font.ts';

/**
 * The emoji picker's body, loaded only when the picker first opens (emoji-picker.tsx imports it
 * lazily): emoji-picker-react with its search and categories, drawn as native text (no images from
 * a CDN) in the app's bundled color emoji font (issue 14), with the emoji names of the user's
 * language so a search for "coração" or "corazón" finds ❤️.
 */
const datasets = {
  pt: () => import('emoji-picker-react/data/emojis-pt'),
  es: () => import('emoji-picker-react/data/emojis-es'),
  en: () => import('emoji-picker-react/data/emojis-en'),
};

export default function EmojiPickerPanel({ onPick }: { onPick: (emoji: string) => void }) {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const language = (i18n.resolvedLanguage ?? i18n.language).slice(0, 2) as keyof typeof datasets;
  return (
    <Picker
      emojiData={datasets[language] ?? datasets.es}
      emojiStyle={EmojiStyle.NATIVE}
      theme={theme.palette.mode === 'dark' ? 'dark' : 'light'}
      onEmojiClick={(data) => onPick(data.emoji)}
      autoFocusSearch
      skinTonePickerLocation={SkinTonePickerLocation.SEARCH}
      previewConfig={{ showPreview: false }}
      width={340}
      height={400}
      style={{ ['--epr-emoji-font-family' as string]: `'${EMOJI_FONT_FAMILY}', 'Noto Color Emoji', 'Apple Color Emoji', 'Segoe UI Emoji'` }}
      labels={{
        searchPlaceholder: t('conversation.emoji.search'),
        searchLabel: t('conversation.emoji.search'),
        searchClear: t('conversation.emoji.clear'),
        searchResultsNone: t('conversation.emoji.none'),
        searchResultsOne: t('conversation.emoji.one'),
        searchResultsMany: t('conversation.emoji.many'),
        categoryNavigation: t('conversation.emoji.categories'),
        loading: t('conversation.emoji.loading'),
        loadingError: t('conversation.emoji.loadingError'),
        retryLoading: t('conversation.emoji.retry'),
      }}
    />
  );
}
