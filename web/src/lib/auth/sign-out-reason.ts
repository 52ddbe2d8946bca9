/**
 * Why this tab's session was ended, for the login page to say until it is read (issue 25: the reason
 * was a toast that vanished in 3 s, or with the page reload that follows a sign-in elsewhere).
 * Kept in sessionStorage: it survives that reload and the localStorage wipe before it, and stays
 * with the tab that was signed out. A translation key is translated when shown (the language can
 * change on the login page); a server's message (the expiry one) is kept as it came.
 */
export type SignOutReason = { key: string } | { text: string };

const STORAGE_KEY = 'signOutReason';

export function rememberSignOutReason(reason: SignOutReason): void {
  try {
    window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify(reason));
  } catch {
    // Storage refused (private mode, quota): the reason is only lost, the sign-out goes on.
  }
}

export function readSignOutReason(): SignOutReason | undefined {
  try {
    const value = JSON.parse(window.sessionStorage.getItem(STORAGE_KEY) ?? 'null') as unknown;
    if (
      value &&
      typeof value === 'object' &&
      (typeof (value as { key?: unknown }).key === 'string' || typeof (value as { text?: unknown }).text === 'string')
    )
      return value as SignOutReason;
  } catch {
    // A value not of ours: none.
  }
  return undefined;
}

/** Read (closed by the user) or outdated (a new sign-in). */
export function forgetSignOutReason(): void {
  try {
    window.sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Nothing kept.
  }
}
