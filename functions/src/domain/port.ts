/**
 * A port of the domain (STYLE: the domain declares what it needs, an adapter implements it, the
 * entry wires the two): one slot, no default. `wired()` throws naming the wiring when the entry
 * running this code wired none (adapters/wiring.ts does for every Lambda; a test sets its own).
 */
export interface Port<T> {
  /** Wires `next` (undefined unwires); returns what was wired before. */
  set(next: T | undefined): T | undefined;
  wired(): T;
}

export function port<T>(what: string): Port<T> {
  let current: T | undefined;
  return {
    set(next) {
      const previous = current;
      current = next;
      return previous;
    },
    wired() {
      if (current === undefined) throw new Error(`No ${what} wired: the entry imports #adapters/wiring (a test sets its own)`);
      return current;
    },
  };
}
