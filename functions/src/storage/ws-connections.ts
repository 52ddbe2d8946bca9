/**
 * WebSocket connections (API Gateway WebSocket connection ids) and what each one may receive.
 *
 * Keys:
 *   pk = C#<companyId>          sk = WSCONN#<connectionId>    a tenant's connections: queried when its roster mark moved
 *   gsi1pk = WSCONN#<connId>    gsi1sk = WSCONN               by connection id: $disconnect and client
 *                                                             messages carry only the connection id
 *   gsi2pk = WSCONN#<shard>     gsi2sk = C#<companyId>#<connId>  every connection of every tenant,
 *                                                             in ALL_SHARDS shards by a hash of the
 *                                                             connection id: `company-announcement` only
 *   gsi3pk = C#<companyId>#WSU#<userId>  gsi3sk = WSCONN#<connId>  one user's sockets: $disconnect
 *                                                             asks whether the user is still online
 *
 * Denormalised: profile, super, queueIds and allTicket are copied from the user at $connect so a
 * publish filters its audience without reading users. A change to a user's queues reaches their
 * sockets on the next connect (the web client reconnects when the user changes).
 *
 * Cost: every write of a connection (connect, userStatus, a mention reader's chat box) is also
 * written to the three GSIs, so a connection write costs 4 WCU instead of 1. gsi2 holds every connection of the
 * platform: one partition key would take every connect and disconnect of a region, and 100k sockets
 * dropped at once (a deploy, a network blip) write their deletes far faster than a partition's
 * 1,000 writes/s, throttling the base table's writes behind it (issue 15). Sharded, a mass reconnect
 * at API Gateway's 500 new connections/s puts about 500 / ALL_SHARDS writes a second on each; the
 * announcement's Query reads the shards in parallel (and the unsharded key of sockets connected
 * before the shards, for their last 2 hours). gsi3 lets $disconnect read the user's sockets instead
 * of the whole tenant's: a tenant of n sockets dropped at once read n x n items before.
 *
 * Rooms are not stored: a socket gets what its user may see (realtime/publisher.ts), so the list and
 * notification joins change nothing. The one thing a join adds is a mention reader's open conversation
 * (`reading`, realtime/socket-session.ts joinChatBox): one attribute a new join replaces, written only
 * for a ticket its user reads by a colleague's mention, never for one they see anyway.
 *
 * `expiresAt` is the DynamoDB TTL: a connection whose $disconnect never ran (Lambda error, region
 * hiccup) disappears on its own. TTL deletion is lazy, so readers also skip expired items.
 *
 *   pk = C#<companyId>          sk = WSROSTER                 { v }: the tenant's roster mark
 *
 * The roster mark counts the changes of what a publish filters on: a socket connected or gone, its
 * viewer or its reading changed (each write below moves it just after its own). A publisher reads it
 * (a point read, in the same BatchGetItem as an inbound message's own reads) and queries the sockets
 * again only when it moved (listCompanyConnectionsCached): one Query per change of the tenant's
 * sockets, not one per event. Heartbeats (`userStatus`) leave it: a publish does not filter on them,
 * presence reads the sockets itself. A mark lost after its write (the Lambda died between the two,
 * or the mark's item was throttled in a mass reconnect) is caught up by the next mark that moves,
 * or within ROSTER_TTL_MS.
 */
import { createHash } from 'node:crypto';
import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { logger } from '#commons/logger';
import type { SocketStatus } from '#contracts/presence';
import type { AllTicket, Profile } from '#contracts/users';
import { getItemBatched } from './batch-get.ts';
import { db, table, updateIf } from './db.ts';
import { readCache } from './read-cache.ts';
import { tenantPk } from './table.ts';

/**
 * A socket lives at most 2 h in API Gateway (and in the local gateway): the TTL written at $connect
 * outlasts it, so no later message needs to extend it (a write per socket every few minutes saved).
 */
export const CONNECTION_TTL_SECONDS = 2 * 60 * 60;

const ENTITY = 'WsConnection';
const SK_PREFIX = 'WSCONN#';
const ALL_CONNECTIONS_PK = 'WSCONN';
/** Shards of gsi2 (every connection of the platform). */
export const ALL_SHARDS = 16;
const allConnectionsShard = (connectionId: string): string =>
  `${ALL_CONNECTIONS_PK}#${createHash('sha1').update(connectionId).digest().readUInt16BE(0) % ALL_SHARDS}`;
