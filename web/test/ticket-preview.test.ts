/**
 * A ticket whose last message was deleted (issue 25 minor): the lists show the translated marker,
 * never the deleted text, in each language; a ticket with a live last message shows its text.
 */
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { type Language, lazyLocales } from '../src/i18n/index.ts';
import { lastMessagePreview } from '../src/lib/ticket-preview.ts';

function load(language: Language): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const read = lazyLocales.read as (l: string, ns: string, cb: (error: unknown, data: unknown) => void) => void;
    read(language, 'translation', (error, data) => (error ? reject(error) : resolve(data as Record<string, unknown>)));
  });
}

async function translator(language: Language) {
  const instance = i18next.createInstance();
  await instance.init({ lng: language, resources: { [language]: { translation: await load(language) } } });
  return instance.t;
}

describe('the ticket preview of a deleted last message', () => {
  it.each([
    ['pt', 'Esta mensagem foi apagada'],
    ['en', 'This message was deleted'],
    ['es', 'Este mensaje fue eliminado'],
  ] as const)('%s shows "%s"', async (language, marker) => {
    const t = await translator(language);
    expect(lastMessagePreview({ lastMessage: '', lastMessageDeleted: true }, t)).toBe(marker);
    expect(lastMessagePreview({ lastMessage: 'Olá', lastMessageDeleted: false }, t)).toBe('Olá');
  });
});

describe('the ticket preview of a formatted last message', () => {
  it("shows one plain line: a signed answer's bold name and its line break are not shown as marks", async () => {
    const t = await translator('pt');
    expect(lastMessagePreview({ lastMessage: '*Helena Duarte:*\nOlá! _Entregamos_ ~hoje~', lastMessageDeleted: false }, t)).toBe(
      'Helena Duarte: Olá! Entregamos hoje',
    );
  });
});
