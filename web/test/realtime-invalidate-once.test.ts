/**
 * One request per frame, not per event: the server coalesces realtime events, so one WebSocket frame
 * may carry a campaign's progress, a burst of contact-list number checks or ticket changes, and the
 * client hands them to the handlers one after the other. A handler that refetched a list for each
 * event sent one GET per event (TanStack cancels the fetch in flight and starts another); through
 * invalidateOnce a frame refetches each list once, and the next frame again. The live hooks' handlers
 * are driven here through the real RealtimeClient and a real QueryClient with an observer, counting
 * the list's fetches. Prepare / Act / Assess.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { channels } from '@conversa/functions/contracts/channels';
import { QueryClient, type QueryKey, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tagKeys } from '../src/lib/lookups/tags.ts';
import { invalidateOnce } from '../src/lib/realtime/invalidate-once.ts';
import { RealtimeClient } from '../src/lib/realtime/realtime-client.ts';

class FakeSocket {
  static readonly OPEN = 1;
  static latest: FakeSocket | undefined;
  readyState = 0;
  onopen: (() => void) | undefined;
  onclose: (() => void) | undefined;
  onmessage: ((message: { data: unknown }) => void) | undefined;
  constructor(readonly url: string) {
    FakeSocket.latest = this;
  }
  send() {}
  close() {
    this.readyState = 3;
    this.onclose?.();
  }
}

/** Lets pending promises and microtasks run, and ends the current task (as a socket frame does). */
const nextTask = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('WebSocket', FakeSocket);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

/** A list on screen (an observer keeps it active), loaded once, and the count of its fetches. */
async function listOnScreen(queryClient: QueryClient, queryKey: QueryKey) {
  const queryFn = vi.fn(async () => []);
  const unsubscribe = new QueryObserver(queryClient, { queryKey, queryFn }).subscribe(() => {});
  await nextTask();
  expect(queryFn).toHaveBeenCalledTimes(1);
  queryFn.mockClear();
  return { fetches: () => queryFn.mock.calls.length, unsubscribe };
}

/** An open socket whose events reach `handler` as the provider's listeners do (useTagCountsLive here). */
async function socketTo(handler: (event: { event: string; data: unknown }) => void) {
  const realtime = new RealtimeClient({ wsUrl: 'wss://x/ws', getToken: async () => 'token', onEvent: handler });
  realtime.start();
  await nextTask();
  const socket = FakeSocket.latest as FakeSocket;
  socket.readyState = FakeSocket.OPEN;
  socket.onopen?.();
  return { realtime, deliver: (events: unknown[]) => socket.onmessage?.({ data: JSON.stringify(events) }) };
}

const ticketEvents = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ event: channels.ticket(1), data: { action: 'updateUnread', ticketId: i } }));

describe('a realtime frame refetches each list once', () => {
  it('fetches the Tags screen pages once for a frame of five ticket events, and once more for each later frame', async () => {
    // Prepare
    const queryClient = new QueryClient();
    const pages = await listOnScreen(queryClient, tagKeys.page(''));
    const { realtime, deliver } = await socketTo((event) => {
      if (event.event === channels.ticket(1)) invalidateOnce(queryClient, tagKeys.pages());
    });
    // Act: one frame of five events
    deliver(ticketEvents(5));
    await nextTask();
    // Assess
    expect(pages.fetches()).toBe(1);
    // Act: two frames in two tasks
    deliver(ticketEvents(3));
    await nextTask();
    deliver(ticketEvents(2));
    await nextTask();
    // Assess
    expect(pages.fetches()).toBe(3);
    expect(queryClient.getQueryState(tagKeys.page(''))?.status).toBe('success');
    realtime.close();
    pages.unsubscribe();
  });

  it('refetches every key a frame touched, each once, and keeps two caches apart', async () => {
    // Prepare: two lists in one cache, the same list in another
    const first = new QueryClient();
    const second = new QueryClient();
    const tagPages = await listOnScreen(first, tagKeys.page(''));
    const tagList = await listOnScreen(first, tagKeys.list());
    const otherPages = await listOnScreen(second, tagKeys.page(''));
    // Act: in one task, both keys several times in the first cache, the pages once in the second
    for (let i = 0; i < 4; i++) invalidateOnce(first, tagKeys.pages(), tagKeys.list());
    invalidateOnce(second, tagKeys.pages());
    expect([tagPages.fetches(), tagList.fetches(), otherPages.fetches()]).toEqual([0, 0, 0]);
    await nextTask();
    // Assess
    expect([tagPages.fetches(), tagList.fetches(), otherPages.fetches()]).toEqual([1, 1, 1]);
    for (const list of [tagPages, tagList, otherPages]) list.unsubscribe();
  });
});

/** The text of each `useRealtimeEvent(...)` call in `source`, its arguments being the handler. */
function realtimeHandlers(source: string): string[] {
  const calls: string[] = [];
  for (const match of source.matchAll(/\buseRealtimeEvent(?:<[^(]*>)?\(/g)) {
    let depth = 1;
    let end = match.index + match[0].length;
    while (depth > 0 && end < source.length) {
      const char = source[end++];
      if (char === '(') depth++;
      else if (char === ')') depth--;
    }
    calls.push(source.slice(match.index, end));
  }
  return calls;
}

describe('the live handlers', () => {
  it('invalidate through invalidateOnce, never invalidateQueries or an awaited refresh directly', () => {
    const src = resolve(import.meta.dirname, '../src');
    const files = (readdirSync(src, { recursive: true }) as string[]).filter((file) => /\.tsx?$/.test(file)).map((file) => join(src, file));
    const direct = files.flatMap((file) =>
      realtimeHandlers(readFileSync(file, 'utf8'))
        .filter((handler) => /\binvalidateQueries\b|\brefresh[A-Z]\w*\(/.test(handler))
        .map((handler) => `${relative(src, file)}: ${handler.split('\n')[0]}`),
    );
    expect(
      realtimeHandlers('useRealtimeEvent(x, () => void refreshTags(queryClient));\nuseRealtimeEvent<RecordEvent<T>>(y, (d) => f(d));'),
    ).toEqual(['useRealtimeEvent(x, () => void refreshTags(queryClient))', 'useRealtimeEvent<RecordEvent<T>>(y, (d) => f(d))']);
    expect(direct).toEqual([]);
  });
});