const userSocketsPk = (companyId: number, userId: number): string => `${tenantPk(companyId)}#WSU#${userId}`;

export interface ConnectionRecord {
  connectionId: string;
  companyId: number;
  userId: number;
  profile: Profile;
  super: boolean;
  queueIds: number[];
  allTicket: AllTicket;
  /**
   * The conversation the socket has open (joinChatBox) when its user reads it by a mention and not as
   * one of its viewers: its messages reach the socket until the mention's grant ends (`until`, ISO).
   */
  reading?: Reading;
  /** `exp` of the token the socket was opened with (epoch seconds). */
  tokenExpiresAt: number;
  /** The session the socket's token belongs to (`iat`, `jti`, `origin_jti`): a newer sign-in or a logout closes it. */
  tokenIssuedAt: number;
  tokenJti: string;
  tokenOrigin: string;
  connectedAt: string;
  /**
   * The socket's last heartbeat as stored: $connect and each `userStatus`. Presence trusts it while
   * fresh, and asks API Gateway for the socket's own activity (its pings) once it is not
   * (domain/users/presence.ts).
   */
  lastSeenAt: string;
  /** What the socket last said of its user (`userStatus`): online until it says away. */
  status: SocketStatus;
  /** TTL, epoch seconds. */
  expiresAt: number;
}

export interface Reading {
  ticketId: number;
  /** How the client named it (a ticket id or uuid), so its leaveChatBox matches. */
  ref: string;
  until: string;
}

export type NewConnection = Omit<ConnectionRecord, 'reading' | 'connectedAt' | 'lastSeenAt' | 'status' | 'expiresAt'>;

/** Epoch seconds, the unit of `expiresAt` and `tokenExpiresAt`. */
export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/**
 * The token the socket connected with is still valid at `now`: the publisher sends it events only
 * then. Its own next message to the Lambda (userStatus, every 5 minutes) closes it once the token
 * expired, but a client that sends nothing would otherwise keep receiving its company's events until
 * API Gateway's 2 h limit. The web client moves to a new socket a minute before expiry.
 */
export const hasLiveToken = (record: ConnectionRecord, now = nowSeconds()): boolean => record.tokenExpiresAt > now;
const keyOf = (companyId: number, connectionId: string) => ({ pk: tenantPk(companyId), sk: `${SK_PREFIX}${connectionId}` });

function readingOf(value: unknown): Reading | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const { ticketId, ref, until } = value as Record<string, unknown>;
  return typeof ticketId === 'number' && typeof until === 'string' ? { ticketId, ref: String(ref ?? ticketId), until } : undefined;
}

function toRecord(item: Record<string, unknown>): ConnectionRecord {
  const reading = readingOf(item.reading);
  return {
    connectionId: String(item.connectionId),
    companyId: Number(item.companyId),
    userId: Number(item.userId),
    profile: item.profile as Profile,
    super: item.super === true,
    queueIds: Array.isArray(item.queueIds) ? item.queueIds.map(Number) : [],
    allTicket: item.allTicket === 'enabled' ? 'enabled' : 'desabled',
    ...(reading ? { reading } : {}),
    tokenExpiresAt: Number(item.tokenExpiresAt ?? 0),
    tokenIssuedAt: Number(item.tokenIssuedAt ?? 0),
    tokenJti: String(item.tokenJti ?? ''),
    tokenOrigin: String(item.tokenOrigin ?? ''),
    connectedAt: String(item.connectedAt ?? ''),
    lastSeenAt: String(item.lastSeenAt ?? ''),
    status: item.status === 'away' ? 'away' : 'online',
    expiresAt: Number(item.expiresAt ?? 0),
  };
}

const isLive = (record: ConnectionRecord): boolean => record.expiresAt > nowSeconds();

