/**
 * The publisher sends each event to exactly the sockets its audience names, never across tenants,
 * deletes connections that answer 410, and never throws at the caller.
 */
import { describe, expect, it } from 'vitest';
import { type Audience, audience, matches, ticketViewers } from '../src/realtime/audience.ts';
import { mapWithConcurrency } from '../src/realtime/concurrency.ts';
import type { PostOutcome } from '../src/realtime/management.ts';
import { CONNECTING_GRACE_MS, createPublisher, createSnapshotPublisher, PUBLISH_CONCURRENCY } from '../src/realtime/publisher.ts';
import { connectionRecord } from './support/socket-records.ts';

const conn = connectionRecord;

/** Company 1: an admin, two users with queues, an allTicket user; company 2: one admin. */
const sockets = [
  conn('admin', { userId: 10, profile: 'admin' }),
  conn('sales-a', { userId: 11, queueIds: [1] }),
  conn('sales-a-phone', { userId: 11, queueIds: [1] }),
  conn('support', { userId: 12, queueIds: [2] }),
  conn('all-ticket', { userId: 13, queueIds: [], allTicket: 'enabled' }),
  conn('super', { userId: 14, profile: 'user', super: true }),
  conn('other-tenant', {
    companyId: 2,
    userId: 10,
    profile: 'admin',
    reading: { ticketId: 42, ref: '42', until: '2099-01-01T00:00:00.000Z' },
  }),
];

function fakeDeps(options: { outcomes?: Record<string, PostOutcome>; failList?: boolean } = {}) {
  const posted: { connectionId: string; payload: unknown }[] = [];
  const deleted: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const deps = {
    listCompanyConnections: async (companyId: number) => {
      if (options.failList) throw new Error('DynamoDB down');
      return sockets.filter((s) => s.companyId === companyId);
    },
    listAllConnections: async () => sockets,
    deleteConnection: async (_companyId: number, connectionId: string) => {
      deleted.push(connectionId);
    },
    post: async (connectionId: string, payload: unknown): Promise<PostOutcome> => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 1));
      inFlight--;
      posted.push({ connectionId, payload });
      return options.outcomes?.[connectionId] ?? 'sent';
    },
  };
  return { deps, posted, deleted, maxInFlight: () => maxInFlight };
}

/** Plain users of company 1 reading by a colleague's mention: ticket 42 until 2099, ticket 43 ended. */
const readers = [
  conn('reader', { userId: 15, reading: { ticketId: 42, ref: '42', until: '2099-01-01T00:00:00.000Z' } }),
  conn('reader-ended', { userId: 16, reading: { ticketId: 43, ref: '43', until: '2020-01-01T00:00:00.000Z' } }),
];

const recipients = (posted: { connectionId: string }[]) => posted.map((p) => p.connectionId).sort();

describe('audience', () => {
  it.each([
    ["a mention's reader, while the mention lasts", 42, ['reader']],
    ["a mention's reader after it ended: nobody", 43, []],
    ['a ticket nobody reads by a mention', 44, []],
  ])('%s', (_name, ticketId, expected) => {
    const all = [...sockets, ...readers].filter((s) => s.companyId === 1);
    expect(all.filter((s) => matches(audience.reader(ticketId), s)).map((s) => s.connectionId)).toEqual(expected);
  });

  const cases: [string, Audience, string[]][] = [
    ['company', audience.company, ['admin', 'all-ticket', 'sales-a', 'sales-a-phone', 'super', 'support']],
    ['admins (profile admin or super)', audience.admins, ['admin', 'super']],
    ['one user, all their sockets', audience.user(11), ['sales-a', 'sales-a-phone']],
    ['several users', audience.users([12, 13]), ['all-ticket', 'support']],
    ['queue members', audience.queue(2), ['support']],
    ['no queue, pending: allTicket users', audience.queue(null, 'pending'), ['all-ticket']],
    ['no queue, open: nobody by membership', audience.queue(null, 'open'), []],
    ['allOf narrows', audience.allOf(audience.queue(1), audience.user(11)), ['sales-a', 'sales-a-phone']],
  ];
  it.each(cases)('%s', (_name, target, expected) => {
    const company1 = sockets.filter((s) => s.companyId === 1);
    expect(
      company1
        .filter((s) => matches(target, s))
        .map((s) => s.connectionId)
        .sort(),
    ).toEqual(expected);
  });

  it('ticketViewers: admins, the queue, and the assigned user (SPEC 6)', () => {
    const company1 = sockets.filter((s) => s.companyId === 1);
    const viewers = (t: Parameters<typeof ticketViewers>[0]) =>
      company1
        .filter((s) => matches(ticketViewers(t), s))
        .map((s) => s.connectionId)
        .sort();
    expect(viewers({ status: 'open', queueId: 2, userId: null })).toEqual(['admin', 'super', 'support']);
    expect(viewers({ status: 'open', queueId: 2, userId: 11 })).toEqual(['admin', 'sales-a', 'sales-a-phone', 'super', 'support']);
    expect(viewers({ status: 'pending', queueId: null, userId: null })).toEqual(['admin', 'all-ticket', 'super']);
    expect(viewers({ status: 'open', queueId: null, userId: null })).toEqual(['admin', 'super']);
  });

  it('accepts a predicate as a filter', () => {
    expect(matches((c) => c.userId === 12, sockets[3]!)).toBe(true);
    expect(matches((c) => c.userId === 12, sockets[0]!)).toBe(false);
  });
});

