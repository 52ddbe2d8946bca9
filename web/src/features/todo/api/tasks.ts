import { useCallback, useSyncExternalStore } from 'react';
import { readStorage, storageKeys, writeStorage } from '../../../lib/storage.ts';

/** SPEC 3 "To-do task (browser only)": text, createdAt, updatedAt; `done` marks it complete. */
export interface Task {
  id: string;
  text: string;
  done: boolean;
  createdAt: string;
  updatedAt: string;
}

const MAX_TEXT = 500;

/** What is stored may be anything (an old version, another tab's bug, a hand edit): keep only sound tasks. */
export function parseTasks(raw: string | null): Task[] {
  if (!raw) return [];
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(value)) return [];
  return value.flatMap((item, index): Task[] => {
    if (!item || typeof item !== 'object') return [];
    const { id, text, done, createdAt, updatedAt } = item as Record<string, unknown>;
    if (typeof text !== 'string' || !text.trim()) return [];
    const created = typeof createdAt === 'string' ? createdAt : new Date(0).toISOString();
    return [
      {
        id: typeof id === 'string' && id ? id : `task-${index}-${created}`,
        text: text.slice(0, MAX_TEXT),
        done: done === true,
        createdAt: created,
        updatedAt: typeof updatedAt === 'string' ? updatedAt : created,
      },
    ];
  });
}

/** SPEC 5 "To-do": empty or whitespace-only text is ignored (the list comes back unchanged). */
export function addTask(tasks: Task[], text: string, now = new Date()): Task[] {
  const clean = text.trim().slice(0, MAX_TEXT);
  if (!clean) return tasks;
  const at = now.toISOString();
  return [...tasks, { id: crypto.randomUUID(), text: clean, done: false, createdAt: at, updatedAt: at }];
}

export function editTask(tasks: Task[], id: string, text: string, now = new Date()): Task[] {
  const clean = text.trim().slice(0, MAX_TEXT);
  if (!clean) return tasks;
  return tasks.map((task) => (task.id === id && task.text !== clean ? { ...task, text: clean, updatedAt: now.toISOString() } : task));
}

export function toggleTask(tasks: Task[], id: string, now = new Date()): Task[] {
  return tasks.map((task) => (task.id === id ? { ...task, done: !task.done, updatedAt: now.toISOString() } : task));
}

export const deleteTask = (tasks: Task[], id: string): Task[] => tasks.filter((task) => task.id !== id);

/*
 * One store over localStorage: every mounted list and other tabs (the `storage` event) see the same
 * tasks. The snapshot is cached by the raw string so React gets a stable value between changes.
 */
const listeners = new Set<() => void>();
let cache: { raw: string | null; tasks: Task[] } = { raw: null, tasks: [] };

function snapshot(): Task[] {
  const raw = readStorage(storageKeys.todoTasks);
  if (raw !== cache.raw) cache = { raw, tasks: parseTasks(raw) };
  return cache.tasks;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === storageKeys.todoTasks || event.key === null) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

function save(tasks: Task[]): void {
  writeStorage(storageKeys.todoTasks, JSON.stringify(tasks));
  for (const listener of listeners) listener();
}

export function useTasks(): { tasks: Task[]; update: (change: (tasks: Task[]) => Task[]) => void } {
  const tasks = useSyncExternalStore(subscribe, snapshot, () => []);
  const update = useCallback((change: (tasks: Task[]) => Task[]) => {
    const current = snapshot();
    const next = change(current);
    if (next !== current) save(next);
  }, []);
  return { tasks, update };
}
