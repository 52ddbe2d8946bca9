import { useState } from 'react';
import { toast } from '../lib/toast.ts';
import { useErrorToast } from '../lib/use-api-error.ts';

/**
 * The list pages' delete flow: pick a row, confirm in a dialog, run the deletion, toast the outcome.
 * A failure toasts the API's message, or `failureMessage` where the page gives one.
 * Spread `dialog` into a ConfirmDialog.
 */
export function useConfirmedDelete<T>(remove: (item: T) => Promise<unknown>, successMessage: string, failureMessage?: string) {
  const [target, setTarget] = useState<T | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const showError = useErrorToast();

  const confirm = async () => {
    if (target === undefined) return;
    setBusy(true);
    try {
      await remove(target);
      toast.success(successMessage);
    } catch (error) {
      if (failureMessage === undefined) showError(error);
      else toast.error(failureMessage);
    } finally {
      setBusy(false);
      setTarget(undefined);
    }
  };

  return {
    target,
    ask: (item: T) => setTarget(item),
    dialog: { open: target !== undefined, busy, onConfirm: confirm, onClose: () => setTarget(undefined) },
  };
}
