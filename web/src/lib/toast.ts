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

function push(severity: ToastSeverity, message: string): void {
  queue = [...queue, { id: nextId++, message, severity }];
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

export function useToasts(): Toast[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => queue,
  );
}

/** SPEC 9: toasts close after 3000 ms. */
export const TOAST_DURATION_MS = 3000;
/** SPEC 9: redirect 1000 ms after an access denial. */
export const DENIAL_REDIRECT_MS = 1000;
