import { PRESENCE_IDLE_MS } from '@conversa/functions/contracts/presence';
import { useEffect } from 'react';
import { isIdle, isManualStatusKey, reloadManualAway, setHidden, setIdle, useOwnStatus } from './presence-status.ts';
import { useRealtime } from './realtime-provider.tsx';

const IDLE_CHECK_MS = 30_000;
/** Input events are many: one timestamp write per this at most. */
const INPUT_THROTTLE_MS = 5_000;

/**
 * Follows the tab's visibility, its input and the choice made in other tabs, and tells the socket
 * each time the status changes (the realtime client also says it on every new socket and every
 * 5 minutes). Mounted once, app-wide, while signed in.
 */
export function usePresenceReporter(enabled: boolean): void {
  const { send } = useRealtime();
  const status = useOwnStatus();

  useEffect(() => {
    if (!enabled) return;
    let lastInput = Date.now();
    const onVisibility = () => {
      if (!document.hidden) {
        lastInput = Date.now();
        setIdle(false);
      }
      setHidden(document.hidden);
    };
    const onInput = () => {
      const now = Date.now();
      if (now - lastInput < INPUT_THROTTLE_MS && !isIdle()) return;
      lastInput = now;
      setIdle(false);
    };
    const checkIdle = setInterval(() => {
      if (Date.now() - lastInput >= PRESENCE_IDLE_MS) setIdle(true);
    }, IDLE_CHECK_MS);
    const onStorage = (event: StorageEvent) => {
      if (isManualStatusKey(event.key)) reloadManualAway();
    };
    const inputs = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart'] as const;
    document.addEventListener('visibilitychange', onVisibility);
    for (const name of inputs) window.addEventListener(name, onInput, { passive: true });
    window.addEventListener('storage', onStorage);
    return () => {
      clearInterval(checkIdle);
      document.removeEventListener('visibilitychange', onVisibility);
      for (const name of inputs) window.removeEventListener(name, onInput);
      window.removeEventListener('storage', onStorage);
    };
  }, [enabled]);

  useEffect(() => {
    if (enabled) send({ action: 'userStatus', data: status });
  }, [enabled, status, send]);
}
