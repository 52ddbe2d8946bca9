/**
 * Sends `{ event, data }` to the sockets that should see it. Every handler that changes something
 * the inbox shows calls one of these after its write.
 *
 * One publish = the tenant's connections (pk C#<id>, sk begins_with WSCONN#; queried again only when
 * its roster mark moved, storage/ws-connections.ts listCompanyConnectionsCached), an in-memory
 * audience filter, then PostToConnection with bounded concurrency. Connections that answer 410 Gone
 * are deleted (createSnapshotPublisher: one read per tenant per unit of work). Publishing never
 * throws: a socket problem must not fail the request that already wrote its change; the outcome is
 * returned for logs and tests.
 *
 * Who gets a ticket's events (`company-{id}-ticket`, `company-{id}-appMessage`), the rule every
 * publisher of them follows (domain/tickets/publish.ts ticketAudience, notify.ts):
 *   - the ticket's viewers as it is AFTER the change, `ticketViewers` (SPEC 6, the same rule as
 *     domain/tickets/access.ts canSeeTicket): admins and super users; members of its queue; its
 *     attendant; for a pending ticket without a queue, users with allTicket enabled. Nobody else,
 *     and never another tenant. Joins never widen this: a socket that joined a ticket's chat box
 *     (joinChatBox) or a list (joinTickets) gets nothing of a ticket its user may not see, except
 *     the one a colleague's mention lets its user read: its messages (`appMessage`, not the ticket's
 *     `update`, which would place it in their lists) while the mention lasts (audience `reader`).
 *   - `update` carries the whole ticket once per change (an action that also posts messages sends
 *     their `appMessage` create first, then the one `update`); the client places it in or out of
 *     each list by status, queue selection and owner (SPEC 4 "A ticket leaves a list when its
 *     status no longer matches, when its queue is not among the selected queues").
 *   - `delete` goes to the sockets that could see the ticket BEFORE the change and cannot after it
 *     (transferred to a queue they are not in, given a queue while they saw it as allTicket, taken
 *     from them), and to all its viewers when it is deleted: they never receive the `update`, so
 *     this is what drops it from their lists and closes its conversation.
 *   - `updateUnread` goes to the ticket's viewers when someone opens it.
 * A socket's entitlement (profile, queues, allTicket) is the one recorded at $connect.
 */

import { env } from '#commons/env';
import { logger } from '#commons/logger';
import type { ServerEvent } from '#contracts/channels';
import type { ConnectionRecord } from '#storage/ws-connections';
import * as connections from '#storage/ws-connections';
import { type Audience, type AudienceFilter, audience, matches } from './audience.ts';
import { mapWithConcurrency } from './concurrency.ts';
import { enqueueFanout } from './fanout.ts';
import { type PostOutcome, postToConnection } from './management.ts';
import { createOutbox, type PublishResult, type SendFrames } from './outbox.ts';

/** In flight PostToConnection calls per publish; API Gateway's management API throttles bursts. */
export const PUBLISH_CONCURRENCY = 16;

export type { PublishResult };

export interface PublisherDeps {
  listCompanyConnections(companyId: number): Promise<ConnectionRecord[]>;
  listAllConnections(): Promise<ConnectionRecord[]>;
  deleteConnection(companyId: number, connectionId: string): Promise<void>;
  post(connectionId: string, payload: unknown): Promise<PostOutcome>;
  /** Where a big tenant's frames go instead of `post` (fanout.ts); without it every frame is posted here. */
  fanout?: SendFrames;
  /** Sockets open in a tenant above which its frames take `fanout`. */
  fanoutThreshold?: number;
}

export interface Publisher {
  publish(companyId: number, event: string, data: unknown, target: AudienceFilter): Promise<PublishResult>;
  publishToCompany(companyId: number, event: string, data: unknown, filter?: AudienceFilter): Promise<PublishResult>;
  publishToUser(companyId: number, userId: number, event: string, data: unknown): Promise<PublishResult>;
  publishToAll(event: string, data: unknown): Promise<PublishResult>;
}

