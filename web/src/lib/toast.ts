import { useSyncExternalStore } from 'react';

export type ToastSeverity = 'success' | 'error' | 'warning' | 'info';
export interface Toast {
  id: number;
  message: string;
  severity: ToastSeverity;
}

/**
 * A tiny store rather than a context: the API client and the realtime client raise toasts too, and
 * they live outside React.
 */
let queue: Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

/** Toasts on screen at once: a new one closes the oldest, so an action's answer shows at once. */
export const VISIBLE_TOASTS = 3;

function push(severity: ToastSeverity, message: string): void {
  queue = [...queue, { id: nextId++, message, severity }].slice(-VISIBLE_TOASTS);
  emit();
}

export const toast = {
  success: (message: string) => push('success', message),
  error: (message: string) => push('error', message),
  warning: (message: string) => push('warning', message),
  info: (message: string) => push('info', message),
  dismiss(id: number): void {
    queue = queue.filter((t) => t.id !== id);
    emit();
  },
};

/** The store as useSyncExternalStore reads it. */
export const toastStore = {
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  getSnapshot: (): Toast[] => queue,
};

export function useToasts(): Toast[] {
  return useSyncExternalStore(toastStore.subscribe, toastStore.getSnapshot);
}

/** SPEC 9: toasts close after 3000 ms. */
export const TOAST_DURATION_MS = 3000;
/** SPEC 9: redirect 1000 ms after an access denial. */
export const DENIAL_REDIRECT_MS = 1000;
