import type { TFunction } from 'i18next';
import { ApiError } from './api-client.ts';
import { formatDay } from './dates.ts';

/**
 * SPEC 8: a validation error shows its (spec-worded) message; a code with a translation under
 * backendErrors shows it; an unknown code is shown raw; a plain string as is; else a generic text.
 * `language` orders a date in the words (the app's current language when not given).
 */
export function errorMessage(error: unknown, t: TFunction, exists: (key: string) => boolean, language?: string): string {
  if (error instanceof ApiError) {
    const body = error.body;
    if (typeof body === 'string' && body) return body;
    if (body && typeof body === 'object') {
      // The expiry refusal (SPEC 5 "Login") in the user's language from its due date; the spec's
      // Spanish words are the es text. Without a date, the server's (Spanish) message as it came.
      const dueDate = (body as { dueDate?: unknown }).dueDate;
      if (body.error === 'ERR_COMPANY_EXPIRED' && typeof dueDate === 'string' && /^\d{4}-\d\d-\d\d/.test(dueDate))
        return t('backendErrors.ERR_COMPANY_EXPIRED', { date: formatDay(dueDate.slice(0, 10), language) });
      if ((body.error === 'ERR_VALIDATION' || body.error === 'ERR_COMPANY_EXPIRED') && body.message) return body.message;
      if (exists(`backendErrors.${body.error}`)) return t(`backendErrors.${body.error}`);
      return body.error;
    }
  }
  if (typeof error === 'string' && error) return error;
  return t('errors.generic');
}
