/** What a ticket row shows as its last message (contracts/message-preview.ts). */
import { describe, expect, it } from 'vitest';
import { capPreview, messagePreview, PREVIEW_MAX } from '../src/contracts/message-preview.ts';

describe('messagePreview', () => {
  it('shows the text, or the caption of a media message', () => {
    expect(messagePreview({ body: 'Olá', mediaType: null })).toBe('Olá');
    expect(messagePreview({ body: 'Veja a foto', mediaType: 'image', mediaName: 'a.jpg' })).toBe('Veja a foto');
  });

  it('marks media without a caption by kind, with the file name when there is one', () => {
    expect(messagePreview({ body: '', mediaType: 'audio', mediaName: null })).toBe('🎤');
    expect(messagePreview({ body: '  ', mediaType: 'application', mediaName: 'tabela.pdf' })).toBe('📄 tabela.pdf');
  });

  it("shows a location's description, not its pipe-separated body", () => {
    expect(messagePreview({ body: 'https://img|https://maps/x|Av. Paulista, 1000', mediaType: 'locationMessage' })).toBe(
      '📍 Av. Paulista, 1000',
    );
    expect(messagePreview({ body: 'https://img|https://maps/x', mediaType: 'locationMessage' })).toBe('📍');
  });

  it('keeps at most PREVIEW_MAX characters, the last an ellipsis, and never cuts a character in two', () => {
    const long = `${'a'.repeat(PREVIEW_MAX - 2)}👩‍👩‍👧 e mais texto`;
    expect(messagePreview({ body: 'x'.repeat(PREVIEW_MAX), mediaType: null })).toBe('x'.repeat(PREVIEW_MAX));
    expect(capPreview(long)).toBe(`${'a'.repeat(PREVIEW_MAX - 2)}👩‍👩‍👧…`);
    const file = messagePreview({ body: '', mediaType: 'application', mediaName: `${'n'.repeat(300)}.pdf` });
    expect(Array.from(new Intl.Segmenter().segment(file))).toHaveLength(PREVIEW_MAX);
  });
});
