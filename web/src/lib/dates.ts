/**
 * Dates as the user's language writes them (issue 14: tables said dd/mm/yyyy while the date picker,
 * which follows the browser's locale, said mm/dd/yyyy). One helper for every screen: date-fns'
 * localized short date ('P') for the i18n language, so en shows 12/31/2099 and pt and es 31/12/2099,
 * as the browser's own date inputs do for those locales. Times stay HH:mm (SPEC 2), on the company's
 * clock (lib/company-time.ts).
 */
import { format, type Locale, parseISO } from 'date-fns';
import { enUS, es, ptBR } from 'date-fns/locale';
import i18n from 'i18next';
import { isCompanyToday, zoned } from './company-time.ts';

const dateLocales: Record<string, Locale> = { pt: ptBR, en: enUS, es };

/** The date-fns locale of a language tag ('pt', 'pt-BR', 'en-US'...); Spanish, the app's fallback, otherwise. */
export function dateLocale(language: string | undefined = i18n.resolvedLanguage ?? i18n.language): Locale {
  return dateLocales[(language ?? '').slice(0, 2).toLowerCase()] ?? es;
}

/**
 * What a format shows: a calendar day (`2099-12-31`) is that day; an instant (an ISO time or a Date)
 * is read on the company's clock (lib/company-time.ts, issue 25 "One time zone"), not the browser's.
 */
const DAY_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const toDate = (at: Date | string): Date => (typeof at === 'string' && DAY_ONLY.test(at) ? parseISO(at) : zoned(at));

/** HH:mm of an instant on the company's clock. */
export const formatTime = (at: Date | string): string => format(toDate(at), 'HH:mm');

/** SPEC 2's list times: HH:mm when it is the company's today, else the day (in the language's order). */
export const formatListTime = (at: Date | string, language?: string, now: Date = new Date()): string =>
  isCompanyToday(at, now) ? formatTime(at) : formatDay(at, language);

/** The day: 31/12/2099 (pt, es) or 12/31/2099 (en). A date-only string is that calendar day. */
export const formatDay = (at: Date | string, language?: string): string => format(toDate(at), 'P', { locale: dateLocale(language) });

/** The day and the time: 31/12/2099 14:05. */
export const formatDayTime = (at: Date | string, language?: string): string =>
  format(toDate(at), 'P HH:mm', { locale: dateLocale(language) });

/**
 * The day with a two-digit year and the time, where a table needs the room (SPEC 2 "Connections":
 * dd/MM/yy HH:mm in pt and es; en keeps its month-first order: 03/05/26 09:07).
 */
export function formatShortDayTime(at: Date | string, language?: string): string {
  const locale = dateLocale(language);
  const day = locale.formatLong?.date({ width: 'short' }) ?? 'dd/MM/yyyy';
  return format(toDate(at), `${day.replace(/y+/, 'yy')} HH:mm`, { locale });
}

/**
 * The day without its year, where a chart's axis needs the room: 31/12 in pt and es, 12/31 in en
 * (issue 25: the dashboard's days read the API's 12-31 whatever the language).
 */
export function formatDayMonth(at: Date | string, language?: string): string {
  const locale = dateLocale(language);
  const day = locale.formatLong?.date({ width: 'short' }) ?? 'dd/MM/yyyy';
  return format(toDate(at), day.replace(/^[^dM]*y+[^dM]*|[^dM]*y+[^dM]*$/, ''), { locale });
}
