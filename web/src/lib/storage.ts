/** The browser-storage keys of SPEC 9, in one place so no feature invents its own spelling. */
export const storageKeys = {
  cshow: 'cshow',
  preferredTheme: 'preferredTheme',
  volume: 'volume',
  language: 'language',
  signMessage: 'signMessage',
  todoTasks: 'todolist',
  /** The newest announcement change the user has seen in the top bar's popover (SPEC 4 "Badges": its dot). */
  announcementsSeen: 'announcementsSeen',
  /** What the user had typed and not sent, per conversation (features/messages/api/drafts.ts). */
  drafts: 'drafts',
} as const;

export function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    // Private mode or disabled storage: behave as if nothing was stored.
    return null;
  }
}

export function writeStorage(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Not persisting a preference is better than breaking the screen.
  }
}

export function removeStorage(key: string): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // Nothing stored, nothing to remove.
  }
}

/** The cshow flag gates the campaign routes (SPEC 2); any stored value counts as set. */
export function isCshowSet(): boolean {
  return readStorage(storageKeys.cshow) !== null;
}

/** SPEC 2: the notification volume, 0 to 1, stored as `volume`; 1 until the user moves the slider. */
export function readVolume(): number {
  const stored = readStorage(storageKeys.volume);
  const value = Number(stored);
  return stored !== null && Number.isFinite(value) && value >= 0 && value <= 1 ? value : 1;
}
