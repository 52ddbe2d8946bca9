/*
 * The new-message sound (SPEC 2 "Top bar"): a short two-note chime synthesised with Web Audio, at
 * the volume the top bar's slider stored, so no audio file ships with the app.
 */
let context: AudioContext | undefined;

export function playAlert(volume: number): void {
  if (volume <= 0 || typeof window.AudioContext !== 'function') return;
  try {
    context ??= new AudioContext();
    const now = context.currentTime;
    for (const [i, frequency] of [880, 1320].entries()) {
      const oscillator = context.createOscillator();
      const gain = context.createGain();
      const start = now + i * 0.12;
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(Math.max(0.0001, 0.4 * volume), start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.25);
      oscillator.connect(gain).connect(context.destination);
      oscillator.start(start);
      oscillator.stop(start + 0.3);
    }
  } catch (error) {
    // A browser that refuses audio (autoplay policy before any click) only misses the sound.
    console.warn('notification sound', error);
  }
}

/** SPEC 8: a browser without notification support is logged only. */
export function notificationsSupported(): boolean {
  if (typeof window.Notification === 'function') return true;
  console.info('This browser does not support desktop notifications');
  return false;
}

export function askNotificationPermission(): void {
  if (notificationsSupported() && Notification.permission === 'default') void Notification.requestPermission().catch(() => undefined);
}