const sum = (a: PublishResult, b: PublishResult): PublishResult => {
  const queued = (a.queued ?? 0) + (b.queued ?? 0);
  return { sent: a.sent + b.sent, gone: a.gone + b.gone, failed: a.failed + b.failed, ...(queued ? { queued } : {}) };
};

/**
 * Sends frames: a big tenant's (more sockets open than the threshold: its size as its socket list
 * read, `sizes`, or as this send holds them) through `deps.fanout`, the others posted here.
 */
function frameSender(deps: PublisherDeps, sizes: Map<number, number>): SendFrames {
  const post = postSender(deps);
  const { fanout, fanoutThreshold } = deps;
  if (!fanout || fanoutThreshold === undefined) return post;
  return async (deliveries) => {
    const held = new Map<number, number>();
    for (const { connection } of deliveries) held.set(connection.companyId, (held.get(connection.companyId) ?? 0) + 1);
    const big = (companyId: number) => Math.max(sizes.get(companyId) ?? 0, held.get(companyId) ?? 0) > fanoutThreshold;
    const queued = deliveries.filter((delivery) => big(delivery.connection.companyId));
    if (!queued.length) return post(deliveries);
    const direct = deliveries.filter((delivery) => !big(delivery.connection.companyId));
    const [posted, fannedOut] = await Promise.all([post(direct), fanout(queued)]);
    return sum(posted, fannedOut);
  };
}

/**
 * How long after its record is written a socket may still be inside its $connect: API Gateway
 * answers 410 to a post to a connection it has not finished opening (the integration may take up
 * to 29 s), so such a 410 says "not yet", not "gone".
 */
export const CONNECTING_GRACE_MS = 30_000;

const mayStillBeConnecting = (connection: ConnectionRecord, now: number): boolean =>
  now - Date.parse(connection.connectedAt) < CONNECTING_GRACE_MS;

/**
 * Posts one frame per delivery with bounded concurrency; a socket that answers 410 is deleted,
 * unless it may still be connecting (a publish during a colleague's $connect, presence's among them,
 * would otherwise delete the record of a socket about to open, and it would never get an event).
 */
export function postSender(deps: Pick<PublisherDeps, 'post' | 'deleteConnection'>): SendFrames {
  return async (deliveries) => {
    const outcomes = await mapWithConcurrency(deliveries, PUBLISH_CONCURRENCY, async ({ connection, payload }) => {
      const outcome = await deps.post(connection.connectionId, payload);
      if (outcome === 'gone' && !mayStillBeConnecting(connection, Date.now())) {
        await deps.deleteConnection(connection.companyId, connection.connectionId).catch((error: unknown) => {
          logger.warn('could not delete a gone connection', { connectionId: connection.connectionId, error: error as Error });
        });
      }
      return outcome;
    });
    const result: PublishResult = { sent: 0, gone: 0, failed: 0 };
    for (const outcome of outcomes) result[outcome]++;
    return result;
  };
}

type Deliver = (targets: ConnectionRecord[], message: ServerEvent) => Promise<PublishResult>;

/**
 * `options.deliver` replaces the sending (an outbox); `options.sizes` receives each tenant's socket
 * count as listed, which decides its path (frameSender).
 */