export async function putConnection(input: NewConnection): Promise<ConnectionRecord> {
  const now = new Date().toISOString();
  const record: ConnectionRecord = {
    ...input,
    connectedAt: now,
    lastSeenAt: now,
    status: 'online',
    expiresAt: nowSeconds() + CONNECTION_TTL_SECONDS,
  };
  await db().send(
    new PutCommand({
      TableName: table(),
      Item: {
        ...keyOf(input.companyId, input.connectionId),
        gsi1pk: `${SK_PREFIX}${input.connectionId}`,
        gsi1sk: ALL_CONNECTIONS_PK,
        gsi2pk: allConnectionsShard(input.connectionId),
        gsi2sk: `${tenantPk(input.companyId)}#${input.connectionId}`,
        gsi3pk: userSocketsPk(input.companyId, input.userId),
        gsi3sk: `${SK_PREFIX}${input.connectionId}`,
        entity: ENTITY,
        ...record,
      },
    }),
  );
  await moveRoster(input.companyId);
  return record;
}

/**
 * Finds a connection by id alone. gsi1 is eventually consistent: a message sent right after the
 * socket opened can race the $connect write's propagation, so a miss is retried briefly.
 */
export async function findConnection(connectionId: string, attempts = 3): Promise<ConnectionRecord | undefined> {
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const out = await db().send(
      new QueryCommand({
        TableName: table(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk = :sk',
        ExpressionAttributeValues: { ':pk': `${SK_PREFIX}${connectionId}`, ':sk': ALL_CONNECTIONS_PK },
      }),
    );
    const item = out.Items?.[0];
    if (item) {
      const record = toRecord(item);
      return isLive(record) ? record : undefined;
    }
    if (attempt < attempts) await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
  }
  return undefined;
}

async function queryConnections(input: {
  IndexName?: string;
  KeyConditionExpression: string;
  ExpressionAttributeValues: Record<string, unknown>;
  ConsistentRead?: boolean;
}): Promise<ConnectionRecord[]> {
  const records: ConnectionRecord[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const out = await db().send(new QueryCommand({ TableName: table(), ...input, ExclusiveStartKey }));
    for (const item of out.Items ?? []) {
      const record = toRecord(item);
      if (isLive(record)) records.push(record);
    }
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return records;
}

/** Every live connection of one tenant (one Query on the tenant's partition). */
export function listCompanyConnections(companyId: number, consistent = false): Promise<ConnectionRecord[]> {
  return queryConnections({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': tenantPk(companyId), ':prefix': SK_PREFIX },
    ...(consistent ? { ConsistentRead: true } : {}),
  });
}

const rosterKey = (companyId: number) => ({ pk: tenantPk(companyId), sk: 'WSROSTER' });
/** How long a container trusts a roster mark that has not moved (see the header: a lost mark). */
export const ROSTER_TTL_MS = 60_000;

/** By `<companyId>:<mark>`: a moved mark is a new key, read afresh (strongly, after the write that moved it). */
const rosters = readCache<string, ConnectionRecord[]>((key) => listCompanyConnections(Number(key.split(':')[0]), true), {
  ttlMs: ROSTER_TTL_MS,
  maxEntries: 2_000,
});

/**
 * The tenant's live connections for a publish: its roster mark read (batched with the turn's other
 * point reads), the sockets queried only when the mark moved since this container last did.
 */
export async function listCompanyConnectionsCached(companyId: number): Promise<ConnectionRecord[]> {
  const mark = await getItemBatched<{ v?: number }>(rosterKey(companyId));
  const all = await rosters.get(`${companyId}:${mark?.v ?? 0}`);
  return all.filter(isLive);
}

/**
 * Moves the tenant's roster mark: after every write that changes what a publish filters on. Never
 * fails the write it follows: one item takes every connect and leave of its tenant, so a mass
 * reconnect of a big one (API Gateway admits 500 connects a second) can throttle it, and a socket
 * refused for a counter would be worse than one seen late. A mark not moved is caught up by the
 * next one that is (a storm moves it often) or, at the latest, after ROSTER_TTL_MS.
 */
async function moveRoster(companyId: number): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: rosterKey(companyId),
        UpdateExpression: 'SET entity = :entity ADD v :one',
        ExpressionAttributeValues: { ':entity': 'WsRoster', ':one': 1 },
      }),
    );
  } catch (error) {
    logger.warn('socket roster mark not moved: publishes see the change at its next move', { companyId, error: error as Error });
  }
}

/** `written` and the roster moved when it was. */
async function movedIf(companyId: number, written: Promise<boolean>): Promise<boolean> {
  if (!(await written)) return false;
  await moveRoster(companyId);
  return true;
}

