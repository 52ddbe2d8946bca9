/**
 * Coalesced realtime frames (issue 15): a unit of work's events reach each socket as one frame per
 * window, in the order they were published, each still only to the sockets its audience names; a
 * client reads an event or an array of them.
 */
import { describe, expect, it } from 'vitest';
import { eventsOfFrame, type ServerEvent } from '../src/contracts/channels.ts';
import { audience } from '../src/realtime/audience.ts';
import type { PostOutcome } from '../src/realtime/management.ts';
import { createOutbox, type Delivery, MAX_FRAME_BYTES } from '../src/realtime/outbox.ts';
import { createSnapshotPublisher } from '../src/realtime/publisher.ts';
import { connectionRecord } from './support/socket-records.ts';

const conn = connectionRecord;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const event = (name: string, data: unknown = {}): ServerEvent => ({ event: name, data });
/** What a socket received, as its client reads it. */
const received = (posts: Delivery[], connectionId: string) =>
  posts
    .filter((post) => post.connection.connectionId === connectionId)
    .flatMap((post) => eventsOfFrame(JSON.stringify(post.payload)).map((e) => e.event));

function recorder(delayMs = 0) {
  const posts: Delivery[] = [];
  const send = async (deliveries: Delivery[]) => {
    if (delayMs) await sleep(delayMs);
    posts.push(...deliveries);
    return { sent: deliveries.length, gone: 0, failed: 0 };
  };
  return { posts, send };
}

describe('outbox', () => {
  it('sends a socket the events of one window as one frame, in order, and a lone event as itself', async () => {
    // Prepare
    const { posts, send } = recorder();
    const outbox = createOutbox(send, 1000);
    const [a, b] = [conn('a'), conn('b')];
    // Act
    outbox.add([a, b], event('e1'));
    outbox.add([a], event('e2'));
    outbox.add([a], event('e3'));
    const result = await outbox.flush();
    // Assess
    expect(posts).toHaveLength(2);
    expect(posts.find((p) => p.connection === a)?.payload).toEqual([event('e1'), event('e2'), event('e3')]);
    expect(posts.find((p) => p.connection === b)?.payload).toEqual(event('e1'));
    expect(result).toEqual({ sent: 2, gone: 0, failed: 0 });
  });

  it('posts by itself when the window ends, without a flush', async () => {
    const { posts, send } = recorder();
    const outbox = createOutbox(send, 15);
    outbox.add([conn('a')], event('e1'));
    expect(posts).toHaveLength(0);
    await sleep(60);
    expect(received(posts, 'a')).toEqual(['e1']);
    // The window starts again with the next event.
    outbox.add([conn('a')], event('e2'));
    await sleep(60);
    expect(posts.map((p) => p.payload)).toEqual([event('e1'), event('e2')]);
  });

  it("keeps a socket's order across windows when a drain is still posting", async () => {
    const { posts, send } = recorder(30);
    const outbox = createOutbox(send, 5);
    outbox.add([conn('a')], event('e1'));
    await sleep(10); // the first drain is posting (30 ms)
    outbox.add([conn('a')], event('e2'));
    await outbox.flush();
    expect(received(posts, 'a')).toEqual(['e1', 'e2']);
  });

  it('splits a socket’s events into frames under MAX_FRAME_BYTES, still in order', async () => {
    const { posts, send } = recorder();
    const outbox = createOutbox(send, 1000);
    const big = 'x'.repeat(MAX_FRAME_BYTES / 3);
    for (let i = 0; i < 5; i++) outbox.add([conn('a')], event(`e${i}`, big));
    await outbox.flush();
    expect(posts.length).toBeGreaterThan(1);
    for (const post of posts) expect(JSON.stringify(post.payload).length).toBeLessThanOrEqual(MAX_FRAME_BYTES);
    expect(received(posts, 'a')).toEqual(['e0', 'e1', 'e2', 'e3', 'e4']);
  });

  it('counts a send that throws as failed frames and keeps draining', async () => {
    let calls = 0;
    const outbox = createOutbox(async (deliveries) => {
      if (++calls === 1) throw new Error('gateway down');
      return { sent: deliveries.length, gone: 0, failed: 0 };
    }, 1000);
    outbox.add([conn('a'), conn('b')], event('e1'));
    expect(await outbox.flush()).toEqual({ sent: 0, gone: 0, failed: 2 });
    outbox.add([conn('a')], event('e2'));
    expect(await outbox.flush()).toEqual({ sent: 1, gone: 0, failed: 2 });
  });
});

describe('snapshot publisher with coalescing (an inbound batch)', () => {
  const sockets = [
    conn('admin', { userId: 10, profile: 'admin' }),
    conn('sales', { userId: 11, queueIds: [1] }),
    conn('support', { userId: 12, queueIds: [2] }),
    conn('gone', { userId: 13, profile: 'admin' }),
    conn('other-tenant', { companyId: 2, userId: 10, profile: 'admin' }),
  ];

  function deps() {
    const posted: { connectionId: string; payload: unknown }[] = [];
    const deleted: string[] = [];
    return {
      posted,
      deleted,
      deps: {
        listCompanyConnections: async (companyId: number) => sockets.filter((s) => s.companyId === companyId),
        listAllConnections: async () => sockets,
        deleteConnection: async (_companyId: number, connectionId: string) => {
          deleted.push(connectionId);
        },
        post: async (connectionId: string, payload: unknown): Promise<PostOutcome> => {
          posted.push({ connectionId, payload });
          return connectionId === 'gone' ? 'gone' : 'sent';
        },
      },
    };
  }

  it('sends each socket one frame of the events its audience names, and deletes a gone one', async () => {
    // Prepare
    const { deps: d, posted, deleted } = deps();
    const publisher = createSnapshotPublisher(d, { coalesceMs: 1000 });
    // Act
    const queued = await publisher.publish(1, 'queue-1', {}, audience.anyOf(audience.admins, audience.queue(1)));
    await publisher.publish(1, 'queue-2', {}, audience.anyOf(audience.admins, audience.queue(2)));
    await publisher.publish(1, 'everyone', {}, audience.company);
    expect(posted).toHaveLength(0);
    const result = await publisher.flush();
    // Assess
    expect(queued).toEqual({ sent: 0, gone: 0, failed: 0, queued: 3 });
    const frames = (id: string) =>
      posted.filter((p) => p.connectionId === id).map((p) => eventsOfFrame(JSON.stringify(p.payload)).map((e) => e.event));
    expect(frames('admin')).toEqual([['queue-1', 'queue-2', 'everyone']]);
    expect(frames('sales')).toEqual([['queue-1', 'everyone']]);
    expect(frames('support')).toEqual([['queue-2', 'everyone']]);
    expect(frames('other-tenant')).toEqual([]);
    expect(deleted).toEqual(['gone']);
    expect(result).toEqual({ sent: 3, gone: 1, failed: 0 });
  });
});

describe('eventsOfFrame (what clients read)', () => {
  it('reads one event, an array of events in order, and nothing of garbage', () => {
    expect(eventsOfFrame('{"event":"a","data":1}')).toEqual([{ event: 'a', data: 1 }]);
    expect(eventsOfFrame('[{"event":"a","data":1},{"event":"b"},7,{"data":2}]')).toEqual([
      { event: 'a', data: 1 },
      { event: 'b', data: undefined },
    ]);
    expect(eventsOfFrame('not json')).toEqual([]);
    expect(eventsOfFrame('null')).toEqual([]);
    expect(eventsOfFrame('"text"')).toEqual([]);
  });
});
