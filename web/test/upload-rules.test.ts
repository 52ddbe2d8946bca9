/**
 * Uploads (issue 21): the file pickers offer what the API takes (its own list, never a page, an SVG
 * or a program), and a refused type reads as a sentence in each language, not a raw code.
 */
import { describe, expect, it } from 'vitest';
import en from '../src/i18n/locales/en.ts';
import es from '../src/i18n/locales/es.ts';
import pt from '../src/i18n/locales/pt.ts';
import { ApiError } from '../src/lib/api-client.ts';
import { SENDABLE_ACCEPT } from '../src/lib/direct-upload.ts';
import { errorMessage } from '../src/lib/errors.ts';

describe('upload pickers', () => {
  it('accept the server’s types by extension and type, and none a browser would run', () => {
    const accepted = SENDABLE_ACCEPT.split(',');
    expect(accepted).toEqual(
      expect.arrayContaining(['.pdf', 'application/pdf', '.jpg', 'image/jpeg', '.mp3', 'audio/mpeg', '.mp4', '.docx']),
    );
    for (const refused of ['.svg', 'image/svg+xml', '.html', 'text/html', '.exe', 'application/x-msdownload', '.js', 'image/*']) {
      expect(accepted, refused).not.toContain(refused);
    }
  });

  it('explain a refused type in pt, en and es', () => {
    for (const locale of [pt, en, es]) {
      const backendErrors = locale.backendErrors as Record<string, string>;
      const text = backendErrors.ERR_FILE_TYPE_NOT_ALLOWED ?? '';
      expect(text).toMatch(/PDF/);
      const t = ((key: string) => (key === 'backendErrors.ERR_FILE_TYPE_NOT_ALLOWED' ? text : key)) as never;
      const refusal = new ApiError(400, { error: 'ERR_FILE_TYPE_NOT_ALLOWED', field: 'contentType', message: 'File type not allowed' });
      expect(errorMessage(refusal, t, (key) => key === 'backendErrors.ERR_FILE_TYPE_NOT_ALLOWED')).toBe(text);
    }
    expect(new Set([pt, en, es].map((l) => (l.backendErrors as Record<string, string>).ERR_FILE_TYPE_NOT_ALLOWED)).size).toBe(3);
  });
});
