/**
 * Numbers as the user's language writes them, one helper for every screen (issue 25: the dashboard
 * read "1.96 min" in pt and es, which write 1,96): Intl.NumberFormat for the i18n language, in the
 * same regions the date formats (lib/dates.ts) and amounts of money (lib/money.ts) use.
 */
import i18n from 'i18next';

const numberLocales: Record<string, string> = { pt: 'pt-BR', en: 'en-US', es: 'es' };

/** The Intl locale of a language tag ('pt', 'pt-BR', 'en-US'...); Spanish, the app's fallback, otherwise. */
export const numberLocale = (language: string | undefined = i18n.resolvedLanguage ?? i18n.language): string =>
  numberLocales[(language ?? '').slice(0, 2).toLowerCase()] ?? 'es';

const formats = new Map<string, Intl.NumberFormat>();

/** 1.96 as the language writes it: 1,96 (pt, es) or 1.96 (en); up to two decimals, no grouping surprises below 10 000. */
export function formatNumber(value: number, language?: string): string {
  const locale = numberLocale(language);
  let format = formats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
    formats.set(locale, format);
  }
  return format.format(value);
}