export function createPublisher(deps: PublisherDeps, options: { deliver?: Deliver; sizes?: Map<number, number> } = {}): Publisher {
  const sizes = options.sizes ?? new Map<number, number>();
  const send = frameSender(deps, sizes);
  const deliverEach: Deliver =
    options.deliver ?? ((targets, message) => send(targets.map((connection) => ({ connection, payload: message }))));

  async function guarded(what: string, run: () => Promise<PublishResult>): Promise<PublishResult> {
    try {
      return await run();
    } catch (error) {
      logger.error('publish failed', { what, error: error as Error });
      return { sent: 0, gone: 0, failed: 1 };
    }
  }

  const publish: Publisher['publish'] = (companyId, event, data, target) =>
    guarded(event, async () => {
      const all = await deps.listCompanyConnections(companyId);
      sizes.set(companyId, all.length);
      // The tenant check is repeated on each record: the Query is already scoped, this keeps a
      // mis-keyed item from ever leaking an event across tenants.
      // Only sockets whose token is still valid (hasLiveToken): an expired one gets nothing.
      const now = connections.nowSeconds();
      const targets = all.filter(
        (connection) => connection.companyId === companyId && connections.hasLiveToken(connection, now) && matches(target, connection),
      );
      return deliverEach(targets, { event, data });
    });

  return {
    publish,
    publishToCompany: (companyId, event, data, filter) => publish(companyId, event, data, filter ?? audience.company),
    publishToUser: (companyId, userId, event, data) => publish(companyId, event, data, audience.user(userId)),
    publishToAll: (event, data) =>
      guarded(event, async () => {
        const now = connections.nowSeconds();
        return deliverEach(
          (await deps.listAllConnections()).filter((connection) => connections.hasLiveToken(connection, now)),
          { event, data },
        );
      }),
  };
}

const defaultDeps: PublisherDeps = {
  listCompanyConnections: connections.listCompanyConnectionsCached,
  listAllConnections: connections.listAllConnections,
  deleteConnection: connections.deleteConnection,
  post: postToConnection,
  fanout: enqueueFanout,
  get fanoutThreshold() {
    return env.realtimeFanoutThreshold;
  },
};

const defaultPublisher = createPublisher(defaultDeps);

/** A publisher for one unit of work; `flush` posts what it still holds and must be awaited before the unit ends. */
export interface UnitPublisher extends Publisher {
  flush(): Promise<PublishResult>;
}

/**
 * A publisher for one short unit of work (an SQS batch of the inbound pipeline) that queries each
 * tenant's socket connections once and reuses that list for every event it publishes: an inbound
 * message publishes two or more events, and a batch up to ten messages. A socket that connects
 * while the unit runs (well under a second) misses its events, as it would had the Query run just
 * before it connected; a socket that went away answers 410 and is deleted as usual. Not for
 * long-lived use: build one per unit.
 *
 * With `coalesceMs` the events go through an outbox (outbox.ts): each socket gets one frame per
 * window instead of one per event, a publish resolves once its event is queued (`queued`), and the
 * unit awaits `flush()` before it ends or marks anything as delivered.
 */
export function createSnapshotPublisher(deps: PublisherDeps = defaultDeps, options: { coalesceMs?: number } = {}): UnitPublisher {
  const known = new Map<number, Promise<ConnectionRecord[]>>();
  const snapshot: PublisherDeps = {
    ...deps,
    listCompanyConnections(companyId) {
      const hit = known.get(companyId);
      if (hit) return hit;
      const read = deps.listCompanyConnections(companyId);
      known.set(companyId, read);
      read.catch(() => known.delete(companyId));
      return read;
    },
  };
  if (options.coalesceMs === undefined) return { ...createPublisher(snapshot), flush: async () => ({ sent: 0, gone: 0, failed: 0 }) };
  const sizes = new Map<number, number>();
  const outbox = createOutbox(frameSender(deps, sizes), options.coalesceMs);
  const publisher = createPublisher(snapshot, {
    sizes,
    deliver: async (targets, message) => {
      outbox.add(targets, message);
      return { sent: 0, gone: 0, failed: 0, queued: targets.length };
    },
  });
  return { ...publisher, flush: outbox.flush };
}

/** To an audience within one tenant (see audience.ts; `ticketViewers(ticket)` for ticket events). */
export const publish = defaultPublisher.publish;
/** To every socket of the tenant, optionally narrowed by an audience or predicate. */
export const publishToCompany = defaultPublisher.publishToCompany;
/** To every socket of one user (all their tabs/devices). */
export const publishToUser = defaultPublisher.publishToUser;
/** To the sockets that joined this ticket's chat box (joinChatBox). */
/** To every socket of every tenant: `company-announcement` only (see the cost note in ws-connections.ts). */
export const publishToAll = defaultPublisher.publishToAll;

export { audience, ticketViewers } from './audience.ts';
export type { Audience, AudienceFilter };
