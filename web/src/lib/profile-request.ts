import { useEffect } from 'react';

/**
 * Any screen may ask for the signed-in user's profile dialog, which the app shell's account menu
 * owns (features do not import each other): the Kanban's "no queues" notice links to it this way.
 */
const OPEN_PROFILE = 'conversa:open-profile';

export const openProfile = (): void => {
  window.dispatchEvent(new Event(OPEN_PROFILE));
};

/** The account menu opens the dialog on each request; `open` should be stable (useCallback). */
export function useProfileRequests(open: () => void): void {
  useEffect(() => {
    window.addEventListener(OPEN_PROFILE, open);
    return () => window.removeEventListener(OPEN_PROFILE, open);
  }, [open]);
}
