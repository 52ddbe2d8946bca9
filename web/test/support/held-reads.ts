/**
 * An infinite query whose reads answer only when the test says: each read takes the server's rows as
 * they are when it leaves (`page(rows)` builds its answer), so a test can hold one in flight while a
 * change arrives and answer it afterwards, as a slow network would.
 */
import { type InfiniteData, InfiniteQueryObserver, QueryClient, type QueryKey } from '@tanstack/react-query';
import { expect, vi } from 'vitest';

export function heldReads<Row, Page>(queryKey: QueryKey, rows: Row[], page: (rows: Row[]) => Page) {
  const client = new QueryClient();
  const reads: (() => void)[] = [];
  const observer = new InfiniteQueryObserver(client, {
    queryKey,
    queryFn: () => {
      const seen = [...rows];
      return new Promise<Page>((resolve) => reads.push(() => resolve(page(seen))));
    },
    initialPageParam: {},
    getNextPageParam: () => undefined,
  });
  const unsubscribe = observer.subscribe(() => undefined);
  const firstPage = () => client.getQueryData<InfiniteData<Page>>(queryKey)?.pages[0];
  return {
    client,
    reads,
    unsubscribe,
    firstPage,
    /** Answers the oldest read in flight. */
    answer: () => reads.shift()?.(),
    /** Loads the first page, then starts a read again and leaves it in flight. */
    async loadThenReadAgain(): Promise<void> {
      reads.shift()?.();
      await vi.waitFor(() => expect(firstPage()).toBeDefined());
      void observer.refetch();
      await vi.waitFor(() => expect(reads).toHaveLength(1));
    },
  };
}
