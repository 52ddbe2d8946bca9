/**
 * A big tenant's frames take the fan-out queue (issue 15): packed per message group with each frame
 * written once, posted in order by the consumer; small tenants are posted at once as before.
 */
import type { SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import type { ServerEvent } from '../src/contracts/channels.ts';
import { consume } from '../src/handlers/consumers/realtime-fanout.ts';
import { audience } from '../src/realtime/audience.ts';
import { FANOUT_GROUPS, type FanoutBody, fanoutGroup, MAX_TARGETS, packFanout } from '../src/realtime/fanout.ts';
import type { PostOutcome } from '../src/realtime/management.ts';
import type { Delivery } from '../src/realtime/outbox.ts';
import { createPublisher, createSnapshotPublisher } from '../src/realtime/publisher.ts';
import { connectionRecord } from './support/socket-records.ts';

const socket = (connectionId: string, companyId = 1) => connectionRecord(connectionId, { companyId, profile: 'admin' });
const event = (name: string): ServerEvent => ({ event: name, data: { name } });

describe('packFanout', () => {
  it('keeps each socket in one group, writes a shared frame once, and holds at most MAX_TARGETS sockets a message', () => {
    // Prepare: 250 sockets get e1, half of them e1 then e2 coalesced.
    const [e1, e2] = [event('e1'), event('e2')];
    const deliveries: Delivery[] = Array.from({ length: 250 }, (_, i) => ({
      connection: socket(`c${i}`),
      payload: i % 2 ? [e1, e2] : e1,
    }));
    // Act
    const messages = packFanout(deliveries);
    // Assess
    const seen = new Map<string, number>();
    for (const { group, body } of messages) {
      expect(group).toBeGreaterThanOrEqual(0);
      expect(group).toBeLessThan(FANOUT_GROUPS);
      expect(body.targets.length).toBeLessThanOrEqual(MAX_TARGETS);
      expect(body.frames.length).toBeLessThanOrEqual(2);
      for (const [connectionId, companyId, frame] of body.targets) {
        expect(fanoutGroup(connectionId)).toBe(group);
        expect(companyId).toBe(1);
        expect(body.frames[frame]).toEqual(Number(connectionId.slice(1)) % 2 ? [e1, e2] : e1);
        seen.set(connectionId, (seen.get(connectionId) ?? 0) + 1);
      }
    }
    expect(seen.size).toBe(250);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
  });
});

function fakes(threshold: number) {
  const posted: string[] = [];
  const fannedOut: Delivery[] = [];
  const company = (id: number, n: number) => Array.from({ length: n }, (_, i) => socket(`t${id}-${i}`, id));
  const deps = {
    listCompanyConnections: async (companyId: number) => (companyId === 1 ? company(1, 5) : company(2, 8)),
    listAllConnections: async () => [...company(1, 5), ...company(2, 8)],
    deleteConnection: async () => undefined,
    post: async (connectionId: string): Promise<PostOutcome> => {
      posted.push(connectionId);
      return 'sent';
    },
    fanout: async (deliveries: Delivery[]) => {
      fannedOut.push(...deliveries);
      return { sent: 0, gone: 0, failed: 0, queued: deliveries.length };
    },
    fanoutThreshold: threshold,
  };
  return { deps, posted, fannedOut };
}

describe('the path a frame takes', () => {
  it('a tenant over the threshold goes through the fan-out, even for an event of one socket; a small one is posted', async () => {
    const { deps, posted, fannedOut } = fakes(6);
    const publisher = createPublisher(deps);
    await publisher.publishToCompany(1, 'small', {});
    const result = await publisher.publish(2, 'one-of-big', {}, (c) => c.connectionId === 't2-0');
    expect(posted).toHaveLength(5);
    expect(fannedOut.map((d) => d.connection.connectionId)).toEqual(['t2-0']);
    expect(result).toEqual({ sent: 0, gone: 0, failed: 0, queued: 1 });
  });

  it('coalesced frames of a big tenant take the fan-out as one frame per socket', async () => {
    const { deps, posted, fannedOut } = fakes(6);
    const publisher = createSnapshotPublisher(deps, { coalesceMs: 1000 });
    await publisher.publish(2, 'e1', {}, audience.company);
    await publisher.publish(2, 'e2', {}, audience.company);
    await publisher.publish(1, 'e3', {}, audience.company);
    await publisher.flush();
    expect(posted).toHaveLength(5);
    expect(fannedOut).toHaveLength(8);
    expect(fannedOut.map((d) => (d.payload as ServerEvent[]).map((e) => e.event))[0]).toEqual(['e1', 'e2']);
  });

  it('an announcement to every tenant fans out the big ones by their count in the send', async () => {
    const { deps, posted, fannedOut } = fakes(6);
    await createPublisher(deps).publishToAll('company-announcement', {});
    expect(posted).toHaveLength(5);
    expect(fannedOut).toHaveLength(8);
  });
});

const record = (body: unknown, group: string, id: string) =>
  ({ messageId: id, body: typeof body === 'string' ? body : JSON.stringify(body), attributes: { MessageGroupId: group } }) as never;

describe('the fan-out consumer', () => {
  it('posts each frame to its sockets in order, deletes a gone socket, and fails only a record that is no body', async () => {
    // Prepare
    const posts: Array<[string, unknown]> = [];
    const deleted: Array<[number, string]> = [];
    const deps = {
      post: async (connectionId: string, payload: unknown): Promise<PostOutcome> => {
        posts.push([connectionId, payload]);
        return connectionId === 'gone' ? 'gone' : 'sent';
      },
      deleteConnection: async (companyId: number, connectionId: string) => {
        deleted.push([companyId, connectionId]);
      },
    };
    const first: FanoutBody = {
      frames: [event('e1')],
      targets: [
        ['a', 1, 0],
        ['gone', 1, 0],
      ],
    };
    const second: FanoutBody = { frames: [[event('e2'), event('e3')]], targets: [['a', 1, 0]] };
    // Act
    const out = await consume(
      {
        Records: [
          record(first, 'g1', 'm1'),
          record('not json', 'g2', 'm2'),
          record({ frames: [], targets: [['x', 1, 0]] }, 'g3', 'm3'),
          record(second, 'g1', 'm4'),
        ],
      } as SQSEvent,
      deps,
    );
    // Assess
    expect(out.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(['m2', 'm3']);
    expect(posts.filter(([id]) => id === 'a').map(([, payload]) => payload)).toEqual([event('e1'), [event('e2'), event('e3')]]);
    expect(deleted).toEqual([[1, 'gone']]);
  });
});
