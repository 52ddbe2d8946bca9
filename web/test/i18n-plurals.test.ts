/**
 * Counts read as a person writes them (issue 25: the pt screens said "0 ticket"). CLDR files 0
 * under pt's singular (one = 0..1), so i18next picked `lane_one` for an empty lane; Brazilian
 * usage, and the customer, say "0 tickets". The locales as the app loads them (the lazy backend)
 * must give pt the plural for zero and keep "1 ticket"; es and en already follow their rules.
 */
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { type Language, lazyLocales } from '../src/i18n/index.ts';

function load(language: Language): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const read = lazyLocales.read as (l: string, ns: string, cb: (error: unknown, data: unknown) => void) => void;
    read(language, 'translation', (error, data) => (error ? reject(error) : resolve(data as Record<string, unknown>)));
  });
}

async function translator(language: Language) {
  const instance = i18next.createInstance();
  await instance.init({
    lng: language,
    resources: { [language]: { translation: await load(language) } },
    interpolation: { escapeValue: false },
  });
  return instance.t;
}

describe('plurals', () => {
  it('pt says 0 tickets and 1 ticket', async () => {
    const t = await translator('pt');
    expect(t('kanban.lane', { name: 'Em aberto', count: 0 })).toBe('Em aberto (0 tickets)');
    expect(t('kanban.lane', { name: 'Em aberto', count: 1 })).toBe('Em aberto (1 ticket)');
    expect(t('kanban.lane', { name: 'Em aberto', count: 2 })).toBe('Em aberto (2 tickets)');
    expect(t('dashboard.ratingValue', { value: '2,5', count: 0 })).toBe('2,5 / 3 (0 avaliações)');
  });

  it('en and es keep their rules (0 is plural, 1 singular)', async () => {
    for (const language of ['en', 'es'] as const) {
      const t = await translator(language);
      expect(t('kanban.lane', { name: 'X', count: 0 }), language).toBe('X (0 tickets)');
      expect(t('kanban.lane', { name: 'X', count: 1 }), language).toBe('X (1 ticket)');
    }
  });
});
