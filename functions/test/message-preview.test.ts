/** What a ticket row shows as its last message (contracts/message-preview.ts). */
import { describe, expect, it } from 'vitest';
import { messagePreview } from '../src/contracts/message-preview.ts';

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
});
