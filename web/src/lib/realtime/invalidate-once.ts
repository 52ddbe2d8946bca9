import { hashKey, type QueryClient, type QueryKey } from '@tanstack/react-query';

/**
 * The server coalesces realtime events: one frame may carry many (a campaign's progress, a burst of
 * contact-list number checks, ticket changes), and realtime-client.ts hands them to the handlers one
 * after the other in the same task. A handler that answered each with `invalidateQueries` sent one
 * request per event, since TanStack's default `cancelRefetch: true` cancels the fetch in flight and
 * starts another. Here the first call for a key schedules one invalidation in a microtask, after the
 * whole frame was handled, and the calls that follow within the same task are dropped. A later frame
 * invalidates again, cancelling an older fetch whose answer may predate its events.
 *
 * For realtime handlers only: a mutation that awaits its refresh keeps calling `invalidateQueries`.
 */
const scheduled = new WeakMap<QueryClient, Set<string>>();

export function invalidateOnce(queryClient: QueryClient, ...queryKeys: QueryKey[]): void {
  const pending = scheduled.get(queryClient) ?? new Set<string>();
  scheduled.set(queryClient, pending);
  for (const queryKey of queryKeys) {
    const hash = hashKey(queryKey);
    if (pending.has(hash)) continue;
    pending.add(hash);
    queueMicrotask(() => {
      pending.delete(hash);
      void queryClient.invalidateQueries({ queryKey });
    });
  }
}
