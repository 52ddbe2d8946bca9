import type { TFunction } from 'i18next';
import { ApiError } from './api-client.ts';

/**
 * SPEC 8: a validation error shows its (spec-worded) message; a code with a translation under
 * backendErrors shows it; an unknown code is shown raw; a plain string as is; else a generic text.
 */
export function errorMessage(error: unknown, t: TFunction, exists: (key: string) => boolean): string {
  if (error instanceof ApiError) {
    const body = error.body;
    if (typeof body === 'string' && body) return body;
    if (body && typeof body === 'object') {
      // The expired-company message carries the due date, already worded by the server (SPEC 5).
      if ((body.error === 'ERR_VALIDATION' || body.error === 'ERR_COMPANY_EXPIRED') && body.message) return body.message;
      if (exists(`backendErrors.${body.error}`)) return t(`backendErrors.${body.error}`);
      return body.error;
    }
  }
  if (typeof error === 'string' && error) return error;
  return t('errors.generic');
}
