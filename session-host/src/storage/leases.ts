/**
 * Session leases: which host runs which WhatsApp session.
 *   lease   pk = C#<companyId>   sk = WALEASE#<padded connectionId>
 *           gsi2pk = WALEASE     gsi2sk = <padded companyId>#<padded connectionId>
 *           { companyId, connectionId, wanted, owner?, leaseUntil (epoch ms), heartbeatAt }
 * gsi2 serves "every lease across tenants" for the hosts' takeover scan (a handful of items per
 * connection, so one partition is fine well beyond the sessions a fleet of hosts can hold).
 * `wanted` says the session should be running (start / new QR set it, logout and a session that
 * ended clear it); `owner` + `leaseUntil` say who runs it. Every transition is a conditional write,
 * so two hosts can never both believe they own a session past one lease period.
 */
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionalCheckFailed, table } from '@conversa/functions/storage/db';
import { pad, tenantPk } from '@conversa/functions/storage/table';

export interface Lease {
  companyId: number;
  connectionId: number;
  wanted: boolean;
  owner?: string;
  leaseUntil: number;
  heartbeatAt?: number;
}

export interface SessionKey {
  companyId: number;
  connectionId: number;
}

const GSI_PK = 'WALEASE';
const leaseKey = ({ companyId, connectionId }: SessionKey) => ({ pk: tenantPk(companyId), sk: `WALEASE#${pad(connectionId)}` });

/** True when someone other than `hostId` holds a lease that has not run out. */
export function heldByOther(lease: Lease | undefined, hostId: string, now: number): boolean {
  return Boolean(lease?.owner && lease.owner !== hostId && lease.leaseUntil > now);
}

export function isFree(lease: Lease, now: number): boolean {
  return !lease.owner || lease.leaseUntil <= now;
}

function toLease(item: Record<string, unknown>): Lease {
  return {
    companyId: Number(item.companyId),
    connectionId: Number(item.connectionId),
    wanted: item.wanted === true,
    owner: typeof item.owner === 'string' ? item.owner : undefined,
    leaseUntil: Number(item.leaseUntil ?? 0),
    heartbeatAt: item.heartbeatAt === undefined ? undefined : Number(item.heartbeatAt),
  };
}

async function conditional(run: () => Promise<unknown>): Promise<boolean> {
  try {
    await run();
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}

export async function getLease(key: SessionKey): Promise<Lease | undefined> {
  const out = await db().send(new GetCommand({ TableName: table(), Key: leaseKey(key), ConsistentRead: true }));
  return out.Item ? toLease(out.Item) : undefined;
}

/** The session should run (start, new QR). Creates the lease record on first use. */
export async function markWanted(key: SessionKey): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: table(),
      Key: leaseKey(key),
      UpdateExpression:
        'SET wanted = :t, companyId = :c, connectionId = :n, gsi2pk = :g, gsi2sk = :s, leaseUntil = if_not_exists(leaseUntil, :zero)',
      ExpressionAttributeValues: {
        ':t': true,
        ':c': key.companyId,
        ':n': key.connectionId,
        ':g': GSI_PK,
        ':s': `${pad(key.companyId)}#${pad(key.connectionId)}`,
        ':zero': 0,
      },
    }),
  );
}

/**
 * The session should not run (logout, ended). `onlyIfUnheldBy` guards the case where the caller does
 * not own the lease: it succeeds only while nobody else holds it. Returns false when refused.
 */
export function markUnwanted(key: SessionKey, opts: { hostId: string; now: number }): Promise<boolean> {
  return conditional(() =>
    db().send(
      new UpdateCommand({
        TableName: table(),
        Key: leaseKey(key),
        UpdateExpression: 'SET wanted = :f, leaseUntil = :zero REMOVE #owner',
        ConditionExpression: 'attribute_not_exists(#owner) OR #owner = :me OR leaseUntil <= :now',
        ExpressionAttributeNames: { '#owner': 'owner' },
        ExpressionAttributeValues: { ':f': false, ':zero': 0, ':me': opts.hostId, ':now': opts.now },
      }),
    ),
  );
}

/** Takes a wanted session that is free (never owned, released, or expired) or already ours. */
export function acquire(key: SessionKey, opts: { hostId: string; now: number; leaseMs: number }): Promise<boolean> {
  return conditional(() =>
    db().send(
      new UpdateCommand({
        TableName: table(),
        Key: leaseKey(key),
        UpdateExpression: 'SET #owner = :me, leaseUntil = :until, heartbeatAt = :now',
        ConditionExpression: 'wanted = :t AND (attribute_not_exists(#owner) OR #owner = :me OR leaseUntil <= :now)',
        ExpressionAttributeNames: { '#owner': 'owner' },
        ExpressionAttributeValues: { ':me': opts.hostId, ':until': opts.now + opts.leaseMs, ':now': opts.now, ':t': true },
      }),
    ),
  );
}

/** Extends our lease. False means it is no longer ours (taken over, or no longer wanted): stop at once. */
export function heartbeat(key: SessionKey, opts: { hostId: string; now: number; leaseMs: number }): Promise<boolean> {
  return conditional(() =>
    db().send(
      new UpdateCommand({
        TableName: table(),
        Key: leaseKey(key),
        UpdateExpression: 'SET leaseUntil = :until, heartbeatAt = :now',
        ConditionExpression: '#owner = :me AND wanted = :t',
        ExpressionAttributeNames: { '#owner': 'owner' },
        ExpressionAttributeValues: { ':me': opts.hostId, ':until': opts.now + opts.leaseMs, ':now': opts.now, ':t': true },
      }),
    ),
  );
}

/** Gives the session up (shutdown) while keeping it wanted, so another host takes it at its next scan. */
export function release(key: SessionKey, hostId: string): Promise<boolean> {
  return conditional(() =>
    db().send(
      new UpdateCommand({
        TableName: table(),
        Key: leaseKey(key),
        UpdateExpression: 'SET leaseUntil = :zero REMOVE #owner',
        ConditionExpression: '#owner = :me',
        ExpressionAttributeNames: { '#owner': 'owner' },
        ExpressionAttributeValues: { ':me': hostId, ':zero': 0 },
      }),
    ),
  );
}

/** Every wanted lease of every tenant (the takeover scan). Read from gsi2, so it may lag a write briefly. */
export async function listWantedLeases(): Promise<Lease[]> {
  const leases: Lease[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const out = await db().send(
      new QueryCommand({
        TableName: table(),
        IndexName: 'gsi2',
        KeyConditionExpression: 'gsi2pk = :g',
        FilterExpression: 'wanted = :t',
        ExpressionAttributeValues: { ':g': GSI_PK, ':t': true },
        ExclusiveStartKey,
      }),
    );
    for (const item of out.Items ?? []) leases.push(toLease(item));
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return leases;
}