/** A user's live sockets (gsi3; eventually consistent, like every GSI read). */
export function listUserConnections(companyId: number, userId: number): Promise<ConnectionRecord[]> {
  return queryConnections({
    IndexName: 'gsi3',
    KeyConditionExpression: 'gsi3pk = :pk',
    ExpressionAttributeValues: { ':pk': userSocketsPk(companyId, userId) },
  });
}

/** Every live connection of every tenant (gsi2's shards in parallel; see the cost note above). */
export async function listAllConnections(): Promise<ConnectionRecord[]> {
  // The unsharded key holds the sockets connected before the shards, until their 2 hours end.
  const partitions = [ALL_CONNECTIONS_PK, ...Array.from({ length: ALL_SHARDS }, (_, shard) => `${ALL_CONNECTIONS_PK}#${shard}`)];
  const shards = await Promise.all(
    partitions.map((pk) =>
      queryConnections({ IndexName: 'gsi2', KeyConditionExpression: 'gsi2pk = :pk', ExpressionAttributeValues: { ':pk': pk } }),
    ),
  );
  return shards.flat();
}

export async function deleteConnection(companyId: number, connectionId: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: table(), Key: keyOf(companyId, connectionId) }));
  await moveRoster(companyId);
}

/**
 * joinChatBox of a ticket read by a mention: the socket's open conversation, replacing the previous
 * one, only while the item exists (a late join after $disconnect never resurrects a half item).
 */
export function setReading(companyId: number, connectionId: string, reading: Reading): Promise<boolean> {
  return movedIf(companyId, conditionalUpdate(companyId, connectionId, 'SET reading = :reading', { ':reading': reading }));
}

/**
 * leaveChatBox, or a join of another conversation: clears the reading only if it is still of
 * `ticketId` (a late leave of an older chat box must not close the newer one).
 */
export async function clearReading(companyId: number, connectionId: string, ticketId: number): Promise<void> {
  const cleared = updateIf({
    Key: keyOf(companyId, connectionId),
    UpdateExpression: 'REMOVE reading',
    ConditionExpression: 'attribute_exists(pk) AND reading.ticketId = :ticketId',
    ExpressionAttributeValues: { ':ticketId': ticketId },
  });
  await movedIf(companyId, cleared);
}

/**
 * `userStatus`: the socket's heartbeat and what it says of its user. Only while the item exists (a
 * late message after $disconnect writes nothing); false when the connection is gone.
 */
export function setConnectionStatus(companyId: number, connectionId: string, status: SocketStatus, seenAt: string): Promise<boolean> {
  return conditionalUpdate(
    companyId,
    connectionId,
    'SET #status = :status, lastSeenAt = :seenAt',
    { ':status': status, ':seenAt': seenAt },
    {
      '#status': 'status',
    },
  );
}

/**
 * The user's profile, queues or allTicket changed: the socket's copy (what the publisher filters
 * on) follows, so the socket's entitlement is the user's now, not the one at $connect.
 */
export function setConnectionViewer(
  companyId: number,
  connectionId: string,
  viewer: Pick<ConnectionRecord, 'profile' | 'super' | 'queueIds' | 'allTicket'>,
): Promise<boolean> {
  const written = updateIf({
    Key: keyOf(companyId, connectionId),
    UpdateExpression: 'SET #profile = :profile, #super = :super, #queueIds = :queueIds, #allTicket = :allTicket',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeNames: { '#profile': 'profile', '#super': 'super', '#queueIds': 'queueIds', '#allTicket': 'allTicket' },
    ExpressionAttributeValues: {
      ':profile': viewer.profile,
      ':super': viewer.super,
      ':queueIds': viewer.queueIds,
      ':allTicket': viewer.allTicket,
    },
  });
  return movedIf(companyId, written);
}

/** An update of the connection only while its item exists (a late message after $disconnect writes nothing). */
function conditionalUpdate(
  companyId: number,
  connectionId: string,
  UpdateExpression: string,
  ExpressionAttributeValues: Record<string, unknown>,
  ExpressionAttributeNames?: Record<string, string>,
): Promise<boolean> {
  return updateIf({
    Key: keyOf(companyId, connectionId),
    UpdateExpression,
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues,
    ...(ExpressionAttributeNames ? { ExpressionAttributeNames } : {}),
  });
}
