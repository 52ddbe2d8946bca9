/**
 * Reports (issue 22 §4): durations arrive in seconds and read as people say them, in each language;
 * a count of ratings or measures is singular for one.
 */
import i18next, { type TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { formatDuration } from '../src/features/reports/lib/durations.ts';
import { type Language, lazyLocales } from '../src/i18n/index.ts';

async function translator(language: Language): Promise<TFunction> {
  const data = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const read = lazyLocales.read as (l: string, ns: string, cb: (error: unknown, data: unknown) => void) => void;
    read(language, 'translation', (error, loaded) => (error ? reject(error) : resolve(loaded as Record<string, unknown>)));
  });
  const instance = i18next.createInstance();
  await instance.init({ lng: language, resources: { [language]: { translation: data } }, interpolation: { escapeValue: false } });
  return instance.t;
}

describe('report durations', () => {
  it('seconds, minutes, hours and days, and a dash for none', async () => {
    const t = await translator('en');
    expect(formatDuration(null, t)).toBe('—');
    // The histogram's ends: under 30 s, 2 days or more, no finer.
    expect(formatDuration(8, t)).toBe('< 30 s');
    expect(formatDuration(29, t)).toBe('< 30 s');
    expect(formatDuration(30, t)).toBe('30 s');
    expect(formatDuration(59.4, t)).toBe('59 s');
    expect(formatDuration(172_800, t)).toBe('≥ 2 d');
    expect(formatDuration(90, t)).toBe('2 min');
    expect(formatDuration(3900, t)).toBe('1 h 05 min');
    expect(formatDuration(86_400 + 3 * 3600, t)).toBe('1 d 3 h');
  });

  it("every language has the page's words, singular for one", async () => {
    for (const [language, one, many] of [
      ['pt', '1 avaliação', '3 avaliações'],
      ['es', '1 valoración', '3 valoraciones'],
      ['en', '1 rating', '3 ratings'],
    ] as const) {
      const t = await translator(language);
      expect(t('reports.ratings', { count: 1 }), language).toBe(one);
      expect(t('reports.ratings', { count: 3 }), language).toBe(many);
      expect(t('menu.reports'), language).not.toBe('menu.reports');
      expect(t('reports.weekdays').split(','), language).toHaveLength(7);
    }
  });
});