describe('publisher', () => {
  it('publishToCompany sends {event, data} to every socket of that tenant only', async () => {
    // Prepare
    const { deps, posted } = fakeDeps();
    const publisher = createPublisher(deps);
    // Act
    const result = await publisher.publishToCompany(1, 'company-1-ticket', { action: 'update', ticket: { id: 5 } });
    // Assess
    expect(recipients(posted)).toEqual(['admin', 'all-ticket', 'sales-a', 'sales-a-phone', 'super', 'support']);
    expect(posted[0]!.payload).toEqual({ event: 'company-1-ticket', data: { action: 'update', ticket: { id: 5 } } });
    expect(result).toEqual({ sent: 6, gone: 0, failed: 0 });
  });

  it('publishToCompany narrows with a filter', async () => {
    const { deps, posted } = fakeDeps();
    await createPublisher(deps).publishToCompany(1, 'company-1-user', {}, audience.admins);
    expect(recipients(posted)).toEqual(['admin', 'super']);
  });

  it('publishToUser reaches every socket of the user in that tenant, not a same-id user elsewhere', async () => {
    const { deps, posted } = fakeDeps();
    await createPublisher(deps).publishToUser(1, 10, 'company-1-auth', { action: 'update' });
    expect(recipients(posted)).toEqual(['admin']);
  });

  it('ignores a record of another tenant even if the store returned it', async () => {
    const { deps, posted } = fakeDeps();
    deps.listCompanyConnections = async () => sockets;
    await createPublisher(deps).publishToCompany(1, 'company-1-ticket', {});
    expect(recipients(posted)).not.toContain('other-tenant');
  });

  it('publishToAll reaches every tenant', async () => {
    const { deps, posted } = fakeDeps();
    await createPublisher(deps).publishToAll('company-announcement', { action: 'create' });
    expect(recipients(posted)).toEqual(sockets.map((s) => s.connectionId).sort());
  });

  it('stops sending to a socket once the token it connected with has expired, whatever the audience', async () => {
    // Prepare: the admin's second socket connected with a token that has since expired (its client stopped pinging)
    const { deps, posted } = fakeDeps();
    const expired = conn('admin-stale', { userId: 10, profile: 'admin', tokenExpiresAt: Math.floor(Date.now() / 1000) - 1 });
    deps.listCompanyConnections = async (companyId: number) => [...sockets, expired].filter((s) => s.companyId === companyId);
    deps.listAllConnections = async () => [...sockets, expired];
    const publisher = createPublisher(deps);
    // Act
    await publisher.publishToCompany(1, 'company-1-ticket', {});
    await publisher.publishToUser(1, 10, 'company-1-auth', {});
    await publisher.publishToAll('company-announcement', {});
    // Assess: the admin's live socket got all three, the stale one none
    expect(posted.filter((p) => p.connectionId === 'admin')).toHaveLength(3);
    expect(posted.filter((p) => p.connectionId === 'admin-stale')).toEqual([]);
  });

  it('deletes connections that answer 410 Gone and counts failures', async () => {
    const { deps, deleted } = fakeDeps({ outcomes: { 'sales-a-phone': 'gone', support: 'failed' } });
    const result = await createPublisher(deps).publishToCompany(1, 'company-1-ticket', {});
    expect(deleted).toEqual(['sales-a-phone']);
    expect(result).toEqual({ sent: 4, gone: 1, failed: 1 });
  });

  it('keeps a socket that answers 410 while it may still be in its $connect (API Gateway refuses posts before the open)', async () => {
    // Prepare: a colleague's socket whose record was written a second ago, and an older one
    const connecting = conn('connecting', { userId: 15, connectedAt: new Date(Date.now() - 1_000).toISOString() });
    const old = conn('old', { userId: 16, connectedAt: new Date(Date.now() - CONNECTING_GRACE_MS - 1_000).toISOString() });
    const deleted: string[] = [];
    const publisher = createPublisher({
      listCompanyConnections: async () => [connecting, old],
      listAllConnections: async () => [connecting, old],
      deleteConnection: async (_companyId, connectionId) => {
        deleted.push(connectionId);
      },
      post: async () => 'gone',
    });
    // Act
    const result = await publisher.publishToCompany(1, 'company-1-presence', {});
    // Assess: both count as not delivered; only the old one's record goes
    expect(result).toEqual({ sent: 0, gone: 2, failed: 0 });
    expect(deleted).toEqual(['old']);
  });

  it('never throws at the caller when storage fails', async () => {
    const { deps } = fakeDeps({ failList: true });
    await expect(createPublisher(deps).publishToCompany(1, 'company-1-ticket', {})).resolves.toEqual({ sent: 0, gone: 0, failed: 1 });
  });

  it('keeps at most PUBLISH_CONCURRENCY posts in flight', async () => {
    const { deps, posted, maxInFlight } = fakeDeps();
    const many = Array.from({ length: 100 }, (_, i) => conn(`c${i}`));
    deps.listCompanyConnections = async () => many;
    await createPublisher(deps).publishToCompany(1, 'company-1-ticket', {});
    expect(posted).toHaveLength(100);
    expect(maxInFlight()).toBe(PUBLISH_CONCURRENCY);
  });
});

