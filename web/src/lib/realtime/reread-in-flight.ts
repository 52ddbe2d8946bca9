import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * A realtime event (or our own call's answer) just written into a cached query: if a read of that
 * query is in flight, it may have left the server before the change, and its answer would replace
 * the cache without it (a new message missing from the open thread, a new ticket missing from the
 * list, until the next reload). The change is on the server before its event is published, so a read
 * started after the one in flight has it: that read is started once the one in flight settles.
 *
 * After, not instead: cancelling the read in flight on every event would starve a list whose events
 * come faster than it can be read (a busy company's queue). At most one follow-up is pending per
 * query, however many events arrive meanwhile.
 */
const waiting = new WeakMap<QueryClient, Set<string>>();

export function rereadInFlight(queryClient: QueryClient, queryKey: QueryKey): void {
  const cache = queryClient.getQueryCache();
  for (const query of cache.findAll({ queryKey, fetchStatus: 'fetching' })) {
    const pending = waiting.get(queryClient) ?? new Set<string>();
    waiting.set(queryClient, pending);
    const hash = query.queryHash;
    if (pending.has(hash)) continue;
    pending.add(hash);
    const unsubscribe = cache.subscribe((event) => {
      if (event.query.queryHash !== hash) return;
      const removed = event.type === 'removed';
      if (!removed && event.query.state.fetchStatus === 'fetching') return;
      unsubscribe();
      pending.delete(hash);
      if (!removed) void queryClient.invalidateQueries({ queryKey: event.query.queryKey, exact: true });
    });
  }
}
