import type { TFunction } from 'i18next';

/** A duration in seconds as people read it: 45 s, 12 min, 1 h 05 min, 2 d 3 h; null is a dash. */
export function formatDuration(seconds: number | null, t: TFunction): string {
  if (seconds === null) return t('reports.none');
  if (seconds < 60) return t('reports.seconds', { value: Math.round(seconds) });
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return t('reports.minutes', { value: minutes });
  if (minutes < 24 * 60) return t('reports.hours', { h: Math.floor(minutes / 60), m: String(minutes % 60).padStart(2, '0') });
  const hours = Math.round(minutes / 60);
  return t('reports.days', { d: Math.floor(hours / 24), h: hours % 24 });
}