describe('createSnapshotPublisher (one unit of work, e.g. an inbound batch)', () => {
  it('queries each tenant once and still targets each event by its own audience', async () => {
    // Prepare
    const { deps, posted } = fakeDeps();
    const queried: number[] = [];
    const counted = {
      ...deps,
      listCompanyConnections: (companyId: number) => {
        queried.push(companyId);
        return deps.listCompanyConnections(companyId);
      },
    };
    const publisher = createSnapshotPublisher(counted);
    // Act
    await Promise.all([publisher.publish(1, 'e1', {}, audience.queue(2)), publisher.publish(1, 'e2', {}, audience.user(11))]);
    await publisher.publish(2, 'e3', {}, audience.company);
    // Assess
    expect(queried).toEqual([1, 2]);
    expect(recipients(posted)).toEqual(['other-tenant', 'sales-a', 'sales-a-phone', 'support']);
  });

  it('forgets a failed query so the next event queries again', async () => {
    let calls = 0;
    const { deps } = fakeDeps();
    const publisher = createSnapshotPublisher({
      ...deps,
      listCompanyConnections: async (companyId: number) => {
        if (++calls === 1) throw new Error('DynamoDB down');
        return deps.listCompanyConnections(companyId);
      },
    });
    expect(await publisher.publish(1, 'e', {}, audience.company)).toEqual({ sent: 0, gone: 0, failed: 1 });
    expect((await publisher.publish(1, 'e', {}, audience.company)).sent).toBe(6);
  });
});

describe('mapWithConcurrency', () => {
  it('keeps the order of results', async () => {
    const out = await mapWithConcurrency([30, 10, 20], 2, async (ms) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return ms * 2;
    });
    expect(out).toEqual([60, 20, 40]);
  });

  it('handles an empty list', async () => {
    expect(await mapWithConcurrency([], 4, async (x) => x)).toEqual([]);
  });
});
