import { REPORT_MAX_SECONDS, REPORT_MIN_SECONDS } from '@conversa/functions/contracts/reports';
import type { TFunction } from 'i18next';

/**
 * A duration in seconds as people read it: 12 min, 1 h 05 min, 2 d 3 h; null is a dash. The reports'
 * histogram knows no more than "under 30 s" and "2 days or more" at its ends: the text says just that.
 */
export function formatDuration(seconds: number | null, t: TFunction): string {
  if (seconds === null) return t('reports.none');
  if (seconds < REPORT_MIN_SECONDS) return t('reports.underMin');
  if (seconds >= REPORT_MAX_SECONDS) return t('reports.overMax');
  if (seconds < 60) return t('reports.seconds', { value: Math.round(seconds) });
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return t('reports.minutes', { value: minutes });
  if (minutes < 24 * 60) return t('reports.hours', { h: Math.floor(minutes / 60), m: String(minutes % 60).padStart(2, '0') });
  const hours = Math.round(minutes / 60);
  return t('reports.days', { d: Math.floor(hours / 24), h: hours % 24 });
}
