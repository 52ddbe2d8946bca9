/**
 * The connections '!' of the side menu follows the list after a refetch (issue 14, "the connections
 * menu dot may not refresh live"). The app-wide watch loads the list and the menu observes it
 * without fetching; the query runs with the options of its latest observer, which was the menu's.
 * With a skipToken observer there, the refetch a save or a focus asks for failed and the badge kept
 * the old states. Prepare / Act / Assess.
 */
import type { Connection } from '@conversa/functions/contracts';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';

const served: { status: string }[][] = [];
vi.mock('../src/lib/api-client.ts', () => ({
  api: vi.fn(async () => served.shift()?.map((c, i) => ({ id: i + 1, ...c })) ?? []),
}));

const { connectionsBadgeQueryOptions, hasConnectionAlert } = await import('../src/app/layout/menu-badges.ts');
const { connectionsQueryOptions, connectionKeys } = await import('../src/lib/lookups/connections.ts');

describe('the connections badge', () => {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  afterEach(() => client.clear());

  it('sees a refetched list when the menu observed it last', async () => {
    // Prepare: the watch loads the list (connected), then the menu mounts and observes it.
    served.push([{ status: 'CONNECTED' }], [{ status: 'DISCONNECTED' }]);
    const watch = new QueryObserver(client, connectionsQueryOptions());
    const stopWatch = watch.subscribe(() => {});
    await vi.waitFor(() => expect(client.getQueryState(connectionKeys.list())?.status).toBe('success'));
    const menu = new QueryObserver(client, connectionsBadgeQueryOptions());
    const stopMenu = menu.subscribe(() => {});
    expect(hasConnectionAlert(menu.getCurrentResult().data as Connection[])).toBe(false);

    // Act: a save elsewhere invalidates the list; the server now says the phone disconnected.
    await client.invalidateQueries({ queryKey: connectionKeys.list() });

    // Assess
    expect(client.getQueryState(connectionKeys.list())?.status).toBe('success');
    expect(hasConnectionAlert(menu.getCurrentResult().data as Connection[])).toBe(true);
    stopMenu();
    stopWatch();
  });

  it('never fetches by itself: with no list loaded the menu asks nothing', async () => {
    const menu = new QueryObserver(client, connectionsBadgeQueryOptions());
    const stop = menu.subscribe(() => {});
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(client.getQueryState(connectionKeys.list())?.fetchStatus).toBe('idle');
    expect(menu.getCurrentResult().data).toBeUndefined();
    stop();
  });
});
