import type { SocketStatus } from '@conversa/functions/contracts/presence';
import { useSyncExternalStore } from 'react';
import { readStorage, writeStorage } from '../storage.ts';

/**
 * What this tab says of its user (issue 22 §1): away while Away is chosen in the top bar (kept in
 * local storage, so every tab of the browser and a reload keep it), while the tab is hidden, or after
 * 10 minutes without input; online otherwise. The server makes the user's presence of all their tabs
 * and devices: online if one of them says online.
 */
const MANUAL_KEY = 'presenceStatus';

const listeners = new Set<() => void>();
let manualAway = readStorage(MANUAL_KEY) === 'away';
let hidden = typeof document !== 'undefined' && document.hidden;
let idle = false;

const emit = () => {
  for (const listener of listeners) listener();
};
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The status this tab reports now. */
export const ownStatus = (): SocketStatus => (manualAway || hidden || idle ? 'away' : 'online');

/** Away chosen by hand (the top bar's status menu), or Online to clear it. */
export function setManualAway(away: boolean): void {
  manualAway = away;
  writeStorage(MANUAL_KEY, away ? 'away' : 'online');
  emit();
}

export const useManualAway = (): boolean => useSyncExternalStore(subscribe, () => manualAway);
export const useOwnStatus = (): SocketStatus => useSyncExternalStore(subscribe, ownStatus);

/** The tab was hidden or shown (presence-reporter.ts). */
export function setHidden(value: boolean): void {
  if (hidden === value) return;
  hidden = value;
  emit();
}

/** The tab went idle or had input again (presence-reporter.ts). */
export function setIdle(value: boolean): void {
  if (idle === value) return;
  idle = value;
  emit();
}

export const isIdle = (): boolean => idle;

/** Another tab chose a status: read it again. */
export function reloadManualAway(): void {
  manualAway = readStorage(MANUAL_KEY) === 'away';
  emit();
}

export const isManualStatusKey = (key: string | null): boolean => key === MANUAL_KEY || key === null;
