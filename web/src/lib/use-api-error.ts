import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from './errors.ts';
import { toast } from './toast.ts';

/** Turns any failure into the SPEC 8 message in the current language. */
export function useApiErrorMessage(): (error: unknown) => string {
  const { t, i18n } = useTranslation();
  return useCallback((error: unknown) => errorMessage(error, t, (key) => i18n.exists(key), i18n.resolvedLanguage), [t, i18n]);
}

/** Same, shown as an error toast. */
export function useErrorToast(): (error: unknown) => void {
  const message = useApiErrorMessage();
  return useCallback((error: unknown) => toast.error(message(error)), [message]);
}
