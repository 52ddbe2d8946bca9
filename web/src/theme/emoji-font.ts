/**
 * Color emoji for every screen (issue 14): Debian's headless Chromium, and many Linux desktops, have
 * no emoji font, so the picker and the messages showed boxes. Noto Color Emoji ships with the app
 * (@fontsource/noto-color-emoji) as 11 subsets, each declared with its unicode-range: a browser
 * downloads a subset only when a character on screen needs it and no font before it in the stack
 * has the glyph, so systems with their own emoji font (Apple, Segoe) never fetch it.
 *
 * The family is ours ("Conversa Emoji"), not "Noto Color Emoji", so a local Noto install is not
 * shadowed; and its ranges leave out Latin-1 and ™: the font has glyphs for digits, # and *
 * (keycap bases), ©, ® and ™, which must keep the text font.
 */

import subset0 from '@fontsource/noto-color-emoji/files/noto-color-emoji-0-400-normal.woff?url';
import subset1 from '@fontsource/noto-color-emoji/files/noto-color-emoji-1-400-normal.woff?url';
import subset2 from '@fontsource/noto-color-emoji/files/noto-color-emoji-2-400-normal.woff?url';
import subset3 from '@fontsource/noto-color-emoji/files/noto-color-emoji-3-400-normal.woff?url';
import subset4 from '@fontsource/noto-color-emoji/files/noto-color-emoji-4-400-normal.woff?url';
import subset5 from '@fontsource/noto-color-emoji/files/noto-color-emoji-5-400-normal.woff?url';
import subset6 from '@fontsource/noto-color-emoji/files/noto-color-emoji-6-400-normal.woff?url';
import subset7 from '@fontsource/noto-color-emoji/files/noto-color-emoji-7-400-normal.woff?url';
import subset8 from '@fontsource/noto-color-emoji/files/noto-color-emoji-8-400-normal.woff?url';
import subset9 from '@fontsource/noto-color-emoji/files/noto-color-emoji-9-400-normal.woff?url';
import subset10 from '@fontsource/noto-color-emoji/files/noto-color-emoji-10-400-normal.woff?url';
import ranges from '@fontsource/noto-color-emoji/unicode.json';

export const EMOJI_FONT_FAMILY = 'Conversa Emoji';

const subsetUrls = [subset0, subset1, subset2, subset3, subset4, subset5, subset6, subset7, subset8, subset9, subset10];

/** Characters the text font must keep: Latin-1 (digits, #, *, ©, ®) and ™. */
const TEXT_SPANS: readonly [number, number][] = [
  [0x0, 0xff],
  [0x2122, 0x2122],
];

type Span = [number, number];
const minus = ([start, end]: Span, [cutStart, cutEnd]: Span): Span[] =>
  cutEnd < start || cutStart > end
    ? [[start, end]]
    : [...(start < cutStart ? [[start, cutStart - 1] as Span] : []), ...(end > cutEnd ? [[cutEnd + 1, end] as Span] : [])];
const spanText = ([start, end]: Span) => (start === end ? `U+${start.toString(16)}` : `U+${start.toString(16)}-${end.toString(16)}`);

/** A unicode-range without the text characters ("U+23,U+30-39,U+2194-2199" -> "U+2194-2199"). */
export function emojiOnlyRange(range: string): string {
  const spans = range.split(',').flatMap((part): Span[] => {
    const [from = '', to = from] = part.trim().replace(/^U\+/i, '').split('-');
    const span: Span = [Number.parseInt(from, 16), Number.parseInt(to, 16)];
    return Number.isNaN(span[0]) || Number.isNaN(span[1]) ? [] : [span];
  });
  return TEXT_SPANS.reduce((kept, cut) => kept.flatMap((span) => minus(span, cut)), spans)
    .map(spanText)
    .join(',');
}

/**
 * The @font-face rules, from the woff files: Debian's Chromium 150 loads this font's woff2 subsets
 * (COLR tables) but paints nothing with them, while the woff ones paint in color.
 */
export const emojiFontFaces = subsetUrls
  .map((url, index) => {
    const range = emojiOnlyRange((ranges as Record<string, string>)[`[${index}]`] ?? '');
    return range
      ? `@font-face{font-family:'${EMOJI_FONT_FAMILY}';font-style:normal;font-weight:400;font-display:swap;src:url(${url}) format('woff');unicode-range:${range};}`
      : '';
  })
  .join('\n');
