/**
 * The bundled emoji font (issue 14) takes only emoji: its unicode-ranges leave digits, #, *, © and ®
 * (Latin-1) and ™ to the text font, though Noto Color Emoji has glyphs for them.
 */
import { describe, expect, it } from 'vitest';
import { emojiFontFaces, emojiOnlyRange } from '../src/theme/emoji-font.ts';

const covers = (range: string, codePoint: number) =>
  range.split(',').some((part) => {
    const [from = '', to = from] = part.replace(/^U\+/i, '').split('-');
    return codePoint >= Number.parseInt(from, 16) && codePoint <= Number.parseInt(to, 16);
  });

describe('emoji font ranges', () => {
  it('drops Latin-1 and ™ and keeps the emoji, splitting a span around ™', () => {
    expect(emojiOnlyRange('U+23,U+2a,U+30-39,U+a9,U+ae,U+200d,U+2122,U+2194-2199,U+1f600-1f64f')).toBe('U+200d,U+2194-2199,U+1f600-1f64f');
    expect(emojiOnlyRange('U+f0-105,U+2100-2130')).toBe('U+100-105,U+2100-2121,U+2123-2130');
    expect(emojiOnlyRange('U+30-39')).toBe('');
  });

  it('declares eleven subsets whose ranges hold 😀 and ❤ but no digit, #, *, ©, ® or ™', () => {
    const rules = emojiFontFaces.split('\n').filter(Boolean);
    expect(rules).toHaveLength(11);
    const ranges = rules.map((rule) => /unicode-range:([^;]+);/.exec(rule)?.[1] ?? '');
    const anyCovers = (char: string) => ranges.some((range) => covers(range, char.codePointAt(0) ?? 0));
    expect(anyCovers('😀')).toBe(true);
    expect(anyCovers('❤')).toBe(true);
    for (const text of ['0', '9', '#', '*', '©', '®', '™', 'a', 'ç']) expect(anyCovers(text), text).toBe(false);
  });
});
