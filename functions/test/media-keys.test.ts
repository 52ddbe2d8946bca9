/** Pure rules of media keys and multipart parsing (no network). */
import { describe, expect, it } from 'vitest';
import { cleanFileName, isTenantKey, keyFromMediaUrl, mediaOwner, mediaRoute, outboundMediaKey, safeFileName } from '#domain/media/keys';
import { FileTooLargeError, parseMultipart } from '#domain/media/multipart';
import { multipart } from './messages-harness.ts';

describe('tenant keys', () => {
  it("accepts only plain keys under the company's own prefix", () => {
    expect(isTenantKey(7, '7/whatsapp/1/ABC.jpg')).toBe(true);
    for (const key of ['77/x.jpg', '8/x.jpg', '7', '7/', '7/../8/x', '7/./x', '7//x', '7/a\\b', '7/a\u0000b', `7/${'a'.repeat(1100)}`]) {
      expect(isTenantKey(7, key), key).toBe(false);
    }
  });

  it('names the record a key belongs to, and none for any other shape', () => {
    const upload = '0b6f1c1e-8d8b-4a37-9a3c-2f1d5e6a7b8c';
    expect(mediaOwner(7, `7/tickets/12/${upload}/a.png`)).toEqual({ kind: 'ticket', ticketId: 12 });
    expect(mediaOwner(7, '7/whatsapp/3/3EB0C767D26A.jpg')).toEqual({ kind: 'inbound', connectionId: 3, waMessageId: '3EB0C767D26A' });
    expect(mediaOwner(7, `7/quick-messages/4/${upload}/a.pdf`)).toEqual({ kind: 'quick-message', id: 4 });
    expect(mediaOwner(7, `7/schedules/5/${upload}/a.pdf`)).toEqual({ kind: 'schedule', id: 5 });
    for (const key of [
      `8/tickets/12/${upload}/a.png`,
      `7/tickets/012/${upload}/a.png`,
      '7/tickets/12/not-an-upload/a.png',
      `7/tickets/12/${upload}/a/b.png`,
      '7/tickets/12',
      '7/whatsapp/3/a/b.jpg',
      '7/whatsapp/x/ABC.jpg',
      `7/contacts/1/${upload}/a.png`,
      '7/a.png',
    ]) {
      expect(mediaOwner(7, key), key).toBeUndefined();
    }
  });

  it('names uploads for download: spaces to underscores, no separators, extension kept when cut', () => {
    expect(safeFileName('my holiday  photo.png')).toBe('my_holiday_photo.png');
    expect(safeFileName('../../etc/passwd')).toBe('etcpasswd');
    expect(safeFileName('')).toBe('file');
    expect(safeFileName(`${'x'.repeat(300)}.pdf`)).toMatch(/^x{116}\.pdf$/);
    expect(outboundMediaKey(3, 9, 'a b.ogg')).toMatch(/^3\/tickets\/9\/[0-9a-f-]{36}\/a_b\.ogg$/);
  });

  it('drops the bidirectional controls that make a name read as another ("\u202Egnp.exe" shows as "exe.png")', () => {
    expect(safeFileName('\u202Egnp.exe')).toBe('gnp.exe');
    const every = '\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069\u200E\u200F\u061C';
    expect(safeFileName(`fatura${every}.pdf`)).toBe('fatura.pdf');
    // A contact's document keeps its spaces, not its tricks.
    expect(cleanFileName('Nota fiscal \u202Efdp.exe')).toBe('Nota fiscal fdp.exe');
    expect(cleanFileName('relatório\u0085\u0007.pdf')).toBe('relatório.pdf');
  });

  it('maps keys to the media route and back', () => {
    const key = '3/tickets/9/id/ação ü.png';
    expect(mediaRoute(key)).toBe('/public/3/tickets/9/id/a%C3%A7%C3%A3o%20%C3%BC.png');
    expect(keyFromMediaUrl(mediaRoute(key))).toBe(key);
    expect(keyFromMediaUrl(`https://api.example.com${mediaRoute(key)}`)).toBe(key);
    expect(keyFromMediaUrl('3/quick/x.png')).toBe('3/quick/x.png');
    expect(keyFromMediaUrl('/public/%E0%A4%A')).toBe('');
  });
});

describe('multipart', () => {
  it('reads repeated fields and files', async () => {
    const form = multipart([
      { name: 'body', value: 'one' },
      { name: 'body', value: 'two' },
      { name: 'medias', value: Buffer.from([0, 1, 2]), filename: 'a b.bin', contentType: 'application/x-test' },
    ]);
    const parsed = await parseMultipart(form.body, form.contentType);
    expect(parsed.fields.body).toEqual(['one', 'two']);
    expect(parsed.files).toEqual([{ field: 'medias', filename: 'a b.bin', mimetype: 'application/x-test', data: Buffer.from([0, 1, 2]) }]);
  });

  it('refuses a file over the per-file limit with 413, whatever the body limit', async () => {
    const form = multipart([{ name: 'medias', value: Buffer.alloc(11), filename: 'big.bin' }]);
    const error = await parseMultipart(form.body, form.contentType, 10).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FileTooLargeError);
    expect(error).toMatchObject({ status: 413, code: 'ERR_PAYLOAD_TOO_LARGE' });
    await expect(parseMultipart(form.body, form.contentType, 11)).resolves.toMatchObject({ files: [{ filename: 'big.bin' }] });
  });

  it('refuses more than 10 files', async () => {
    const parts = Array.from({ length: 11 }, (_, i) => ({ name: 'medias', value: 'x', filename: `${i}.txt` }));
    const form = multipart(parts);
    await expect(parseMultipart(form.body, form.contentType)).rejects.toMatchObject({ status: 400, extra: { field: 'medias' } });
  });
});

describe('presented messages', () => {
  it('route media keys once, keep real URLs, and drop the send hints', async () => {
    const { presentMessage } = await import('#domain/outbound/present');
    const record = {
      mediaPath: '3/whatsapp/1/A.jpg',
      mediaUrl: '3/whatsapp/1/A.jpg',
      mimetype: 'image/jpeg',
      asVoice: true,
      quotedMsg: { id: 'q', body: '', fromMe: false, mediaType: 'image', mediaUrl: '3/whatsapp/1/Q.jpg', contact: null },
    } as never;
    const once = presentMessage(record);
    expect(once).toMatchObject({ mediaUrl: '/public/3/whatsapp/1/A.jpg', quotedMsg: { mediaUrl: '/public/3/whatsapp/1/Q.jpg' } });
    expect(once).not.toHaveProperty('mimetype');
    expect(once).not.toHaveProperty('asVoice');
    expect(presentMessage(once as never)).toEqual(once);
    expect(presentMessage({ mediaPath: null, mediaUrl: 'https://maps.example/x', quotedMsg: null } as never).mediaUrl).toBe(
      'https://maps.example/x',
    );
  });
});
