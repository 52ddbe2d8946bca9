/**
 * The to-do list's rules (SPEC 3 "To-do task", 5 "To-do"): blank text is ignored on add and edit,
 * completing flips one task, and whatever the browser's storage holds (garbage, an old shape, markup)
 * comes back as sound tasks or nothing, never a crash.
 */
import { describe, expect, it } from 'vitest';
import { addTask, deleteTask, editTask, parseTasks, toggleTask } from '../src/features/todo/api/tasks.ts';

const at = new Date('2026-11-26T10:00:00.000Z');
const later = new Date('2026-11-26T11:00:00.000Z');

describe('to-do tasks', () => {
  it('ignores empty or whitespace-only text, on add and on edit', () => {
    expect(addTask([], '', at)).toEqual([]);
    expect(addTask([], ' \t\n ', at)).toEqual([]);
    const tasks = addTask([], '  Ligar para o cliente  ', at);
    expect(tasks).toEqual([
      { id: expect.any(String), text: 'Ligar para o cliente', done: false, createdAt: at.toISOString(), updatedAt: at.toISOString() },
    ]);
    const id = tasks[0]?.id as string;
    expect(editTask(tasks, id, '   ', later)).toBe(tasks);
    expect(editTask(tasks, id, 'Ligar amanhã', later)[0]).toMatchObject({
      text: 'Ligar amanhã',
      updatedAt: later.toISOString(),
      createdAt: at.toISOString(),
    });
  });

  it('completes, reopens and deletes one task only', () => {
    const tasks = addTask(addTask([], 'um', at), 'dois', at);
    const first = tasks[0] as { id: string };
    const second = tasks[1] as { id: string };
    const done = toggleTask(tasks, first.id, later);
    expect(done.map((t) => t.done)).toEqual([true, false]);
    expect(toggleTask(done, first.id, later).map((t) => t.done)).toEqual([false, false]);
    expect(deleteTask(done, first.id).map((t) => t.id)).toEqual([second.id]);
  });

  it('reads only sound tasks back from storage', () => {
    for (const raw of [null, '', 'not json', '{"a":1}', '42', 'null', '[null, 1, "x", {}]', '[{"text": "   "}]', '[{"text": 5}]']) {
      expect(parseTasks(raw), String(raw)).toEqual([]);
    }
    const stored = JSON.stringify([
      { id: 'a', text: '<img src=x onerror=alert(1)>', done: 'yes', createdAt: at.toISOString() },
      { text: 'sem id', done: true },
    ]);
    expect(parseTasks(stored)).toEqual([
      { id: 'a', text: '<img src=x onerror=alert(1)>', done: false, createdAt: at.toISOString(), updatedAt: at.toISOString() },
      { id: expect.any(String), text: 'sem id', done: true, createdAt: new Date(0).toISOString(), updatedAt: new Date(0).toISOString() },
    ]);
  });
});
